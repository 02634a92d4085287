// Messages: POST /messages, GET /messages, GET /messages/{message_id}, PATCH /messages/{message_id},
// DELETE /messages/{message_id}, GET /messages/{message_id}/history, POST /messages/render.
import { z } from 'zod';
import { deleteMessage } from '../domain/message_delete.js';
import { editMessage, editMessageAnswerSchema } from '../domain/message_edit.js';
import { getMessageHistory, messageHistoryAnswerSchema } from '../domain/message_history.js';
import { MAX_MESSAGES_PER_FETCH, getMessage, getMessageAnswerSchema, getMessages, getMessagesAnswerSchema } from '../domain/message_fetch.js';
import { MAX_MESSAGE_LENGTH } from '../domain/message_addressee.js';
import { previewMessage, previewMessageAnswerSchema } from '../domain/message_render.js';
import { sendMessage, sendMessageAnswerSchema } from '../domain/message_send.js';
import type { NarrowTerm } from '../domain/narrow.js';
import { bool, json, jsonOrString, maxCodePoints, pathInt, str, valueErrorMessage } from '../http/params.js';
import { MAX_NARROW_TERMS, MAX_TEXT_LENGTH, MAX_USERS_PER_REQUEST, charsAtMost, itemsAtMost } from './limits.js';
import { noFields, route } from './route.js';

/** Zulip's NarrowParameter.convert_term checks, in its order, as pydantic words a ValueError. */
function narrowTermShapeError(term: unknown): string | undefined {
  if (Array.isArray(term)) return term.length !== 2 || term.some((part) => typeof part !== 'string') ? 'element is not a string pair' : undefined;
  if (term === null || typeof term !== 'object') return 'dict or list required';
  const { operand, operator } = term as { operand?: unknown; operator?: unknown };
  if (operand === undefined || operand === null) return 'operand is missing';
  if (operator === undefined || operator === null) return 'operator is missing';
  return undefined;
}

export const narrowTerm = z
  .union(
    [
      z.object({
        operator: z.string(),
        operand: z.union([z.string(), z.int(), z.array(z.union([z.int(), z.string()]))]),
        negated: z.boolean().optional(),
      }),
      // Zulip's legacy form: [operator, operand].
      z.tuple([z.string(), z.string()]),
    ],
    {
      error: (issue) => {
        const error = issue.code === 'invalid_union' ? narrowTermShapeError(issue.input) : undefined;
        return error === undefined ? undefined : valueErrorMessage(error);
      },
    },
  )
  // On the whole term: a failure inside the union would only read `Invalid narrow[0]`.
  .check((payload) => {
    const legacy = Array.isArray(payload.value);
    const operand = { value: legacy ? (payload.value as string[])[1] : (payload.value as { operand: unknown }).operand, issues: [] as z.core.$ZodRawIssue[] };
    itemsAtMost(MAX_USERS_PER_REQUEST)(operand);
    charsAtMost(MAX_TEXT_LENGTH)(operand);
    for (const issue of operand.issues) payload.issues.push({ ...issue, path: [legacy ? 1 : 'operand'] });
  });

export function toTerms(narrow: readonly z.infer<typeof narrowTerm>[] | undefined): NarrowTerm[] | undefined {
  return narrow?.map((term) => (Array.isArray(term) ? { operator: term[0], operand: term[1] } : term));
}

