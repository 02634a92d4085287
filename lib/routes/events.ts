// POST /register, GET /events, DELETE /events.
import { z } from 'zod';
import { deleteEventQueue, eventsAnswerSchema, getEvents, registerAnswerSchema, registerQueue } from '../domain/events.js';
import { bool, json, maxCodePoints, str } from '../http/params.js';
import { MAX_EVENT_TYPES, MAX_NARROW_TERMS, MAX_TEXT_LENGTH } from './limits.js';
import { noFields, route } from './route.js';

const eventTypeList = z.array(maxCodePoints(MAX_TEXT_LENGTH)).max(MAX_EVENT_TYPES).nullable();

export const eventRoutes = {
  register: route({
    method: 'POST',
    path: '/register',
    access: 'user',
    summary: 'Register an event queue and fetch the initial state',
    params: {
      eventTypes: json(eventTypeList).optional().describe('Event types to receive; null for all'),
      fetchEventTypes: json(eventTypeList).optional().describe('State to fetch; defaults to event_types'),
      clientCapabilities: json(z.record(z.string(), z.unknown())).optional(),
      applyMarkdown: bool().optional(),
      clientGravatar: bool().optional(),
      slimPresence: bool().optional().describe('Presences keyed by user id (modern format) instead of by email'),
      presenceLastUpdateId: json(z.int()).optional().describe('Only presences changed after this id (modern format)'),
      presenceHistoryLimitDays: json(z.int()).optional().describe('Only presences of the last N days (default 14)'),
      includeSubscribers: json(z.union([z.boolean(), z.literal('partial')])).optional(),
      allPublicStreams: bool().optional(),
      narrow: json(z.array(z.unknown()).max(MAX_NARROW_TERMS)).optional(),
    },
    errors: ['BAD_REQUEST'],
    response: registerAnswerSchema,
    handler: (ctx, { actor }, p) =>
      registerQueue(ctx, actor, {
        eventTypes: p.eventTypes ?? null,
        fetchEventTypes: p.fetchEventTypes === undefined ? undefined : p.fetchEventTypes,
        clientCapabilities: p.clientCapabilities,
        applyMarkdown: p.applyMarkdown,
        includeSubscribers: p.includeSubscribers,
        presence: p,
      }),
  }),
  get: route({
    method: 'GET',
    path: '/events',
    access: 'user',
    longPoll: true,
    summary: 'Events newer than last_event_id; long-polls when there are none',
    params: {
      queueId: str(maxCodePoints(MAX_TEXT_LENGTH)).optional(),
      lastEventId: json(z.int()).optional(),
      dontBlock: bool().optional(),
    },
    errors: ['BAD_EVENT_QUEUE_ID', 'BAD_REQUEST'],
    response: eventsAnswerSchema,
    asynchronous: true,
    handler: (ctx, { actor }, p, request) =>
      getEvents(ctx, actor, { queueId: p.queueId, lastEventId: p.lastEventId, dontBlock: p.dontBlock, signal: request.signal }),
  }),
  deleteQueue: route({
    method: 'DELETE',
    path: '/events',
    transactional: true,
    access: 'user',
    summary: 'Delete an event queue',
    params: { queueId: str(maxCodePoints(MAX_TEXT_LENGTH)) },
    response: noFields,
    errors: ['BAD_EVENT_QUEUE_ID'],
    handler: (ctx, { actor }, p) => deleteEventQueue(ctx, actor, p),
  }),
};
