// Shared by the message flag tests: the `update_message_flags` event and `unread_msgs` schemas, a
// Zulip client's apply_event for unread_msgs (Zulip's raw_unread_msgs logic), and the unread
// state recomputed straight from the tables (test/schema_23.ts USER_MESSAGE_ALL: the user_message
// rows and the subscription periods' messages).
import { z } from 'zod';
import type Database from 'better-sqlite3';
import { messageDetailSchema } from '../lib/domain/message_event_dicts.js';
import { USER_MESSAGE_ALL } from './schema_23.js';

const id = z.int();

export const flagsEventSchema = z
  .object({
    id,
    type: z.literal('update_message_flags'),
    op: z.enum(['add', 'remove']),
    operation: z.enum(['add', 'remove']),
    flag: z.enum(['read', 'starred', 'collapsed']),
    messages: z.array(id),
    all: z.boolean(),
    message_details: z.record(z.string().regex(/^\d+$/), messageDetailSchema).optional(),
  })
  .strict()
  .refine((e) => e.op === e.operation, 'op equals operation')
  .refine((e) => (e.message_details !== undefined) === (e.op === 'remove' && e.flag === 'read'), 'message_details exactly when marking unread')
  .refine((e) => !e.all || (e.op === 'add' && e.flag === 'read' && e.messages.length === 0), 'all only for mark-all-as-read');

export const unreadMsgsSchema = z
  .object({
    pms: z.array(z.object({ other_user_id: id, sender_id: id, unread_message_ids: z.array(id) }).strict()),
    streams: z.array(z.object({ stream_id: id, topic: z.string(), unread_message_ids: z.array(id) }).strict()),
    huddles: z.array(z.object({ user_ids_string: z.string().regex(/^\d+(,\d+)*$/), unread_message_ids: z.array(id) }).strict()),
    mentions: z.array(id),
    count: id,
    old_unreads_missing: z.boolean(),
  })
  .strict();

export type UnreadMsgs = z.infer<typeof unreadMsgsSchema>;

/** Zulip's raw_unread_msgs: per message id, its conversation; plus mentions and unmuted channel messages. */
interface RawUnread {
  pm: Map<number, number>;
  stream: Map<number, { stream_id: number; topic: string }>;
  huddle: Map<number, string>;
  unmuted: Set<number>;
  mentions: Set<number>;
  oldUnreadsMissing: boolean;
}

function toRaw(state: UnreadMsgs, mutedStreamIds: ReadonlySet<number>): RawUnread {
  const raw: RawUnread = { pm: new Map(), stream: new Map(), huddle: new Map(), unmuted: new Set(), mentions: new Set(state.mentions), oldUnreadsMissing: state.old_unreads_missing };
  for (const pm of state.pms) for (const m of pm.unread_message_ids) raw.pm.set(m, pm.other_user_id);
  for (const h of state.huddles) for (const m of h.unread_message_ids) raw.huddle.set(m, h.user_ids_string);
  for (const s of state.streams) {
    for (const m of s.unread_message_ids) {
      raw.stream.set(m, { stream_id: s.stream_id, topic: s.topic });
      if (!mutedStreamIds.has(s.stream_id)) raw.unmuted.add(m);
    }
  }
  return raw;
}

const byString = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

/** Zulip's aggregate_unread_data. */
function aggregate(raw: RawUnread): UnreadMsgs {
  const ids = (pairs: [number, unknown][], key: unknown): number[] => pairs.filter(([, k]) => k === key).map(([m]) => m).sort((a, b) => a - b);
  const pmPairs = [...raw.pm];
  const others = [...new Set(pmPairs.map(([, o]) => o))].sort((a, b) => a - b);
  const huddlePairs = [...raw.huddle];
  const huddleKeys = [...new Set(huddlePairs.map(([, k]) => k))].sort(byString);
  const buckets = new Map<string, { stream_id: number; topic: string; unread_message_ids: number[]; lower: string }>();
  for (const [m, s] of [...raw.stream].sort((a, b) => a[0] - b[0])) {
    const key = `${s.stream_id}\u0000${s.topic.toLowerCase()}`;
    const bucket = buckets.get(key) ?? { stream_id: s.stream_id, topic: s.topic, unread_message_ids: [], lower: s.topic.toLowerCase() };
    bucket.unread_message_ids.push(m);
    buckets.set(key, bucket);
  }
  return {
    pms: others.map((o) => ({ other_user_id: o, sender_id: o, unread_message_ids: ids(pmPairs, o) })),
    streams: [...buckets.values()]
      .sort((a, b) => a.stream_id - b.stream_id || byString(a.lower, b.lower))
      .map(({ stream_id, topic, unread_message_ids }) => ({ stream_id, topic, unread_message_ids })),
    huddles: huddleKeys.map((k) => ({ user_ids_string: k, unread_message_ids: ids(huddlePairs, k) })),
    mentions: [...raw.mentions].sort((a, b) => a - b),
    count: raw.pm.size + raw.huddle.size + raw.unmuted.size,
    old_unreads_missing: raw.oldUnreadsMissing,
  };
}

function forget(raw: RawUnread, messageId: number): void {
  raw.pm.delete(messageId);
  raw.stream.delete(messageId);
  raw.huddle.delete(messageId);
  raw.unmuted.delete(messageId);
  raw.mentions.delete(messageId);
}

