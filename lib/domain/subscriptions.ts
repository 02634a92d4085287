// Subscriptions: POST, DELETE and GET /users/me/subscriptions. Creates channels that do not exist,
// and emits `stream` (create, delete), `subscription` (add, remove, peer_add, peer_remove) and,
// `update_message_flags` when leaving a channel (no unread message stays in an unsubscribed one).
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import {
  deleteSubscription,
  insertStream,
  insertSubscription,
  selectActiveSubscriberIds,
  selectFormerSubscriptionStreamIds,
  selectIsSubscribed,
  selectStreamByName,
  selectStreamById,
  selectSubscription,
  selectSubscriberCount,
  selectSubscribedStreamIds,
  selectSubscriptionsOfUser,
  type StreamRow,
} from '../store/streams.js';
import { selectUserById, type UserRow } from '../store/users.js';
import { markStreamMessagesRead } from './message_flags_bulk.js';
import { userByEmail } from './email_visibility.js';
import { streamViewerIds, usersWithRoleAtMost } from './stream_access.js';
import { SubscribeEvents } from './subscription_events.js';
import { emit } from './event_types.js';
import { renderStreamDescription } from './streams.js';
import { byName, streamDict, streamNameProblem, subscriptionDict, subscriptionSchema } from './stream_dicts.js';
import { isAdmin, type Actor } from './roles.js';
import { mayAddSubscribers } from '../accounts/permissions.js';

export interface NewSubscription {
  name: string;
  description?: string | undefined;
  color?: string | undefined;
}

export interface SubscribeInput {
  subscriptions: readonly NewSubscription[];
  principals?: readonly (string | number)[] | undefined;
  inviteOnly?: boolean | undefined;
  historyPublicToSubscribers?: boolean | undefined;
  authorizationErrorsFatal?: boolean | undefined;
}

function isSelf(ctx: Ctx, actor: Actor, principal: string | number): boolean {
  return typeof principal === 'number' ? principal === actor.id : userByEmail(ctx, actor, principal)?.id === actor.id;
}

function checkNames(names: readonly string[]): void {
  for (const name of names) {
    const problem = streamNameProblem(name);
    if (problem) throw badRequest(problem);
  }
}

/**
 * How many (user, channel) subscriptions one request may add or remove. Neither Zulip nor the API
 * document bounds it; each pair is a row written under the write lock, which every other writer
 * (other processes on the same file included) waits for. 1000 users and 10 channels fit.
 */
export const MAX_SUBSCRIPTIONS_PER_REQUEST = 10_000;

function checkPairs(channels: number, principals: readonly (string | number)[]): void {
  const users = Math.max(1, new Set(principals.map((p) => (typeof p === 'string' ? p.trim().toLowerCase() : p))).size);
  if (channels * users > MAX_SUBSCRIPTIONS_PER_REQUEST) {
    throw badRequest(
      `Too many subscriptions in one request: ${users} users times ${channels} channels (limit: ${MAX_SUBSCRIPTIONS_PER_REQUEST}).`,
    );
  }
}

function uniqueByName<T extends { name: string }>(items: readonly T[]): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const key = item.name.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

const namesByUserId = z.record(z.string(), z.array(z.string()));

export const subscribeAnswerSchema = z.object({
  subscribed: namesByUserId.describe('Channel names newly subscribed, by user id'),
  already_subscribed: namesByUserId,
  unauthorized: z.array(z.string()).optional().describe('With authorization_errors_fatal false'),
});
type SubscribeAnswer = z.infer<typeof subscribeAnswerSchema>;

