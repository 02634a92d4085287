// Desktop notifications in the browser (the Notification API) for new messages while the tab is
// open but hidden or unfocused, by the rules of Zulip's web app (message_notifications.ts:
// message_is_notifiable and should_send_desktop_notification; https://zulip.com/help/desktop-notifications),
// and the unread count in the tab's title. With the tab closed, the server's Web Push does it
// (web_push.ts, sw.ts), with the same tags: one replaces the other.
import { dmUserIds } from './narrow.js';
import { topicKey, TOPIC_FOLLOWED, TOPIC_UNMUTED, type State } from './store.js';
import type { Message } from './types.js';

const WILDCARD = ['stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'wildcard_mentioned'];

/** A channel setting that falls back to the user's global one when unset (Zulip's receives_notifications). */
function receives(state: State, streamId: number | undefined, setting: 'desktop_notifications' | 'wildcard_mentions_notify'): boolean {
  const own = streamId === undefined ? undefined : state.subs.get(streamId)?.[setting];
  if (typeof own === 'boolean') return own;
  return state.setting(setting === 'desktop_notifications' ? 'enable_stream_desktop_notifications' : 'wildcard_mentions_notify', setting !== 'desktop_notifications');
}

/** Whether a new message would pop up a desktop notification, whatever the tab's state. */
export function notifies(state: State, m: Message): boolean {
  if (m.sender_id === state.me.user_id || m.flags.includes('read')) return false;
  const direct = m.flags.includes('mentioned');
  const mentioned = direct || m.flags.some((f) => WILDCARD.includes(f));
  const stream = m.type === 'stream' ? m.stream_id : undefined;
  const policy = stream === undefined ? 0 : state.topicPolicy(stream, m.subject);
  const followed = policy === TOPIC_FOLLOWED;
  // message_is_notifiable: direct mentions and followed topics beat muting.
  if (!direct && !followed && stream !== undefined) {
    if (state.isMuted(stream, m.subject) && !(policy !== TOPIC_UNMUTED && mentioned && state.subs.get(stream)?.wildcard_mentions_notify === true)) return false;
  }
  // should_send_desktop_notification.
  if (stream !== undefined && receives(state, stream, 'desktop_notifications')) return true;
  if (followed && state.setting('enable_followed_topic_desktop_notifications', true)) return true;
  if (!state.setting('enable_desktop_notifications', true)) return false;
  if (m.type === 'private' || direct || m.flags.includes('has_alert_word')) return true;
  if (mentioned && stream !== undefined && receives(state, stream, 'wildcard_mentions_notify')) return true;
  return mentioned && followed && state.setting('enable_followed_topic_wildcard_mentions_notify', true);
}

const text = (html: string): string => new DOMParser().parseFromString(html, 'text/html').body.textContent?.trim() ?? '';

/** The notification's title and body, as Zulip words them. */
export function notificationText(state: State, m: Message): { title: string; body: string } {
  if (m.type === 'private') {
    const others = Array.isArray(m.display_recipient) ? m.display_recipient.length - 2 : 0;
    const title = `${m.sender_full_name} ${others > 0 ? `(to you and ${others} more)` : '(to you)'}`;
    const body = state.setting('pm_content_in_desktop_notifications', true) ? text(m.content) : `New direct message from ${m.sender_full_name}`;
    return { title, body };
  }
  return { title: `${m.sender_full_name} (#${state.streamName(m.stream_id ?? 0)} > ${m.subject || '(general chat)'})`, body: text(m.content) };
}

export const notificationsSupported = (): boolean => typeof Notification !== 'undefined';

/** Shows the notification when the user is elsewhere; a click brings the tab back to the message's conversation. */
export function notifyOfMessage(state: State, m: Message, hashOf: (m: Message) => string): void {
  if (!notificationsSupported() || Notification.permission !== 'granted') return;
  if (document.visibilityState === 'visible' && document.hasFocus()) return;
  if (!notifies(state, m)) return;
  const { title, body } = notificationText(state, m);
  const tag = m.type === 'private' ? `dm:${dmUserIds(m).join(',')}` : `channel:${topicKey(m.stream_id ?? 0, m.subject)}`;
  const n = new Notification(title, { body, tag });
  n.addEventListener('click', () => {
    window.focus();
    location.hash = hashOf(m);
    n.close();
  });
}

/** The tab's title: the unread count first, as Zulip's "(3) Organization - Zulip". */
export function pageTitle(state: State, view: string): string {
  const count = [...state.unread.values()].filter((p) => 'dm' in p || !state.isMuted(p.streamId, p.topic)).length;
  return `${count > 0 ? `(${count}) ` : ''}${view ? `${view} - ` : ''}${state.realm.name || 'parley'}`;
}
