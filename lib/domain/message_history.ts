// Message edit history: GET /messages/{message_id}/history (Zulip's get_message_edit_history and
// fill_edit_history_entries), and recording edits (called by lib/domain/message_edit.ts).
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { insertMessageEdit } from '../store/message_edits.js';
import { messageEditHistory } from './edit_history_dicts.js';
import { accessMessage } from './message_fetch.js';
import type { Actor } from './roles.js';

/** A snapshot of GET /messages/{id}/history: the message as it was after one edit (or as sent). */
const historySnapshotSchema = z
  .object({
    topic: z.string(),
    content: z.string(),
    rendered_content: z.string(),
    timestamp: z.int(),
    user_id: z.int(),
    prev_topic: z.string().optional(),
    prev_content: z.string().optional(),
    prev_rendered_content: z.string().optional(),
  })
  .strict();
type HistorySnapshot = z.infer<typeof historySnapshotSchema>;

/** GET /messages/{message_id}/history. */
export const messageHistoryAnswerSchema = z.object({ message_history: z.array(historySnapshotSchema) });

/** Records one edit or move of a message; `content` and `topic` only when they changed. */
export function recordEdit(
  ctx: Ctx,
  actor: Actor,
  messageId: number,
  change: { prevContent?: string; prevRenderedContent?: string; prevTopic?: string; topic?: string },
): void {
  insertMessageEdit(ctx.store, {
    message_id: messageId,
    user_id: actor.id,
    timestamp: ctx.now(),
    prev_content: change.prevContent ?? null,
    prev_rendered_content: change.prevRenderedContent ?? null,
    prev_topic: change.prevTopic ?? null,
    topic: change.topic ?? null,
  });
}

/** GET /messages/{message_id}/history: snapshots oldest first, the message as sent first. */
export function getMessageHistory(ctx: Ctx, actor: Actor, input: { messageId: number }): z.infer<typeof messageHistoryAnswerSchema> {
  return ctx.tx(() => {
    const { row } = accessMessage(ctx, actor, input.messageId);
    let content = row.content;
    let rendered = row.rendered_content;
    let topic = row.stream_id === null ? '' : row.topic;
    const snapshots: HistorySnapshot[] = [];
    for (const entry of messageEditHistory(ctx, row.id)) {
      const snapshot: HistorySnapshot = { topic, content, rendered_content: rendered, timestamp: entry.timestamp, user_id: entry.user_id };
      if (entry.prev_topic !== undefined) {
        topic = entry.prev_topic;
        snapshot.prev_topic = topic;
      }
      if (entry.prev_content !== undefined) {
        content = entry.prev_content;
        rendered = entry.prev_rendered_content!;
        Object.assign(snapshot, { prev_content: content, prev_rendered_content: rendered });
      }
      snapshots.push(snapshot);
    }
    snapshots.push({ topic, content, rendered_content: rendered, timestamp: row.date_sent, user_id: row.sender_id });
    return { message_history: snapshots.reverse() };
  });
}
