// How long a GET /events waits before a heartbeat, and the long-poll timeout clients are told
// (event_queue_longpoll_timeout_seconds in the realm state).
import type { Ctx } from '../context.js';

/** Zulip's heartbeat wait: 45 s plus up to 10 s, unless configured. */
const HEARTBEAT_SECONDS = 45;
const HEARTBEAT_JITTER_SECONDS = 10;
/** Zulip's EVENT_QUEUE_LONGPOLL_TIMEOUT_SECONDS: 35 s more than its longest heartbeat wait. */
const LONGPOLL_TIMEOUT_SECONDS = 90;

export function heartbeatMs(ctx: Ctx): number {
  const configured = ctx.options.events?.heartbeatSeconds;
  if (configured !== undefined) return configured * 1000;
  return (HEARTBEAT_SECONDS + (ctx.random(1)[0]! % (HEARTBEAT_JITTER_SECONDS + 1))) * 1000;
}

/** event_queue_longpoll_timeout_seconds: above the longest heartbeat wait by Zulip's margin. */
export function longpollTimeoutSeconds(ctx: Ctx): number {
  const configured = ctx.options.events?.heartbeatSeconds;
  const margin = LONGPOLL_TIMEOUT_SECONDS - HEARTBEAT_SECONDS - HEARTBEAT_JITTER_SECONDS;
  return configured === undefined ? LONGPOLL_TIMEOUT_SECONDS : Math.max(LONGPOLL_TIMEOUT_SECONDS, Math.ceil(configured) + margin);
}

