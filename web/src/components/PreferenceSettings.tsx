// Notification and display settings (PATCH /settings; Zulip's names and defaults), this
// browser's permission for desktop notifications, and its Web Push switch.
import { useState } from 'preact/hooks';
import type { Client } from '../client.js';
import { notificationsSupported } from '../notify.js';
import { useStore } from '../store.js';
import { useOutcome } from './outcome.js';
import { Toggle } from './SectionNav.js';
import { WebPushToggle } from './WebPushToggle.js';

type Row = [name: string, label: string, fallback: boolean];

const NOTIFICATION_GROUPS: [string, Row[]][] = [
  ['Desktop (this browser, while parley is open)', [
    ['enable_desktop_notifications', 'Direct messages, mentions and alert words', true],
    ['enable_stream_desktop_notifications', 'Every message in channels (unless a channel says otherwise)', false],
    ['enable_followed_topic_desktop_notifications', 'Messages in followed topics', true],
    ['pm_content_in_desktop_notifications', 'Show the text of direct messages', true],
  ]],
  ['Mobile', [
    ['enable_offline_push_notifications', 'Direct messages, mentions and alert words when away', true],
    ['enable_online_push_notifications', 'Also while active elsewhere', true],
    ['enable_stream_push_notifications', 'Every message in channels', false],
    ['enable_followed_topic_push_notifications', 'Messages in followed topics', true],
  ]],
  ['Email', [
    ['enable_offline_email_notifications', 'Direct messages, mentions and alert words when away', true],
    ['enable_stream_email_notifications', 'Every message in channels', false],
    ['enable_followed_topic_email_notifications', 'Messages in followed topics', true],
    ['message_content_in_email_notifications', 'Include the message text', true],
  ]],
  ['Mentions', [
    ['wildcard_mentions_notify', 'Notify for @all / @everyone / @channel mentions', true],
    ['enable_followed_topic_wildcard_mentions_notify', 'And for those in followed topics', true],
  ]],
];

function BrowserPermission() {
  const [permission, setPermission] = useState(notificationsSupported() ? Notification.permission : 'unsupported');
  if (permission === 'unsupported') return <p>This browser has no desktop notifications.</p>;
  if (permission === 'granted') return <p class="permission">Desktop notifications are allowed in this browser.</p>;
  if (permission === 'denied') return <p class="permission">This browser blocks notifications from parley: allow them in the browser's site settings.</p>;
  return <p><button class="send" onClick={() => void Notification.requestPermission().then(setPermission)}>Allow desktop notifications in this browser</button></p>;
}

export function NotificationSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  return (
    <section>
      <h2>Notifications</h2>
      <BrowserPermission />
      <WebPushToggle client={client} />
      {NOTIFICATION_GROUPS.map(([heading, rows]) => (
        <fieldset key={heading}>
          <legend>{heading}</legend>
          {rows.map(([name, label, fallback]) => (
            <Toggle key={name} name={name} label={label} checked={state.setting(name, fallback)} onChange={(on) => run(client.people.updateSettings({ [name]: on }))} />
          ))}
        </fieldset>
      ))}
      <p role="status">{outcome}</p>
    </section>
  );
}

export function DisplaySettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const choices = state.settings?.emojiset_choices ?? [];
  return (
    <section>
      <h2>Display</h2>
      <div class="stacked-form">
        <Toggle name="twenty_four_hour_time" label="Twenty-four hour time (17:00, not 5:00 PM)" checked={state.setting('twenty_four_hour_time', false)}
          onChange={(on) => run(client.people.updateSettings({ twenty_four_hour_time: on }))} />
        <label>Emoji
          <select name="emojiset" value={String(state.settingValue('emojiset') ?? 'google')} onChange={(e) => run(client.people.updateSettings({ emojiset: (e.target as HTMLSelectElement).value }))}>
            {choices.map((c) => <option key={c.key} value={c.key}>{c.text}</option>)}
          </select>
        </label>
        <p class="muted">This web client draws emoji with the system's font, or as <code>:names:</code> with "Plain text"; Zulip's other clients use the set chosen here.</p>
      </div>
      <p role="status">{outcome}</p>
    </section>
  );
}