/** POST /users/me/subscriptions. */
export function addSubscriptions(ctx: Ctx, actor: Actor, input: SubscribeInput): SubscribeAnswer {
  return ctx.tx(() => {
    const requested = uniqueByName(
      input.subscriptions.map((s) => ({ name: s.name.trim(), description: (s.description ?? '').replace(/\n/g, ' ') })),
    );
    checkNames(requested.map((s) => s.name));
    const principals = input.principals ?? [];
    checkPairs(requested.length, principals);
    const subscribingOthers = principals.length > 0 && !principals.every((p) => isSelf(ctx, actor, p));

    const existing: StreamRow[] = [];
    const missing: typeof requested = [];
    for (const wanted of requested) {
      const stream = selectStreamByName(ctx.store, wanted.name);
      if (stream) existing.push(stream);
      else missing.push(wanted);
    }
    // Zulip's filter_stream_authorization: archived channels are not accessible, to anyone.
    const unauthorized = existing.filter(
      (stream) =>
        stream.is_archived === 1 || (stream.invite_only === 1 && !isAdmin(actor) && !selectIsSubscribed(ctx.store, actor.id, stream.id)),
    );
    if (unauthorized.length > 0 && (input.authorizationErrorsFatal ?? true)) {
      throw badRequest(`Unable to access channel (${unauthorized[0]!.name}).`);
    }
    const authorized = existing.filter((stream) => !unauthorized.includes(stream));
    // Subscribing others to an existing channel is for Zulip's can_add_subscribers_group
    // (options.accounts.whoMayAddSubscribers: members by default) and administrators; a channel's
    // creator may subscribe others to it in the same request (Zulip lets channel administrators do so).
    if (subscribingOthers && !mayAddSubscribers(ctx, actor) && authorized.length > 0) throw badRequest('Insufficient permission');

    const inviteOnly = input.inviteOnly ?? false;
    const historyPublic = inviteOnly ? (input.historyPublicToSubscribers ?? false) : true;
    const created = missing.map((wanted) => {
      const id = insertStream(ctx.store, {
        name: wanted.name,
        description: wanted.description,
        rendered_description: renderStreamDescription(ctx, wanted.description),
        invite_only: inviteOnly ? 1 : 0,
        history_public_to_subscribers: historyPublic ? 1 : 0,
        date_created: ctx.now(),
        creator_id: actor.id,
      });
      return selectStreamById(ctx.store, id)!;
    });

    const targets = subscribingOthers ? resolvePrincipals(ctx, actor, principals) : [{ id: actor.id }];
    const { subscribed, alreadySubscribed } = subscribeUsers(ctx, [...authorized, ...created], new Set(created.map((stream) => stream.id)), targets);

    const result: SubscribeAnswer = { subscribed, already_subscribed: alreadySubscribed };
    if (!(input.authorizationErrorsFatal ?? true)) result.unauthorized = unauthorized.map((stream) => stream.name);
    return result;
  });
}

/**
 * In the caller's transaction, without a permission check: subscribes `targets` (active users) to
 * `streams` (`createdIds`: the ones this request created), with Zulip's events. Also a new
 * account's channels (lib/accounts/registration.ts), as Zulip's bulk_add_subscriptions at user creation.
 */
export function subscribeUsers(
  ctx: Ctx,
  streams: readonly StreamRow[],
  createdIds: ReadonlySet<number>,
  targets: readonly { id: number }[],
): { subscribed: SubscribeAnswer['subscribed']; alreadySubscribed: SubscribeAnswer['already_subscribed'] } {
  const subscribed: SubscribeAnswer['subscribed'] = {};
  const alreadySubscribed: SubscribeAnswer['already_subscribed'] = {};
  // One read per user of what they are and were subscribed to, not one per (user, channel).
  const current = new Map(targets.map((target) => [target.id, new Set(selectSubscribedStreamIds(ctx.store, target.id))]));
  const former = new Map(targets.map((target) => [target.id, new Set(selectFormerSubscriptionStreamIds(ctx.store, target.id))]));
  const roleUsers = usersWithRoleAtMost(ctx);
  const events = new SubscribeEvents();
  const oneNewSubscriber = new Map<number, number>();
  for (const stream of streams) {
    const isNew = createdIds.has(stream.id);
    const before = isNew ? new Set<number>() : streamViewerIds(ctx, stream, undefined, roleUsers);
    const added: number[] = [];
    for (const target of targets) {
      if (current.get(target.id)!.has(stream.id)) {
        (alreadySubscribed[String(target.id)] ??= []).push(stream.name);
        continue;
      }
      insertSubscription(ctx.store, target.id, stream.id, ctx.now(), former.get(target.id)!.has(stream.id));
      (subscribed[String(target.id)] ??= []).push(stream.name);
      added.push(target.id);
      events.subscribed(target.id, stream);
    }
    if (added.length === 0) continue;
    oneNewSubscriber.set(stream.id, added[0]!);
    const subscribers = selectActiveSubscriberIds(ctx.store, stream.id);
    const after = streamViewerIds(ctx, stream, subscribers, roleUsers);
    const gained = [...after].filter((id) => !before.has(id));
    // Every target is an active user (resolvePrincipals), so each counts among `subscribers`.
    if (gained.length > 0) events.streamCreated(gained, streamDict(stream, subscribers.length - added.length));
    events.peersAdded(after, stream.id, added);
  }
  // A new subscription row holds the column defaults, so its dict is the same for every user.
  events.append(ctx, (stream) =>
    subscriptionDict(stream, selectSubscription(ctx.store, oneNewSubscriber.get(stream.id)!, stream.id), selectSubscriberCount(ctx.store, stream.id)),
  );
  return { subscribed, alreadySubscribed };
}

export interface UnsubscribeInput {
  subscriptions: readonly string[];
  principals?: readonly (string | number)[] | undefined;
}

export const unsubscribeAnswerSchema = z.object({ removed: z.array(z.string()), not_removed: z.array(z.string()) });

