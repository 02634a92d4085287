// Unread state: `unread_msgs` of POST /register and the `message_details` of the
// `update_message_flags` event that marks messages unread (Zulip's get_raw_unread_data,
// aggregate_unread_data and format_unread_message_details).
import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { StateOptions } from './state_options.js';
import { selectNewestUnreadRows, type Conversation } from '../store/message_flags.js';
import { selectDirectGroupMemberIds } from '../store/messages.js';
import { selectSubscriptionsOfUser } from '../store/streams.js';
import { selectUserTopicsOfUser } from '../store/user_topics.js';
import { FLAG } from './flags.js';
import type { MessageDetail } from './message_event_dicts.js';
import { VISIBILITY_POLICY } from './user_topics.js';
import type { Actor } from './roles.js';

/** Zulip's MAX_UNREAD_MESSAGES: unread_msgs covers the newest this many unread messages. */
export const MAX_UNREAD_MESSAGES = 50000;

const WILDCARD = FLAG.stream_wildcard_mentioned | FLAG.topic_wildcard_mentioned;

/** What classifying a user's unread messages reads once: muted channels, topic policies, conversation members. */
export interface UnreadClassifier {
  userId: number;
  mutedStreamIds: Set<number>;
  /** Visibility policies by topicKey(). */
  topicPolicies: Map<string, number>;
  members(directGroupId: number): number[];
}

/** A channel's topic as user_topic matches it (SQLite's NOCASE folds ASCII letters only). */
function topicKey(streamId: number, topic: string): string {
  return `${streamId}\u0000${topic.replace(/[A-Z]/g, (c) => c.toLowerCase())}`;
}

export function newUnreadClassifier(ctx: Ctx, userId: number): UnreadClassifier {
  const mutedStreamIds = new Set(
    selectSubscriptionsOfUser(ctx.store, userId)
      .filter((sub) => sub.is_muted === 1)
      .map((sub) => sub.stream_id),
  );
  const groups = new Map<number, number[]>();
  const topicPolicies = new Map(selectUserTopicsOfUser(ctx.store, userId).map((row) => [topicKey(row.stream_id, row.topic), row.visibility_policy]));
  return {
    userId,
    mutedStreamIds,
    topicPolicies,
    members(directGroupId) {
      let list = groups.get(directGroupId);
      if (list === undefined) {
        list = selectDirectGroupMemberIds(ctx.store, directGroupId);
        groups.set(directGroupId, list);
      }
      return list;
    },
  };
}

/**
 * Zulip's is_row_muted negated: a channel message counts unless its topic is muted, or its
 * channel is muted and the topic neither unmuted nor followed.
 */
function isUnmuted(c: UnreadClassifier, streamId: number | null, topic: string): boolean {
  if (streamId === null) return true;
  // Most users set no topic policy: no key to build per message then.
  const policy = c.topicPolicies.size === 0 ? undefined : c.topicPolicies.get(topicKey(streamId, topic));
  if (c.mutedStreamIds.has(streamId)) return policy === VISIBILITY_POLICY.unmuted || policy === VISIBILITY_POLICY.followed;
  return policy !== VISIBILITY_POLICY.muted;
}

/**
 * The flag bits that make an unread message count as mentioning the user: a direct mention
 * (users or groups) always, a wildcard mention only outside muted channels and topics. Alert words do not (Zulip).
 */
export function mentionMask(c: UnreadClassifier, streamId: number | null, topic: string): number {
  return isUnmuted(c, streamId, topic) ? FLAG.mentioned | WILDCARD : FLAG.mentioned;
}

/** The other participants of a direct message, sorted (empty for a message to oneself). */
function otherParticipants(c: UnreadClassifier, directGroupId: number): number[] {
  return c.members(directGroupId).filter((id) => id !== c.userId);
}

/** One entry of the event's message_details, keyed by the message id as a string. */
function messageDetail(c: UnreadClassifier, m: Conversation, mentioned: boolean): MessageDetail {
  const detail: MessageDetail =
    m.streamId !== null
      ? { type: 'stream', stream_id: m.streamId, topic: m.topic, unmuted_stream_msg: isUnmuted(c, m.streamId, m.topic) }
      : { type: 'private', user_ids: otherParticipants(c, m.directGroupId!) };
  if (mentioned) detail.mentioned = true;
  return detail;
}

