// Event queues as a client sees them: POST /register (a queue plus a consistent snapshot of the
// state), GET /events (acknowledge, then return newer events, or wait for them: the long-poll
// itself is lib/events/long_poll.ts), DELETE /events. Queues are rows, so they and their
// undelivered events survive a restart.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { zulipEventSchema } from './event_types.js';
import { heartbeatMs } from './heartbeat.js';
import { ApiError, badRequest } from '../errors.js';
import type { ClientCapabilities, DeliveredEvent } from '../events/event.js';
import { fetchInitialState, registerStateSchema, type RegisterState } from './register_state.js';
import { makeRoomForQueue, typeFilter } from '../events/queues.js';
import { shapeForClient } from '../events/shape.js';
import { deleteQueue, insertQueue, selectQueue, type QueueRow } from '../store/events.js';
import { ZULIP_FEATURE_LEVEL, ZULIP_MERGE_BASE, ZULIP_VERSION } from './realm.js';
import type { Actor } from './roles.js';

const DEFAULT_QUEUE_LIFESPAN_SECS = 600;
const MAX_QUEUE_LIFESPAN_SECS = 7 * 24 * 3600;

export interface RegisterInput {
  eventTypes: readonly string[] | null;
  /** Which state to fetch; defaults to eventTypes. */
  fetchEventTypes?: readonly string[] | null | undefined;
  clientCapabilities?: ClientCapabilities | undefined;
  applyMarkdown?: boolean | undefined;
  /** Subscribers in the subscription state ('partial' gets the full lists, which Zulip allows). */
  includeSubscribers?: boolean | 'partial' | undefined;
  lifespanSecs?: number | undefined;
  /** The format and extent of the `presences` state (lib/domain/presence.ts). */
  presence?: { slimPresence?: boolean | undefined; presenceLastUpdateId?: number | undefined; presenceHistoryLimitDays?: number | undefined } | undefined;
}

/** POST /register: the queue, the server's version, and the state of each fetched type. */
const queueFields = {
  queue_id: z.string(),
  last_event_id: z.int(),
  zulip_version: z.string(),
  zulip_feature_level: z.int(),
  zulip_merge_base: z.string(),
};
export const registerAnswerSchema = registerStateSchema.extend(queueFields).describe('Also the state of each type in fetch_event_types (docs/events.md)');
type RegisterAnswer = z.infer<z.ZodObject<typeof queueFields>> & RegisterState;

/** An event as GET /events delivers it: one of zulipEventSchema's, with its id. */
const deliveredEventSchema = z.union(
  zulipEventSchema.options.map((option) => option.extend({ id: z.int() })) as unknown as readonly [z.ZodObject, ...z.ZodObject[]],
);

/** GET /events. */
export const eventsAnswerSchema = z.object({
  events: z.array(deliveredEventSchema),
  queue_id: z.string().optional().describe('The queue created for a request without queue_id'),
});

function newQueueId(ctx: Ctx): string {
  return `${ctx.clock()}:${ctx.random(8).toString('hex')}`;
}

/** POST /register: the state and the queue's start come from one transaction, so nothing is missed or seen twice. */
export function registerQueue(ctx: Ctx, actor: Actor, input: RegisterInput): RegisterAnswer {
  const eventTypes = input.eventTypes === null ? null : [...new Set(input.eventTypes)];
  const fetchTypes = input.fetchEventTypes === undefined ? eventTypes : input.fetchEventTypes;
  const clientCapabilities = input.clientCapabilities ?? {};
  const applyMarkdown = input.applyMarkdown ?? false;
  const lifespan = Math.min(Math.max(input.lifespanSecs ?? ctx.options.events?.queueLifespanSeconds ?? DEFAULT_QUEUE_LIFESPAN_SECS, 1), MAX_QUEUE_LIFESPAN_SECS);
  return ctx.tx(() => {
    const lastEventId = ctx.events.maxEventId();
    const state = fetchInitialState(ctx, actor, fetchTypes, {
      clientCapabilities,
      applyMarkdown,
      includeSubscribers: input.includeSubscribers === true || input.includeSubscribers === 'partial',
      slimPresence: input.presence?.slimPresence ?? false,
      presenceLastUpdateId: input.presence?.presenceLastUpdateId,
      presenceHistoryLimitDays: input.presence?.presenceHistoryLimitDays,
    });
    const queueId = newQueueId(ctx);
    makeRoomForQueue(ctx.store, actor.id, ctx.options.events?.maxQueuesPerUser);
    insertQueue(ctx.store, {
      id: queueId,
      user_id: actor.id,
      event_types: eventTypes === null ? null : JSON.stringify(eventTypes),
      client_capabilities: JSON.stringify(clientCapabilities),
      apply_markdown: applyMarkdown ? 1 : 0,
      created_event_id: lastEventId,
      acked_event_id: lastEventId,
      created_at: ctx.now(),
      last_poll_at: ctx.clock(),
      lifespan_secs: lifespan,
    });
    return {
      queue_id: queueId,
      last_event_id: lastEventId,
      zulip_version: ZULIP_VERSION,
      zulip_feature_level: ZULIP_FEATURE_LEVEL,
      zulip_merge_base: ZULIP_MERGE_BASE,
      ...state,
    };
  });
}

