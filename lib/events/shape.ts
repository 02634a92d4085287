// How a stored event is shaped for one client: message events carry both the rendered HTML and
// the Markdown source (`_markdown`); a client gets one of them, per its apply_markdown. The
// sender's own queue named in POST /messages gets `local_message_id` (Zulip's local echo);
// delete_message events name one `message_id` for clients without bulk_message_deletion.
import type { DeliveredEvent } from './event.js';

export interface ClientShape {
  applyMarkdown: boolean;
  /** Zulip's bulk_message_deletion client capability (in-process subscribers have it). */
  bulkMessageDeletion: boolean;
  /** The queue the event is delivered to, if any, and its owner. */
  queue?: { id: string; userId: number };
}

/** A stored message event's message: Zulip's message dictionary, with its Markdown source for clients without apply_markdown. */
interface StoredMessage {
  _markdown?: string;
  content?: unknown;
  sender_id?: unknown;
  readonly [field: string]: unknown;
}

/** Top-level fields of a stored message event that only the sending queue sees, as local_message_id. */
export interface LocalEcho {
  _sender_queue_id?: string;
  _local_id?: string;
}

function shapeMessage(event: DeliveredEvent, client: ClientShape): DeliveredEvent {
  const { _sender_queue_id: senderQueueId, _local_id: localId, ...rest } = event as DeliveredEvent & LocalEcho;
  const { _markdown, ...message } = rest.message as StoredMessage;
  const content = client.applyMarkdown || _markdown === undefined ? message.content : _markdown;
  const shaped: DeliveredEvent = { ...rest, message: { ...message, content, content_type: client.applyMarkdown ? 'text/html' : 'text/x-markdown' } };
  const queue = client.queue;
  if (localId !== undefined && queue !== undefined && queue.id === senderQueueId && queue.userId === message.sender_id) {
    shaped.local_message_id = localId;
  }
  return shaped;
}

export function shapeForClient(event: DeliveredEvent, client: ClientShape): DeliveredEvent {
  if (event.type === 'message') return shapeMessage(event, client);
  if (event.type === 'delete_message' && !client.bulkMessageDeletion) {
    // parley deletes one message per event, so the compatibility form is one event too.
    const { message_ids: ids, ...rest } = event as DeliveredEvent & { message_ids: number[] };
    return { ...rest, message_id: ids[0] };
  }
  return event;
}