export const messageRoutes = {
  send: route({
    method: 'POST',
    path: '/messages',
    transactional: true,
    access: 'user',
    allowIncomingWebhooks: true,
    summary: 'Send a channel or direct message',
    params: {
      type: str(z.enum(['direct', 'private', 'stream', 'channel'])),
      to: jsonOrString(z.unknown().check(itemsAtMost(MAX_USERS_PER_REQUEST))).optional().describe('Channel name or id; for direct messages a list of user ids or emails'),
      topic: str().optional().alias('subject'),
      content: str(),
      readBySender: bool().optional(),
      queueId: str(z.string().check(charsAtMost(MAX_TEXT_LENGTH))).optional().describe("The sender's event queue that gets local_message_id in the message event"),
      localId: str(z.string().check(charsAtMost(MAX_TEXT_LENGTH))).optional().describe("The client's id for the message, echoed as local_message_id"),
    },
    response: sendMessageAnswerSchema,
    errors: ['BAD_REQUEST', 'STREAM_DOES_NOT_EXIST'],
    handler: (ctx, { actor }, p, request) =>
      sendMessage(
        ctx,
        actor,
        p,
        request.client,
      ),
  }),
  list: route({
    method: 'GET',
    path: '/messages',
    access: 'user',
    summary: 'Messages around an anchor in a narrow, or by id',
    params: {
      anchor: str(z.union([z.string(), z.int()]).check(charsAtMost(MAX_TEXT_LENGTH))).optional(),
      includeAnchor: bool().optional(),
      numBefore: json(z.int().nonnegative()).optional(),
      numAfter: json(z.int().nonnegative()).optional(),
      narrow: json(z.array(narrowTerm).max(MAX_NARROW_TERMS)).optional(),
      useFirstUnreadAnchor: bool().optional(),
      clientGravatar: bool().optional(),
      applyMarkdown: bool().optional(),
      messageIds: json(z.array(z.int()).max(MAX_MESSAGES_PER_FETCH)).optional(),
      allowEmptyTopicName: bool().optional(),
    },
    errors: ['BAD_REQUEST', 'BAD_NARROW', 'REQUEST_VARIABLE_MISSING'],
    response: getMessagesAnswerSchema,
    handler: (ctx, { actor }, p) => getMessages(ctx, actor, { ...p, narrow: toTerms(p.narrow) }),
  }),
  get: route({
    method: 'GET',
    path: '/messages/:message_id',
    access: 'user',
    summary: 'One message, with its Markdown source',
    params: { messageId: pathInt(), applyMarkdown: bool().optional(), allowEmptyTopicName: bool().optional() },
    errors: ['BAD_REQUEST'],
    response: getMessageAnswerSchema,
    handler: (ctx, { actor }, p) => getMessage(ctx, actor, p),
  }),
  edit: route({
    method: 'PATCH',
    path: '/messages/:message_id',
    access: 'user',
    summary: "Edit a message's content (its sender) or topic",
    params: {
      messageId: pathInt(),
      content: str().optional(),
      topic: str().optional().alias('subject'),
      propagateMode: str(z.enum(['change_one', 'change_later', 'change_all'])).optional(),
    },
    errors: ['BAD_REQUEST'],
    response: editMessageAnswerSchema,
    handler: (ctx, { actor }, p) => editMessage(ctx, actor, p),
  }),
  delete: route({
    method: 'DELETE',
    path: '/messages/:message_id',
    transactional: true,
    access: 'user',
    summary: 'Delete a message (administrators: any; its sender, or the owner of the bot that sent it: within 10 minutes)',
    params: { messageId: pathInt() },
    errors: ['BAD_REQUEST'],
    response: noFields,
    handler: (ctx, { actor }, p) => deleteMessage(ctx, actor, p),
  }),
  history: route({
    method: 'GET',
    path: '/messages/:message_id/history',
    access: 'user',
    summary: "A message's edit history: snapshots oldest first, the message as sent first",
    params: { messageId: pathInt(), allowEmptyTopicName: bool().optional() },
    errors: ['BAD_REQUEST'],
    response: messageHistoryAnswerSchema,
    handler: (ctx, { actor }, p) => getMessageHistory(ctx, actor, p),
  }),
  render: route({
    method: 'POST',
    path: '/messages/render',
    access: 'user',
    summary: 'The HTML a message with this Markdown content would get',
    params: { content: str(maxCodePoints(MAX_MESSAGE_LENGTH)) },
    response: previewMessageAnswerSchema,
    handler: (ctx, { actor }, p) => previewMessage(ctx, actor, p),
  }),
};