function isUnread(raw: RawUnread, messageId: number): boolean {
  return raw.pm.has(messageId) || raw.stream.has(messageId) || raw.huddle.has(messageId);
}

/**
 * A Zulip client's apply_event for unread_msgs: new unread messages, flag changes (with
 * message_details when marking unread, `all` for mark-all-as-read), topic and mention edits,
 * deleted messages.
 */
export function applyUnreadEvents(before: UnreadMsgs, events: readonly Record<string, any>[], userId: number, mutedStreamIds: ReadonlySet<number> = new Set()): UnreadMsgs {
  const raw = toRaw(structuredClone(before), mutedStreamIds);
  for (const event of events) {
    if (event.type === 'message' && !event.flags.includes('read')) {
      const m = event.message;
      if (m.type === 'stream') {
        raw.stream.set(m.id, { stream_id: m.stream_id, topic: m.subject });
        if (!mutedStreamIds.has(m.stream_id)) raw.unmuted.add(m.id);
      } else {
        const members = (m.display_recipient as { id: number }[]).map((r) => r.id).sort((a, b) => a - b);
        if (members.length >= 3) raw.huddle.set(m.id, members.join(','));
        else raw.pm.set(m.id, members.find((u) => u !== userId) ?? userId);
      }
      const wildcard = event.flags.includes('stream_wildcard_mentioned') || event.flags.includes('topic_wildcard_mentioned');
      if (event.flags.includes('mentioned') || (wildcard && (m.type !== 'stream' || !mutedStreamIds.has(m.stream_id)))) raw.mentions.add(m.id);
    } else if (event.type === 'update_message_flags' && event.flag === 'read' && event.op === 'add') {
      if (event.all) for (const m of [...raw.pm.keys(), ...raw.stream.keys(), ...raw.huddle.keys()]) forget(raw, m);
      for (const m of event.messages) forget(raw, m);
    } else if (event.type === 'update_message_flags' && event.flag === 'read' && event.op === 'remove') {
      for (const [key, d] of Object.entries(event.message_details as Record<string, any>)) {
        const m = Number(key);
        if (d.type === 'stream') {
          raw.stream.set(m, { stream_id: d.stream_id, topic: d.topic });
          if (d.unmuted_stream_msg) raw.unmuted.add(m);
        } else if (d.user_ids.length >= 2) {
          raw.huddle.set(m, [...d.user_ids, userId].sort((a: number, b: number) => a - b).join(','));
        } else {
          raw.pm.set(m, d.user_ids[0] ?? userId);
        }
        if (d.mentioned) raw.mentions.add(m);
      }
    } else if (event.type === 'delete_message') {
      for (const m of event.message_ids ?? [event.message_id]) forget(raw, m);
    } else if (event.type === 'update_message') {
      if (event.subject !== undefined) for (const m of event.message_ids) if (raw.stream.has(m)) raw.stream.get(m)!.topic = event.subject;
      if (isUnread(raw, event.message_id)) {
        const flags: string[] = event.flags;
        const s = raw.stream.get(event.message_id);
        const wildcard = flags.includes('stream_wildcard_mentioned') || flags.includes('topic_wildcard_mentioned');
        if (flags.includes('mentioned') || (wildcard && (!s || !mutedStreamIds.has(s.stream_id)))) raw.mentions.add(event.message_id);
        else raw.mentions.delete(event.message_id);
      }
    }
  }
  return aggregate(raw);
}

/**
 * The unread state computed independently from the rows: every unread row of the user, grouped
 * as Zulip groups it (no muted channels in these tests).
 */
export function unreadFromRows(db: Database.Database, userId: number): UnreadMsgs {
  const rows = db
    .prepare(
      `SELECT um.message_id AS id, um.flags, m.stream_id, m.topic,
              (SELECT group_concat(user_id) FROM (SELECT user_id FROM direct_group_member WHERE direct_group_id = m.direct_group_id ORDER BY user_id)) AS members
       FROM (${USER_MESSAGE_ALL}) um JOIN message m ON m.id = um.message_id WHERE um.user_id = ? AND (um.flags & 1) = 0`,
    )
    .all(userId) as { id: number; flags: number; stream_id: number | null; topic: string; members: string | null }[];
  const raw: RawUnread = { pm: new Map(), stream: new Map(), huddle: new Map(), unmuted: new Set(), mentions: new Set(), oldUnreadsMissing: false };
  for (const row of rows) {
    if (row.stream_id !== null) {
      raw.stream.set(row.id, { stream_id: row.stream_id, topic: row.topic });
      raw.unmuted.add(row.id);
    } else {
      const members = row.members!.split(',').map(Number);
      if (members.length >= 3) raw.huddle.set(row.id, members.join(','));
      else raw.pm.set(row.id, members.find((u) => u !== userId) ?? userId);
    }
    if (row.flags & (8 | 16 | 32)) raw.mentions.add(row.id);
  }
  return aggregate(raw);
}

/** Unread messages of the user in channels they are not subscribed to (none). */
export function unreadOutsideSubscriptions(db: Database.Database, userId: number): number[] {
  return db
    .prepare(
      `SELECT um.message_id FROM (${USER_MESSAGE_ALL}) um JOIN message m ON m.id = um.message_id
       WHERE um.user_id = ? AND (um.flags & 1) = 0 AND m.stream_id IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM subscription s WHERE s.user_id = um.user_id AND s.stream_id = m.stream_id)`,
    )
    .pluck()
    .all(userId) as number[];
}