/** The event's message_details, keyed by message id. */
export function messageDetails(
  c: UnreadClassifier,
  ids: readonly number[],
  conversations: readonly Conversation[],
  mentioned: readonly boolean[],
): Record<string, MessageDetail> {
  const details: Record<string, MessageDetail> = {};
  ids.forEach((id, i) => {
    details[id] = messageDetail(c, conversations[i]!, mentioned[i]!);
  });
  return details;
}

function append<K>(map: Map<K, number[]>, key: K, id: number): void {
  const list = map.get(key);
  if (list) list.push(id);
  else map.set(key, [id]);
}

const byNumber = (a: number, b: number): number => a - b;
const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

const unreadIds = z.array(z.int());

/** POST /register's `unread_msgs`: the newest MAX_UNREAD_MESSAGES unread messages grouped by conversation. */
export const unreadStateSchema = z.object({
  unread_msgs: z.strictObject({
    pms: z.array(z.strictObject({ other_user_id: z.int(), sender_id: z.int(), unread_message_ids: unreadIds })),
    streams: z.array(z.strictObject({ stream_id: z.int(), topic: z.string(), unread_message_ids: unreadIds })),
    huddles: z.array(z.strictObject({ user_ids_string: z.string(), unread_message_ids: unreadIds })),
    mentions: unreadIds,
    count: z.int(),
    old_unreads_missing: z.boolean(),
  }),
});
type UnreadState = z.infer<typeof unreadStateSchema>;

/** Zulip's unread_msgs: the newest MAX_UNREAD_MESSAGES unread messages grouped by conversation. */
function unreadMessages(ctx: Ctx, userId: number): UnreadState['unread_msgs'] {
  const c = newUnreadClassifier(ctx, userId);
  const rows = selectNewestUnreadRows(ctx.store, userId, MAX_UNREAD_MESSAGES).reverse();
  const pms = new Map<number, number[]>();
  const streams = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[]; key: [number, string] }>();
  const huddles = new Map<string, number[]>();
  const mentions: number[] = [];
  let count = 0;
  for (const row of rows) {
    if (row.streamId !== null) {
      // Topics group case-insensitively under the spelling of their oldest unread message.
      const lower = row.topic.toLowerCase();
      const key = `${row.streamId}\u0000${lower}`;
      let bucket = streams.get(key);
      if (!bucket) {
        bucket = { stream_id: row.streamId, topic: row.topic, unread_message_ids: [], key: [row.streamId, lower] };
        streams.set(key, bucket);
      }
      bucket.unread_message_ids.push(row.id);
      if (isUnmuted(c, row.streamId, row.topic)) count += 1;
    } else {
      const members = c.members(row.directGroupId!);
      if (members.length >= 3) {
        const key = members.join(',');
        append(huddles, key, row.id);
      } else {
        const other = members.find((id) => id !== userId) ?? userId;
        append(pms, other, row.id);
      }
      count += 1;
    }
    if (row.flags & mentionMask(c, row.streamId, row.topic)) mentions.push(row.id);
  }
  return {
    pms: [...pms.keys()].sort(byNumber).map((other) => ({ other_user_id: other, sender_id: other, unread_message_ids: pms.get(other)! })),
    streams: [...streams.values()]
      .sort((a, b) => a.key[0] - b.key[0] || byString(a.key[1], b.key[1]))
      .map(({ stream_id, topic, unread_message_ids }) => ({ stream_id, topic, unread_message_ids })),
    huddles: [...huddles.keys()].sort(byString).map((key) => ({ user_ids_string: key, unread_message_ids: huddles.get(key)! })),
    mentions,
    count,
    old_unreads_missing: rows.length === MAX_UNREAD_MESSAGES,
  };
}

/** POST /register: `unread_msgs` (fetched with both `message` and `update_message_flags`: lib/domain/register_state.ts). */
export function fetchUnreadState(ctx: Ctx, actor: Actor, _options: StateOptions): UnreadState {
  return { unread_msgs: unreadMessages(ctx, actor.id) };
}
