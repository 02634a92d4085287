// POST /messages: one message row, one user_message row and one `message` event per recipient,
// the notifications it decides (lib/notifications/decide.ts) and the outgoing webhooks it
// triggers (lib/integrations/outgoing_queue.ts), all in one transaction; the content is rendered once.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { LocalEcho } from '../events/shape.js';
import { badRequest } from '../errors.js';
import { insertDirectGroup, insertMessage, selectDirectGroupId } from '../store/messages.js';
import { selectActiveSubscriberIds, selectIsSubscribed, updateStreamFirstMessageId, type StreamRow } from '../store/streams.js';
import { insertUserMessages } from '../store/user_message.js';
import { selectMutingUserIds } from '../store/muted_users.js';
import { selectMessageById } from '../store/messages.js';
import { emit } from './event_types.js';
import { FLAG, flagList } from './flags.js';
import { addressedStream, buildAddressee, normalizeContent } from './message_addressee.js';
import { apiEmail, fakeEmailDomain } from './email_visibility.js';
import { messageDict, newMessageDictCache } from './message_dicts.js';
import type { StoredMessageEvent } from './message_event_dicts.js';
import { renderMessage, renderedFlags, topicLinksJson } from './message_render.js';
import { updateClaims } from './attachments.js';
import { streamViewerIds } from './stream_access.js';
import { isGuest, type Actor } from './roles.js';
import { decideMessageNotifications } from '../notifications/decide.js';
import { queueOutgoingWebhooks } from '../integrations/outgoing_queue.js';

export interface SendInput {
  type: 'stream' | 'channel' | 'direct' | 'private';
  to?: unknown;
  topic?: string | undefined;
  content: string;
  readBySender?: boolean | undefined;
  /** Zulip's local echo: the sender's event queue and the client's id for the message. */
  queueId?: string | undefined;
  localId?: string | undefined;
}

/** POST /messages: the new message's id. */
export const sendMessageAnswerSchema = z.object({ id: z.int() });

/**
 * Zulip's Client.default_read_by_sender: messages sent from its own interactive apps start read.
 * (Zulip's "test suite" client counts only under its TEST_SUITE setting, so not here.)
 */
function defaultReadBySender(client: string): boolean {
  const name = client.toLowerCase();
  const interactive = ['zulipandroid', 'zulipios', 'zulipdesktop', 'zulipmobile', 'zulipelectron', 'zulipterminal', 'snipe', 'website', 'ios', 'android'];
  return interactive.includes(name) || name.includes('desktop app');
}

/** Zulip's access_stream_for_send_message (also for typing notifications, lib/domain/typing.ts). */
export function checkCanSendToStream(ctx: Ctx, actor: Actor, stream: StreamRow): void {
  // Made only when thrown: an error's stack trace costs more than the checks.
  const denied = () => badRequest(`Not authorized to send to channel '${stream.name}'`);
  if (stream.is_archived === 1) throw denied();
  if (stream.invite_only === 0 && !isGuest(actor)) return;
  if (selectIsSubscribed(ctx.store, actor.id, stream.id)) return;
  if (actor.isBot && actor.botOwnerId !== null && selectIsSubscribed(ctx.store, actor.botOwnerId, stream.id)) return;
  throw denied();
}

function directGroupFor(ctx: Ctx, memberIds: readonly number[]): number {
  const sorted = [...new Set(memberIds)].sort((a, b) => a - b);
  const key = sorted.join(',');
  return selectDirectGroupId(ctx.store, key) ?? insertDirectGroup(ctx.store, key, sorted);
}

export interface SendOptions {
  /**
   * Zulip's skip_stream_access_check: an outgoing webhook bot answers in the channel that
   * triggered it, whether or not it may send there (lib/integrations/outgoing_delivery.ts).
   */
  skipStreamAccessCheck?: boolean;
}

