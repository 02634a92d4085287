// One missed-message email, as Zulip's do_send_missedmessage_events_reply_in_zulip and its
// missed_message templates write it: subject, plain text and HTML parts, link, footer.
import markdownIt from 'markdown-it';
import type { Realm } from '../domain/realm.js';
import type { UserRow } from '../store/users.js';
import { conversationUrl, topicDisplayName, type NotifiedMessage } from './message_view.js';
import type { NotificationTrigger } from './triggers.js';

const { escapeHtml } = markdownIt().utils;

/** A message of the email, with what decided it. */
export interface EmailedMessage {
  message: NotifiedMessage;
  trigger: NotificationTrigger;
  /** The mentioned group's name, when the mention was of a group the recipient is in. */
  group: string | null;
}

interface EmailContent {
  subject: string;
  text: string;
  html: string;
}

export interface Recipient {
  user: UserRow;
  /** Zulip's message_content_in_email_notifications. */
  showContent: boolean;
  /** Zulip's include_realm_name_in_missedmessage_emails_subject. */
  realmNameInSubject: boolean;
}

const MENTIONS: ReadonlySet<NotificationTrigger> = new Set([
  'mentioned',
  'topic_wildcard_mentioned',
  'stream_wildcard_mentioned',
  'topic_wildcard_mentioned_in_followed_topic',
  'stream_wildcard_mentioned_in_followed_topic',
]);

/** Zulip's huddle_display_name: the other participants' names. */
function groupDisplayName(names: readonly string[]): string {
  if (names.length === 2) return names.join(' and ');
  if (names.length === 3) return `${names[0]}, ${names[1]}, and ${names[2]}`;
  return `${names.slice(0, 2).join(', ')}, and ${names.length - 2} others`;
}

/** Zulip's subject template: the conversation, "New messages" when content is off. */
function subject(recipient: Recipient, messages: readonly EmailedMessage[], realm: Realm, names: Map<number, string>): string {
  const first = messages[0]!.message;
  let text: string;
  if (!recipient.showContent) text = 'New messages';
  else if (first.stream) text = `#${first.stream.name} > ${topicDisplayName(first.row.topic)}`;
  else if (first.directUserIds.length > 2) {
    text = `Group DMs with ${groupDisplayName(first.directUserIds.filter((id) => id !== recipient.user.id).map((id) => names.get(id) ?? ''))}`;
  } else text = `DMs with ${senders(messages).join(', ')}`;
  return recipient.realmNameInSubject ? `${text} [${realm.name}]` : text;
}

/** The senders the email names: for a mention, those who mentioned (Zulip). */
function senders(messages: readonly EmailedMessage[]): string[] {
  const mentioning = messages.filter((m) => MENTIONS.has(m.trigger));
  const shown = mentioning.length > 0 && messages[0]!.message.stream ? mentioning : messages;
  return [...new Set(shown.map((m) => m.message.sender.full_name))];
}

/** Zulip's footer: why this email was sent. */
function reason(messages: readonly EmailedMessage[]): string {
  const triggers = new Set(messages.map((m) => m.trigger));
  const first = messages[0]!.message;
  const where = first.stream ? `#${first.stream.name}` : '';
  if (triggers.has('direct_message')) return first.directUserIds.length > 2 ? 'you received group direct messages' : 'you received direct messages';
  const personal = messages.some((m) => m.trigger === 'mentioned' && m.group === null);
  if (personal) return 'you were personally mentioned';
  const group = messages.find((m) => m.trigger === 'mentioned' && m.group !== null)?.group;
  if (group) return `@${group} was mentioned`;
  if (triggers.has('topic_wildcard_mentioned') || triggers.has('topic_wildcard_mentioned_in_followed_topic')) return `all topic participants were mentioned in ${where} > ${topicDisplayName(first.row.topic)}`;
  if (triggers.has('stream_wildcard_mentioned') || triggers.has('stream_wildcard_mentioned_in_followed_topic')) return `everyone was mentioned in ${where}`;
  if (triggers.has('followed_topic_email_notify')) return 'you have email notifications enabled for topics you follow';
  return `you have email notifications enabled for ${where}`;
}

/** Zulip's relative_to_full_url: the message's links and images work from a mail client. */
function absoluteLinks(html: string, realmUrl: string): string {
  const base = realmUrl.replace(/\/+$/, '');
  return html.replace(/ (href|src)="(\/(?!\/)|#)/g, (_, attr: string, start: string) => ` ${attr}="${base}${start === '#' ? '/#' : '/'}`);
}

export function missedMessageEmail(recipient: Recipient, messages: readonly EmailedMessage[], realm: Realm, names: Map<number, string>): EmailContent {
  const url = conversationUrl(realm.url, messages[0]!.message);
  const settingsUrl = `${realm.url.replace(/\/+$/, '')}/#settings`;
  const why = `You are receiving this because ${reason(messages)}.`;
  const textParts: string[] = [];
  const htmlParts: string[] = [];
  if (recipient.showContent) {
    for (const { message } of messages) {
      textParts.push(`${message.sender.full_name}:\n${message.text.trim()}\n`);
      htmlParts.push(
        `<div class="message"><p><b>${escapeHtml(message.sender.full_name)}</b></p>${absoluteLinks(message.row.rendered_content, realm.url)}</div>`,
      );
    }
  } else {
    const off = 'This email does not include message content because you have disabled message content in email notifications.';
    textParts.push(`${off}\n`);
    htmlParts.push(`<p>${off}</p>`);
  }
  const text = [...textParts, '--', `Do not reply to this email. This conversation can be viewed in ${realm.name}:`, url, '', why, `Manage email preferences: ${settingsUrl}`, ''].join('\n');
  const html = [
    '<!DOCTYPE html><html><body>',
    ...htmlParts,
    `<p><a href="${escapeHtml(url)}">View this conversation in ${escapeHtml(realm.name)}</a></p>`,
    `<p>Do not reply to this email.<br>${escapeHtml(why)}<br><a href="${escapeHtml(settingsUrl)}">Manage email preferences</a></p>`,
    '</body></html>',
  ].join('\n');
  return { subject: subject(recipient, messages, realm, names), text, html };
}