function badQueue(queueId: string): ApiError {
  return new ApiError('BAD_EVENT_QUEUE_ID', `Bad event queue ID: ${queueId}`, { extra: { queue_id: queueId } });
}

function ownQueue(ctx: Ctx, actor: Actor, queueId: string): QueueRow {
  const queue = selectQueue(ctx.store, queueId);
  if (!queue || queue.user_id !== actor.id) throw badQueue(queueId);
  return queue;
}

/** Shapes a stored event for one queue: per apply_markdown, its client capabilities, and whose queue it is. */
function forQueue(queue: QueueRow, events: readonly DeliveredEvent[]): DeliveredEvent[] {
  const capabilities = JSON.parse(queue.client_capabilities) as ClientCapabilities;
  const client = {
    applyMarkdown: queue.apply_markdown === 1,
    bulkMessageDeletion: capabilities.bulk_message_deletion === true,
    queue: { id: queue.id, userId: queue.user_id },
  };
  return events.map((event) => shapeForClient(event, client));
}

export interface GetEventsInput {
  queueId?: string | undefined;
  lastEventId?: number | undefined;
  dontBlock?: boolean | undefined;
  signal?: AbortSignal | undefined;
}

/** GET /events. */
export async function getEvents(ctx: Ctx, actor: Actor, input: GetEventsInput): Promise<{ events: DeliveredEvent[]; queue_id: string }> {
  const dontBlock = input.dontBlock ?? false;
  if (input.queueId === undefined) {
    // Zulip's fetch_events raises these two as plain JsonableErrors (BAD_REQUEST, no var_name),
    // and checks last_event_id before it looks the queue up.
    if (!dontBlock) throw badRequest("Missing 'queue_id' argument");
    const { queue_id } = registerQueue(ctx, actor, { eventTypes: null, fetchEventTypes: [] });
    return { events: [], queue_id };
  }
  if (input.lastEventId === undefined) throw badRequest("Missing 'last_event_id' argument");
  const queueId = input.queueId;
  const queue = ownQueue(ctx, actor, queueId);
  // Ids at or below created_event_id were never in this queue: asking from any of them (or -1)
  // means "from the start". Below an id the client already acknowledged, events may be gone.
  const lastEventId = Math.max(input.lastEventId, queue.created_event_id);
  const acked = ctx.events.ackedEventId(queueId, queue.acked_event_id);
  if (input.lastEventId < acked && acked > queue.created_event_id) {
    throw badRequest(`An event newer than ${input.lastEventId} has already been pruned!`);
  }
  if (lastEventId > ctx.events.maxEventId()) throw badRequest(`Event ${lastEventId} was not in this queue`);
  ctx.events.recordPoll(queueId, lastEventId);

  const accepts = typeFilter(queue);
  const first = ctx.events.read(actor.id, lastEventId, accepts);
  if (first.events.length > 0 || dontBlock) {
    return { events: forQueue(queue, first.events), queue_id: queueId };
  }
  const events = await ctx.events.longPoll({
    queueId,
    userId: actor.id,
    cursor: first.scannedTo,
    lastEventId,
    accepts,
    heartbeatMs: heartbeatMs(ctx),
    signal: input.signal,
  });
  return { events: forQueue(queue, events), queue_id: queueId };
}

/** DELETE /events. */
export function deleteEventQueue(ctx: Ctx, actor: Actor, input: { queueId: string }): Record<string, never> {
  return ctx.tx(() => {
    ownQueue(ctx, actor, input.queueId);
    deleteQueue(ctx.store, input.queueId);
    return {};
  });
}