/** DELETE /users/me/subscriptions; leaving a channel marks its messages read for the user. */
export function removeSubscriptions(ctx: Ctx, actor: Actor, input: UnsubscribeInput): z.infer<typeof unsubscribeAnswerSchema> {
  return ctx.tx(() => {
    const principals = input.principals ?? [];
    const names = input.subscriptions.map((name) => name.trim());
    const unique = uniqueByName(names.map((name) => ({ name })));
    checkPairs(unique.length, principals);
    const targets = principals.length > 0 ? resolvePrincipals(ctx, actor, principals) : [{ id: actor.id, bot_owner_id: null }];
    const unsubscribingOthers = targets.some((t) => t.id !== actor.id && t.bot_owner_id !== actor.id);
    checkNames(names);
    const streams = unique.map((n) => ({ name: n.name, row: selectStreamByName(ctx.store, n.name) }));
    if (unsubscribingOthers && !isAdmin(actor) && streams.some((s) => s.row !== undefined)) {
      throw badRequest('Insufficient permission');
    }
    const missing = streams.filter((s) => s.row === undefined);
    if (missing.length > 0) throw badRequest(`Channel(s) (${missing.map((s) => s.name).join(', ')}) do not exist`);

    const removed: string[] = [];
    const notRemoved: string[] = [];
    const removedByUser = new Map<number, StreamRow[]>();
    const streamEvents: { stream: StreamRow; before: Set<number>; users: number[] }[] = [];
    const roleUsers = usersWithRoleAtMost(ctx);
    for (const { row } of streams) {
      const stream = row!;
      const before = streamViewerIds(ctx, stream, undefined, roleUsers);
      const users: number[] = [];
      for (const target of targets) {
        if (!selectIsSubscribed(ctx.store, target.id, stream.id)) {
          notRemoved.push(stream.name);
          continue;
        }
        deleteSubscription(ctx.store, target.id, stream.id);
        removed.push(stream.name);
        users.push(target.id);
        removedByUser.set(target.id, [...(removedByUser.get(target.id) ?? []), stream]);
        // No unread message may stay in a channel the user is not subscribed to (Zulip marks them read on leaving).
        markStreamMessagesRead(ctx, target.id, stream.id);
      }
      if (users.length > 0) streamEvents.push({ stream, before, users });
    }
    for (const [userId, list] of removedByUser) {
      const subscriptions = list.map((stream) => ({ name: stream.name, stream_id: stream.id }));
      emit(ctx, [userId], { type: 'subscription', op: 'remove', subscriptions });
    }
    for (const { stream, before, users } of streamEvents) {
      emit(ctx, before, { type: 'subscription', op: 'peer_remove', stream_ids: [stream.id], user_ids: users });
      const after = streamViewerIds(ctx, stream, undefined, roleUsers);
      const lost = [...before].filter((id) => !after.has(id));
      if (lost.length > 0) {
        emit(ctx, lost, { type: 'stream', op: 'delete', streams: [{ stream_id: stream.id }], stream_ids: [stream.id] });
      }
    }
    return { removed, not_removed: notRemoved };
  });
}

export const listSubscriptionsAnswerSchema = z.object({ subscriptions: z.array(subscriptionSchema) });

/** GET /users/me/subscriptions: archived channels are left out, as in POST /register. */
export function listSubscriptions(
  ctx: Ctx,
  actor: Actor,
  input: { includeSubscribers?: boolean | 'partial' | undefined },
): z.infer<typeof listSubscriptionsAnswerSchema> {
  const withSubscribers = input.includeSubscribers === true || input.includeSubscribers === 'partial';
  const subscriptions = selectSubscriptionsOfUser(ctx.store, actor.id).flatMap((sub) => {
    const stream = selectStreamById(ctx.store, sub.stream_id)!;
    if (stream.is_archived === 1) return [];
    const subscribers = selectActiveSubscriberIds(ctx.store, stream.id);
    return [subscriptionDict(stream, sub, subscribers.length, withSubscribers ? subscribers : undefined)];
  });
  return { subscriptions: subscriptions.sort(byName) };
}

/**
 * Zulip's bulk_principals_to_user_profiles: the users a subscription change acts on, named by id
 * or by email (every one must exist, then none may be deactivated).
 */
function resolvePrincipals(ctx: Ctx, actor: Actor, principals: readonly (string | number)[]): UserRow[] {
  const rows = principals.map((p) => (typeof p === 'number' ? selectUserById(ctx.store, p) : userByEmail(ctx, actor, p)));
  if (rows.some((row) => row === undefined)) throw badRequest('No such user');
  const unique = new Map<number, UserRow>();
  for (const row of rows as UserRow[]) {
    if (row.is_active === 0) throw badRequest('User is deactivated');
    unique.set(row.id, row);
  }
  return [...unique.values()];
}
