// Who may see a channel and read its history (Zulip's check_basic_stream_access,
// can_access_stream_history, has_message_access for channel messages), and who is told about it.
import type { Ctx } from '../context.js';
import type { Audience } from '../events/audience.js';
import type { MessageRow } from '../store/messages.js';
import { selectActiveSubscribedGuestIds, selectActiveSubscriberIds, selectActiveUserIdsWithRoleAtMost, selectIsSubscribed, type StreamRow } from '../store/streams.js';
import { selectActiveUserIdsWithRow } from '../store/user_message.js';
import { ROLE, isAdmin, isGuest } from './roles.js';

interface Viewer {
  role: number;
}

/**
 * Whether the user knows the channel exists: public channels for everyone but guests, any
 * channel one is subscribed to, and (metadata only) every channel for administrators.
 */
export function canSeeStream(user: Viewer, stream: StreamRow, subscribed: boolean): boolean {
  if (subscribed) return true;
  if (stream.invite_only === 0 && !isGuest(user)) return true;
  return isAdmin(user);
}

/** Zulip's check_basic_stream_access without the administrator exception: the channel's content. */
export function canAccessStreamContent(user: Viewer, stream: StreamRow, subscribed: boolean): boolean {
  return subscribed || (stream.invite_only === 0 && !isGuest(user));
}

/** Zulip's can_access_stream_history: whether messages sent before one joined are readable. */
export function canAccessStreamHistory(user: Viewer, stream: StreamRow, subscribed: boolean): boolean {
  if (stream.invite_only === 0 && !isGuest(user)) return true;
  return stream.history_public_to_subscribers === 1 && subscribed;
}

/**
 * Zulip's has_message_access for a channel message: public channels for non-guests; otherwise
 * a subscription, and for protected history also a row of one's own for the message.
 */
export function canReadStreamMessage(user: Viewer, stream: StreamRow, subscribed: boolean, hasRow: boolean): boolean {
  if (stream.invite_only === 0 && !isGuest(user)) return true;
  if (stream.history_public_to_subscribers === 0) return hasRow && subscribed;
  return subscribed;
}

/**
 * Active users who can see the channel: for a public channel every non-guest plus subscribed
 * guests; for a private one its subscribers plus administrators.
 */
export function streamViewerIds(ctx: Ctx, stream: StreamRow): Set<number> {
  const everyoneElse = selectActiveUserIdsWithRoleAtMost(ctx.store, stream.invite_only === 0 ? ROLE.member : ROLE.admin);
  return new Set([...everyoneElse, ...selectActiveSubscriberIds(ctx.store, stream.id)]);
}

/**
 * streamViewerIds as an event audience: the roles that see the channel as a rule, the others who
 * do by name (a public channel's subscribed guests, a private one's subscribers), so that an event
 * to a public channel's viewers is one short row.
 */
export function streamViewers(ctx: Ctx, stream: StreamRow): Audience {
  if (stream.invite_only === 0) return { maxRole: ROLE.member, users: selectActiveSubscribedGuestIds(ctx.store, stream.id) };
  return { maxRole: ROLE.admin, users: selectActiveSubscriberIds(ctx.store, stream.id) };
}

/**
 * Who hears of an action on a message (a reaction, a deletion): Zulip's
 * event_recipient_ids_for_action_on_messages, as an audience. Direct messages: their recipients
 * (rows). Channels with protected history: subscribers who received it; private channels: their
 * subscribers; public channels: subscribers and anyone else (not a guest) who has the message
 * (a row, or a subscription period that covers it).
 */
export function messageActionAudience(ctx: Ctx, row: Pick<MessageRow, 'id' | 'stream_id' | 'by_period'>, stream: StreamRow | undefined): Audience {
  if (row.stream_id === null || stream === undefined) return { users: selectActiveUserIdsWithRow(ctx.store, row.id, ROLE.guest) };
  const received = row.by_period === 1 ? { stream: stream.id, messages: [row.id] } : undefined;
  if (stream.history_public_to_subscribers === 0) {
    const withRow = selectActiveUserIdsWithRow(ctx.store, row.id, ROLE.guest).filter((id) => selectIsSubscribed(ctx.store, id, stream.id));
    return received ? { users: withRow, received, subscribedTo: stream.id } : { users: withRow };
  }
  if (stream.invite_only === 1) return { subscribedTo: stream.id };
  const withRow = selectActiveUserIdsWithRow(ctx.store, row.id, ROLE.member);
  return { users: withRow, subscribedTo: stream.id, ...(received && { anyOf: [{ received, maxRole: ROLE.member }] }) };
}
