// The `edit_history` and `last_moved_timestamp` of Zulip's message objects, read per message or for
// a page of messages at once (Zulip's default message_edit_history_visibility_policy, "all").
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { groupBy } from '../group.js';
import { selectMessageEdits, selectMessageEditsOf, type MessageEditRow } from '../store/message_edits.js';

/** One entry of a message object's edit_history (Zulip's EditHistoryEvent), newest first. */
export const editHistoryEntrySchema = z
  .object({
    user_id: z.int(),
    timestamp: z.int(),
    prev_content: z.string().optional(),
    prev_rendered_content: z.string().optional(),
    prev_topic: z.string().optional(),
    topic: z.string().optional(),
  })
  .strict();
export type EditHistoryEntry = z.infer<typeof editHistoryEntrySchema>;

/** Zulip's RESOLVED_TOPIC_PREFIX: a topic move that only adds or removes it resolves or unresolves. */
const RESOLVED_TOPIC_PREFIX = '✔ ';

function entryOf(row: MessageEditRow): EditHistoryEntry {
  const entry: EditHistoryEntry = { user_id: row.user_id, timestamp: row.timestamp };
  if (row.prev_content !== null) Object.assign(entry, { prev_content: row.prev_content, prev_rendered_content: row.prev_rendered_content });
  if (row.prev_topic !== null) Object.assign(entry, { prev_topic: row.prev_topic, topic: row.topic });
  return entry;
}

/** The edit_history of one message object, newest first (empty: never edited). */
export function messageEditHistory(ctx: Ctx, messageId: number): EditHistoryEntry[] {
  return selectMessageEdits(ctx.store, messageId).map(entryOf);
}

/** The edit_history of many message objects, read in one statement. */
export function editHistoryByMessage(ctx: Ctx, messageIds: readonly number[]): Map<number, EditHistoryEntry[]> {
  if (messageIds.length === 0) return new Map();
  return groupBy(selectMessageEditsOf(ctx.store, messageIds), (row) => row.message_id, entryOf);
}

function isResolveOnly(prevTopic: string, topic: string): boolean {
  const strip = (name: string): string => (name.startsWith(RESOLVED_TOPIC_PREFIX) ? name.slice(RESOLVED_TOPIC_PREFIX.length) : name);
  return strip(prevTopic) === strip(topic);
}

/** Zulip's last_moved_timestamp (feature level 365): the newest topic move that is not only a (un)resolve. */
export function lastMovedTimestamp(history: readonly EditHistoryEntry[]): number | undefined {
  // A topic move's entry carries both prev_topic and topic (entryOf).
  return history.find((entry) => entry.prev_topic !== undefined && entry.topic !== undefined && !isResolveOnly(entry.prev_topic, entry.topic))?.timestamp;
}

