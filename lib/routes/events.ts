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
      event_types: json(eventTypeList).optional().describe('Event types to receive; null for all'),
      fetch_event_types: json(eventTypeList).optional().describe('State to fetch; defaults to event_types'),
      client_capabilities: json(z.record(z.string(), z.unknown())).optional(),
      apply_markdown: bool().optional(),
      client_gravatar: bool().optional(),
      slim_presence: bool().optional().describe('Presences keyed by user id (modern format) instead of by email'),
      presence_last_update_id: json(z.int()).optional().describe('Only presences changed after this id (modern format)'),
      presence_history_limit_days: json(z.int()).optional().describe('Only presences of the last N days (default 14)'),
      include_subscribers: json(z.union([z.boolean(), z.literal('partial')])).optional(),
      all_public_streams: bool().optional(),
      narrow: json(z.array(z.unknown()).max(MAX_NARROW_TERMS)).optional(),
    },
    errors: ['BAD_REQUEST'],
    response: registerAnswerSchema,
    handler: (ctx, actor, p) =>
      registerQueue(ctx, actor, {
        eventTypes: p.event_types ?? null,
        fetchEventTypes: p.fetch_event_types === undefined ? undefined : p.fetch_event_types,
        clientCapabilities: p.client_capabilities,
        applyMarkdown: p.apply_markdown,
        includeSubscribers: p.include_subscribers,
        presence: { slimPresence: p.slim_presence, presenceLastUpdateId: p.presence_last_update_id, presenceHistoryLimitDays: p.presence_history_limit_days },
      }),
  }),
  get: route({
    method: 'GET',
    path: '/events',
    access: 'user',
    longPoll: true,
    summary: 'Events newer than last_event_id; long-polls when there are none',
    params: {
      queue_id: str(maxCodePoints(MAX_TEXT_LENGTH)).optional(),
      last_event_id: json(z.int()).optional(),
      dont_block: bool().optional(),
    },
    errors: ['BAD_EVENT_QUEUE_ID', 'BAD_REQUEST'],
    response: eventsAnswerSchema,
    handler: (ctx, actor, p, request) =>
      getEvents(ctx, actor, { queueId: p.queue_id, lastEventId: p.last_event_id, dontBlock: p.dont_block, signal: request.signal }),
  }),
  deleteQueue: route({
    method: 'DELETE',
    path: '/events',
    transactional: true,
    access: 'user',
    summary: 'Delete an event queue',
    params: { queue_id: str(maxCodePoints(MAX_TEXT_LENGTH)) },
    response: noFields,
    errors: ['BAD_EVENT_QUEUE_ID'],
    handler: (ctx, actor, p) => deleteEventQueue(ctx, actor, { queueId: p.queue_id }),
  }),
};