export function sendMessage(ctx: Ctx, actor: Actor, input: SendInput, client: string, options: SendOptions = {}): z.infer<typeof sendMessageAnswerSchema> {
  return ctx.tx(() => {
    const kind = input.type === 'direct' || input.type === 'private' ? 'private' : 'stream';
    const addressee = buildAddressee(ctx, actor, kind, input.to, input.topic);
    const content = normalizeContent(input.content);

    let stream: StreamRow | undefined;
    let directGroupId: number | null = null;
    let recipients: number[];
    let topic = '';
    if (addressee.kind === 'direct') {
      const inactive = addressee.users.find((user) => user.is_active === 0);
      if (inactive) throw badRequest(`'${apiEmail(fakeEmailDomain(ctx), inactive)}' is no longer using Zulip.`);
      const members = [...addressee.users.map((user) => user.id), actor.id];
      directGroupId = directGroupFor(ctx, members);
      recipients = [...new Set(members)].sort((a, b) => a - b);
    } else {
      stream = addressedStream(ctx, addressee);
      if (!options.skipStreamAccessCheck) checkCanSendToStream(ctx, actor, stream);
      topic = addressee.topic;
      recipients = selectActiveSubscriberIds(ctx.store, stream.id);
    }

    const rendered = renderMessage(ctx, content);
    // Zulip gives mentioned generic bots a row even when they are not subscribed. Those rows start
    // read: every unread message must be in a channel the user is subscribed to (API doc 2.2).
    const unsubscribedBots = new Set<number>();
    if (stream) {
      for (const id of rendered.mentionedBotIds) if (!recipients.includes(id)) unsubscribedBots.add(id);
      if (unsubscribedBots.size > 0) recipients = [...recipients, ...unsubscribedBots].sort((a, b) => a - b);
    }
    const topicTarget = stream ? { streamId: stream.id, topic, senderId: actor.id } : undefined;
    const flags = renderedFlags(ctx, rendered, content, recipients, topicTarget);
    const readBySender = input.readBySender ?? defaultReadBySender(client);

    const id = insertMessage(ctx.store, {
      sender_id: actor.id,
      stream_id: stream?.id ?? null,
      direct_group_id: directGroupId,
      topic,
      content,
      ...rendered.columns,
      topic_links: stream ? topicLinksJson(ctx, topic) : '[]',
      date_sent: ctx.now(),
      sending_client: client,
    });
    // Zulip's mark_as_read_user_ids: who muted the sender gets the message read.
    const muting = new Set(selectMutingUserIds(ctx.store, actor.id));
    const bits = recipients.map((userId) => {
      let value = flags.get(userId)!;
      if (directGroupId !== null) value |= FLAG.is_private;
      if (userId === actor.id && readBySender) value |= FLAG.read;
      if (unsubscribedBots.has(userId) || muting.has(userId)) value |= FLAG.read;
      return value;
    });
    insertUserMessages(ctx.store, id, recipients, bits);
    updateClaims(ctx, actor, id, rendered.html);
    decideMessageNotifications(ctx, {
      id,
      senderId: actor.id,
      stream,
      topic,
      recipients,
      flags: bits,
      mutingSender: muting,
      directMentions: rendered.directMentionIds,
      mentionedGroups: rendered.mentionedGroups,
    });
    queueOutgoingWebhooks(ctx, { id, senderIsBot: actor.isBot, kind, recipientIds: recipients, mentionedUserIds: rendered.mentionedUserIds });

    if (stream && stream.first_message_id === null) {
      updateStreamFirstMessageId(ctx.store, stream.id, id);
      emit(ctx, streamViewerIds(ctx, stream), {
        type: 'stream',
        op: 'update',
        property: 'first_message_id',
        value: id,
        stream_id: stream.id,
        name: stream.name,
      });
    }
    const echo: LocalEcho = input.queueId !== undefined && input.localId !== undefined ? { _sender_queue_id: input.queueId, _local_id: input.localId } : {};
    appendMessageEvents(ctx, actor.id, id, content, recipients, bits, echo);
    return { id };
  });
}

/**
 * One `message` event per recipient with that user's flags; users with equal flags share one
 * serialization. The sender's carries the local echo fields (lib/events/shape.ts).
 */
function appendMessageEvents(
  ctx: Ctx,
  senderId: number,
  id: number,
  content: string,
  recipients: readonly number[],
  bits: readonly number[],
  echo: LocalEcho,
): void {
  const message = { ...messageDict(ctx, newMessageDictCache(), selectMessageById(ctx.store, id)!, true), _markdown: content };
  const byFlags = new Map<number, number[]>();
  recipients.forEach((userId, i) => {
    const list = byFlags.get(bits[i]!);
    if (list) list.push(userId);
    else byFlags.set(bits[i]!, [userId]);
  });
  for (const [value, users] of byFlags) {
    const event: StoredMessageEvent = { type: 'message', message, flags: flagList(value), ...(users.includes(senderId) ? echo : {}) };
    emit(ctx, users, event);
  }
}
