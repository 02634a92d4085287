// Personal message flags: POST /messages/flags, POST /messages/flags/narrow, POST /mark_all_as_read,
// POST /mark_stream_as_read, POST /mark_topic_as_read.
import { z } from 'zod';
import { MAX_FLAG_MESSAGES, updateMessageFlags, updateMessageFlagsAnswerSchema } from '../domain/message_flags.js';
import {
  markAllAsRead,
  markAllAsReadAnswerSchema,
  markStreamAsRead,
  markTopicAsRead,
  updateMessageFlagsForNarrow,
  updateMessageFlagsForNarrowAnswerSchema,
} from '../domain/message_flags_bulk.js';
import { bool, json, maxCodePoints, str } from '../http/params.js';
import { narrowTerm, toTerms } from './messages.js';
import { MAX_NARROW_TERMS, MAX_TEXT_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

export const messageFlagRoutes = {
  update: route({
    method: 'POST',
    path: '/messages/flags',
    transactional: true,
    access: 'user',
    summary: 'Add or remove a personal flag (read, starred, collapsed) on a list of messages',
    params: {
      messages: json(z.array(z.int()).max(MAX_FLAG_MESSAGES)).describe(`Message ids, at most ${MAX_FLAG_MESSAGES}`),
      op: str().describe('add or remove'),
      flag: str().describe('read, starred or collapsed'),
    },
    response: updateMessageFlagsAnswerSchema,
    errors: ['BAD_REQUEST', 'REQUEST_VARIABLE_MISSING'],
    handler: (ctx, { actor }, p) => updateMessageFlags(ctx, actor, p),
  }),
  updateForNarrow: route({
    method: 'POST',
    path: '/messages/flags/narrow',
    transactional: true,
    access: 'user',
    summary: 'Add or remove a personal flag on a range of messages of a narrow (at most 5000 per request)',
    params: {
      anchor: str(z.union([z.string(), z.int()])),
      includeAnchor: bool().optional(),
      numBefore: json(z.int().nonnegative()),
      numAfter: json(z.int().nonnegative()),
      narrow: json(z.array(narrowTerm).max(MAX_NARROW_TERMS).nullable()),
      op: str(),
      flag: str(),
    },
    response: updateMessageFlagsForNarrowAnswerSchema,
    errors: ['BAD_REQUEST', 'BAD_NARROW', 'REQUEST_VARIABLE_MISSING'],
    handler: (ctx, { actor }, p) => updateMessageFlagsForNarrow(ctx, actor, { ...p, narrow: toTerms(p.narrow ?? undefined) ?? null }),
  }),
  markAllAsRead: route({
    method: 'POST',
    path: '/mark_all_as_read',
    access: 'user',
    summary: 'Mark every unread message read, in batches; complete: false asks the client to repeat',
    params: {},
    response: markAllAsReadAnswerSchema,
    asynchronous: true,
    handler: (ctx, { actor }) => markAllAsRead(ctx, actor),
  }),
  markStreamAsRead: route({
    method: 'POST',
    path: '/mark_stream_as_read',
    transactional: true,
    access: 'user',
    summary: "Mark the caller's unread messages in a channel read",
    params: { streamId: json(z.int()) },
    errors: ['BAD_REQUEST'],
    response: noFields,
    handler: (ctx, { actor }, p) => markStreamAsRead(ctx, actor, p),
  }),
  markTopicAsRead: route({
    method: 'POST',
    path: '/mark_topic_as_read',
    transactional: true,
    access: 'user',
    summary: "Mark the caller's unread messages in a topic read",
    params: { streamId: json(z.int()), topicName: str(maxCodePoints(MAX_TEXT_LENGTH)) },
    errors: ['BAD_REQUEST'],
    response: noFields,
    handler: (ctx, { actor }, p) => markTopicAsRead(ctx, actor, p),
  }),
};
