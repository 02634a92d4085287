// Personal settings (#settings/<section>): profile, account and security, notifications,
// display, status and alert words, muted and followed topics and muted users, bots and integrations.
import type { Client } from '../client.js';
import { useStore } from '../store.js';
import { AccountSettings, ProfileSettings } from './AccountSettings.js';
import { BotSettings } from './BotSettings.js';
import { MutedSettings } from './MutedSettings.js';
import { submitting, useOutcome } from './outcome.js';
import { DisplaySettings, NotificationSettings } from './PreferenceSettings.js';
import { SectionNav } from './SectionNav.js';

export const SETTINGS_SECTIONS = [
  { id: 'profile', label: 'Profile' },
  { id: 'account', label: 'Account and privacy' },
  { id: 'notifications', label: 'Notifications' },
  { id: 'display', label: 'Display' },
  { id: 'status', label: 'Status and alert words' },
  { id: 'topics', label: 'Topics and muted users' },
  { id: 'bots', label: 'Bots' },
] as const;

function StatusSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const mine = state.userStatus.get(state.me.user_id) ?? {};
  const [outcome, run] = useOutcome();
  const submit = (e: Event) => {
    e.preventDefault();
    const data = new FormData(e.target as HTMLFormElement);
    const emoji = String(data.get('emoji') ?? '').trim().replace(/^:|:$/g, '');
    run(client.people.setStatus('me', { status_text: String(data.get('text') ?? ''), emoji_name: emoji }));
  };
  return (
    <section>
      <h2>Your status</h2>
      <form class="settings-form" onSubmit={submit} key={`${mine.status_text}/${mine.emoji_name}`}>
        <label>Status text <input name="text" maxLength={60} defaultValue={mine.status_text ?? ''} /></label>
        <label>Emoji name <input name="emoji" placeholder="e.g. palm_tree" defaultValue={mine.emoji_name ?? ''} /></label>
        <button type="submit">Save status</button>
        <button type="button" onClick={() => run(client.people.setStatus('me', { status_text: '', emoji_name: '' }), 'Cleared.')}>Clear</button>
      </form>
      <p role="status">{outcome}</p>
    </section>
  );
}

function AlertWordSettings({ client }: { client: Client }) {
  const state = useStore(client.state);
  const [outcome, run] = useOutcome();
  const add = submitting(run, (data) => {
    const word = String(data.get('word') ?? '').trim();
    return word ? client.people.addAlertWord(word) : null;
  });
  return (
    <section>
      <h2>Alert words</h2>
      <ul class="alert-words">
        {state.alertWords.map((w) => (
          <li key={w}>{w} <button aria-label={`Remove ${w}`} onClick={() => run(client.people.removeAlertWord(w), 'Removed.')}>Remove</button></li>
        ))}
      </ul>
      <form class="settings-form" onSubmit={add}>
        <label>New alert word <input name="word" /></label>
        <button type="submit">Add</button>
      </form>
      <p role="status">{outcome}</p>
    </section>
  );
}

export function Settings({ client, section, onSignOut }: { client: Client; section: string; onSignOut: () => void }) {
  return (
    <div class="settings with-sections">
      <SectionNav page="settings" sections={SETTINGS_SECTIONS} current={section} label="Settings sections" />
      <div class="section-body">
        {section === 'profile' && <ProfileSettings client={client} />}
        {section === 'account' && <AccountSettings client={client} onSignOut={onSignOut} />}
        {section === 'notifications' && <NotificationSettings client={client} />}
        {section === 'display' && <DisplaySettings client={client} />}
        {section === 'status' && <><StatusSettings client={client} /><AlertWordSettings client={client} /></>}
        {section === 'topics' && <MutedSettings client={client} />}
        {section === 'bots' && <BotSettings client={client} />}
        {!SETTINGS_SECTIONS.some((s) => s.id === section) && <p class="empty">No such settings page.</p>}
      </div>
    </div>
  );
}
