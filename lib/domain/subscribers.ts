// Whose ids a channel's subscriber list carries in POST /register and GET /users/me/subscriptions:
// include_subscribers=true lists every active subscriber; "partial" (Zulip's rule,
// https://zulip.com/api/get-subscriptions#parameter-include_subscribers) lists them all for a
// channel under MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE subscribers, and for a bigger one only its
// bots and the users active in the last RECENTLY_ACTIVE_DAYS days, as `partial_subscribers`.
import type { Ctx } from '../context.js';
import { selectRecentlyActiveUserIds } from '../store/presence.js';
import { selectActiveBotIds } from '../store/users.js';
import { selectActiveSubscriberIdsOfStreams, selectSubscribedAmong } from '../store/streams.js';

/** Zulip's MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE (its docs promise full lists under 250). */
export const MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE = 1000;
/** "Users who have been active in the last 14 days" (Zulip's partial_subscribers guarantee). */
export const RECENTLY_ACTIVE_DAYS = 14;

/** What a channel's dict carries of its subscribers. */
export interface SubscriberFields {
  subscribers?: number[];
  partial_subscribers?: number[];
}

/** Active users that are bots or were connected in the last RECENTLY_ACTIVE_DAYS days, ascending. */
export function botsAndRecentlyActive(ctx: Ctx): number[] {
  const since = ctx.now() - RECENTLY_ACTIVE_DAYS * 86400;
  return [...new Set([...selectActiveBotIds(ctx.store), ...selectRecentlyActiveUserIds(ctx.store, since)])].sort((a, b) => a - b);
}

/**
 * The subscriber fields of each channel for an include_subscribers value (`counts`: the channels'
 * active subscriber counts): a function of the channel id, empty for false. A big channel's
 * subscribers are never all read for "partial": only whether each bot or recent user is one.
 */
export function subscriberFieldsFor(
  ctx: Ctx,
  include: boolean | 'partial',
  streamIds: readonly number[],
  counts: ReadonlyMap<number, number>,
): (streamId: number) => SubscriberFields {
  if (include === false) return () => ({});
  const big = include === true ? [] : streamIds.filter((id) => (counts.get(id) ?? 0) >= MIN_PARTIAL_SUBSCRIBERS_CHANNEL_SIZE);
  const bigSet = new Set(big);
  const full = selectActiveSubscriberIdsOfStreams(
    ctx.store,
    streamIds.filter((id) => !bigSet.has(id)),
  );
  const partial = new Map<number, number[]>();
  if (big.length > 0) {
    const candidates = botsAndRecentlyActive(ctx);
    for (const id of big) partial.set(id, selectSubscribedAmong(ctx.store, id, candidates));
  }
  return (id) => (partial.has(id) ? { partial_subscribers: partial.get(id)! } : { subscribers: full.get(id) ?? [] });
}
