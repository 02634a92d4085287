// A user's settings for their channels: POST /users/me/subscriptions/properties (Zulip's
// update_subscription_properties_backend), GET /users/{user_id}/subscriptions/{stream_id} and
// GET /streams/{stream_id}/members.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { selectActiveSubscriberIds, selectIsSubscribed, selectSubscription, updateSubscriptionColumn } from '../store/streams.js';
import { accessUserById } from './users.js';
import { accessStreamById, accessStreamContentById } from './streams.js';
import { BOOLEAN_SUBSCRIPTION_PROPERTIES } from './channel_event_dicts.js';
import { emit } from './event_types.js';
import type { Actor } from './roles.js';

export interface SubscriptionPropertyChange {
  stream_id: number;
  property: string;
  value: unknown;
}

type BooleanProperty = (typeof BOOLEAN_SUBSCRIPTION_PROPERTIES)[number];
const BOOLEAN_PROPERTIES: ReadonlySet<string> = new Set(BOOLEAN_SUBSCRIPTION_PROPERTIES);
const isBooleanProperty = (property: string): property is BooleanProperty => BOOLEAN_PROPERTIES.has(property);

/** Zulip's check_color. */
const HEX_COLOR = /^#([a-fA-F0-9]{3,6})$/;

/** A change checkChange accepted: a color as a string, the other properties as booleans. */
type CheckedChange = { streamId: number } & ({ property: 'color'; value: string } | { property: BooleanProperty; value: boolean });

/** Zulip's SubscriptionPropertyChangeRequest: every change is checked before any is made. */
function checkChange(change: SubscriptionPropertyChange): CheckedChange {
  const { stream_id: streamId, property, value } = change;
  if (property === 'color') {
    if (typeof value !== 'string') throw badRequest('color is not a string');
    if (!HEX_COLOR.test(value)) throw badRequest('color is not a valid hex color code');
    return { streamId, property, value };
  }
  if (isBooleanProperty(property)) {
    if (typeof value !== 'boolean') throw badRequest(`${property} is not a boolean`);
    return { streamId, property, value };
  }
  throw badRequest(`Unknown subscription property: ${property}`);
}

/**
 * POST /users/me/subscriptions/properties: all changes or none. Each sends the user a
 * `subscription` update event; a change of is_muted or its legacy inverse in_home_view sends
 * both (Zulip's do_change_subscription_property: in_home_view first).
 */
export function updateSubscriptionProperties(ctx: Ctx, actor: Actor, input: { subscriptionData: readonly SubscriptionPropertyChange[] }): Record<string, never> {
  const changes = input.subscriptionData.map(checkChange);
  return ctx.tx(() => {
    for (const change of changes) {
      const stream = accessStreamContentById(ctx, actor, change.streamId);
      if (!selectSubscription(ctx.store, actor.id, stream.id)) throw badRequest(`Not subscribed to channel ID ${change.streamId}`);
      const event = (property: BooleanProperty, value: boolean) =>
        emit(ctx, [actor.id], { type: 'subscription', op: 'update', property, value, stream_id: stream.id });
      if (change.property === 'color') {
        updateSubscriptionColumn(ctx.store, actor.id, stream.id, 'color', change.value);
        emit(ctx, [actor.id], { type: 'subscription', op: 'update', property: 'color', value: change.value, stream_id: stream.id });
      } else if (change.property === 'in_home_view' || change.property === 'is_muted') {
        const muted = change.property === 'is_muted' ? change.value : !change.value;
        updateSubscriptionColumn(ctx.store, actor.id, stream.id, 'is_muted', muted ? 1 : 0);
        event('in_home_view', !muted);
        event('is_muted', muted);
      } else {
        updateSubscriptionColumn(ctx.store, actor.id, stream.id, change.property, change.value ? 1 : 0);
        event(change.property, change.value);
      }
    }
    return {};
  });
}

export const streamMembersAnswerSchema = z.object({ subscribers: z.array(z.int()) });

/**
 * GET /streams/{stream_id}/members (Zulip's get_subscribers_backend): the active subscribers' ids,
 * for anyone who can see the channel (administrators: every channel).
 */
export function getStreamMembers(ctx: Ctx, actor: Actor, input: { streamId: number }): z.infer<typeof streamMembersAnswerSchema> {
  const stream = accessStreamById(ctx, actor, input.streamId);
  return { subscribers: selectActiveSubscriberIds(ctx.store, stream.id) };
}

export const subscriptionStatusAnswerSchema = z.object({ is_subscribed: z.boolean() });

/** GET /users/{user_id}/subscriptions/{stream_id} (Zulip's get_subscription_backend). */
export function getSubscriptionStatus(ctx: Ctx, actor: Actor, input: { userId: number; streamId: number }): z.infer<typeof subscriptionStatusAnswerSchema> {
  const user = accessUserById(ctx, actor, input.userId, { allowBots: true, forAdmin: false, allowDeactivated: true });
  const stream = accessStreamById(ctx, actor, input.streamId);
  return { is_subscribed: selectIsSubscribed(ctx.store, user.id, stream.id) };
}

/** Zulip's answer to GET /streams/{stream_id}/email_address, which parley never gives. */
export const streamEmailAddressAnswerSchema = z.object({ email: z.string() });

/** GET /streams/{stream_id}/email_address: parley receives no email, so no channel has an address. */
export function getStreamEmailAddress(ctx: Ctx, actor: Actor, input: { streamId: number }): never {
  accessStreamContentById(ctx, actor, input.streamId);
  throw badRequest('This server does not receive email, so channels have no email address.');
}
