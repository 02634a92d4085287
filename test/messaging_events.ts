// The messaging events' schemas and a Zulip client's apply_event for the messaging /register
// state: applying the events a change produced to the state before must equal a fresh register
// (Zulip's test_events.py discipline).
import type { Test } from 'tap';
import { z } from 'zod';
import type { TestServer, TestUser } from './helpers.js';
import { streamSchema as domainStreamSchema, subscriptionSchema as domainSubscriptionSchema } from '../lib/domain/stream_dicts.js';
import { userGroupSchema } from '../lib/domain/user_group_dicts.js';
import { poll, register } from './messaging_helpers.js';
import { USER_MESSAGE_ALL } from './schema_23.js';
import {
  deleteMessageEventSchemas,
  flagsAddEventSchema,
  flagsRemoveEventSchema,
  messageEventSchema,
  updateMessageEventSchema,
} from '../lib/domain/message_event_dicts.js';

export const STATE_KEYS = ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams', 'realm_user_groups', 'max_message_id'] as const;

export function pick(state: Record<string, any>): Record<string, unknown> {
  return Object.fromEntries(STATE_KEYS.map((key) => [key, state[key]]));
}

// --- event schemas ----------------------------------------------------------------------------

// The domain's channel, subscription and user group objects, with no field besides theirs.
const streamSchema = domainStreamSchema.strict();
const subscriptionSchema = domainSubscriptionSchema.strict();
const groupSchema = userGroupSchema.strict();

const id = z.int();
const withId = <T extends z.ZodObject>(schema: T) => schema.extend({ id });

export const eventSchemas = {
  streamCreate: z.object({ id, type: z.literal('stream'), op: z.literal('create'), streams: z.array(streamSchema) }).strict(),
  streamDelete: z.object({ id, type: z.literal('stream'), op: z.literal('delete'), streams: z.array(z.object({ stream_id: id }).strict()), stream_ids: z.array(id) }).strict(),
  streamUpdate: z.union([
    z.object({ id, type: z.literal('stream'), op: z.literal('update'), property: z.literal('first_message_id'), value: id.nullable(), stream_id: id, name: z.string() }).strict(),
    z.object({ id, type: z.literal('stream'), op: z.literal('update'), property: z.literal('name'), value: z.string(), stream_id: id, name: z.string() }).strict(),
    z
      .object({ id, type: z.literal('stream'), op: z.literal('update'), property: z.literal('description'), value: z.string(), rendered_description: z.string(), stream_id: id, name: z.string() })
      .strict(),
    z
      .object({
        id,
        type: z.literal('stream'),
        op: z.literal('update'),
        property: z.literal('invite_only'),
        value: z.boolean(),
        history_public_to_subscribers: z.boolean(),
        is_web_public: z.literal(false),
        stream_id: id,
        name: z.string(),
      })
      .strict(),
    z.object({ id, type: z.literal('stream'), op: z.literal('update'), property: z.literal('history_public_to_subscribers'), value: z.boolean(), stream_id: id, name: z.string() }).strict(),
  ]),
  subscriptionUpdate: z
    .object({ id, type: z.literal('subscription'), op: z.literal('update'), property: z.string(), value: z.union([z.boolean(), z.string()]), stream_id: id })
    .strict(),
  subscriptionAdd: z.object({ id, type: z.literal('subscription'), op: z.literal('add'), subscriptions: z.array(subscriptionSchema) }).strict(),
  subscriptionRemove: z
    .object({ id, type: z.literal('subscription'), op: z.literal('remove'), subscriptions: z.array(z.object({ name: z.string(), stream_id: id }).strict()) })
    .strict(),
  peer: z.object({ id, type: z.literal('subscription'), op: z.enum(['peer_add', 'peer_remove']), stream_ids: z.array(id), user_ids: z.array(id) }).strict(),
  groupAdd: z.object({ id, type: z.literal('user_group'), op: z.literal('add'), group: groupSchema }).strict(),
  groupMembers: z.object({ id, type: z.literal('user_group'), op: z.enum(['add_members', 'remove_members']), group_id: id, user_ids: z.array(id) }).strict(),
  message: withId(messageEventSchema),
  deleteMessage: z.union(deleteMessageEventSchemas.map(withId)),
  updateMessage: withId(updateMessageEventSchema),
  flagsAdd: withId(flagsAddEventSchema),
  flagsRemove: withId(flagsRemoveEventSchema),
};

/** Which schema an event of this feature must match. */
export function schemaFor(event: Record<string, any>): z.ZodType | undefined {
  switch (`${event.type}/${event.op ?? ''}`) {
    case 'stream/create':
      return eventSchemas.streamCreate;
    case 'stream/delete':
      return eventSchemas.streamDelete;
    case 'stream/update':
      return eventSchemas.streamUpdate;
    case 'subscription/add':
      return eventSchemas.subscriptionAdd;
    case 'subscription/remove':
      return eventSchemas.subscriptionRemove;
    case 'subscription/update':
      return eventSchemas.subscriptionUpdate;
    case 'subscription/peer_add':
    case 'subscription/peer_remove':
      return eventSchemas.peer;
    case 'user_group/add':
      return eventSchemas.groupAdd;
    case 'user_group/add_members':
    case 'user_group/remove_members':
      return eventSchemas.groupMembers;
    case 'message/':
      return eventSchemas.message;
    case 'update_message/':
      return eventSchemas.updateMessage;
    case 'delete_message/':
      return eventSchemas.deleteMessage;
    case 'update_message_flags/add':
      return eventSchemas.flagsAdd;
    case 'update_message_flags/remove':
      return eventSchemas.flagsRemove;
    default:
      return undefined;
  }
}

export function checkSchemas(t: Test, events: readonly Record<string, any>[]): void {
  for (const event of events) {
    const schema = schemaFor(event);
    if (!schema) {
      t.fail(`no schema for ${event.type}/${event.op}`);
      continue;
    }
    const result = schema.safeParse(event);
    t.ok(result.success, `schema of ${event.type}/${event.op ?? ''}${result.success ? '' : `: ${result.error.message}`}`);
  }
}

/** A former subscription shows the settings of a new one (parley keeps no row for it). */
const SUBSCRIPTION_DEFAULTS = {
  color: '#76ce90',
  is_muted: false,
  in_home_view: true,
  pin_to_top: false,
  audible_notifications: null,
  desktop_notifications: null,
  email_notifications: null,
  push_notifications: null,
  wildcard_mentions_notify: null,
};

const byName = (a: { name: string }, b: { name: string }): number => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * A Zulip client's apply_event for this feature's state. After delete_message, Zulip's apply_event
 * reads max_message_id again from the database: `maxMessageId` does that here.
 */
export function applyEvents(before: Record<string, any>, events: readonly Record<string, any>[], maxMessageId?: () => number): Record<string, unknown> {
  const state = structuredClone(pick(before)) as Record<string, any>;
  const lists = ['subscriptions', 'unsubscribed', 'never_subscribed', 'streams'] as const;
  const without = (list: any[], streamId: number) => list.filter((s) => s.stream_id !== streamId);
  for (const event of events) {
    if (event.type === 'stream' && event.op === 'create') {
      for (const stream of event.streams) {
        state.streams = [...without(state.streams, stream.stream_id), structuredClone(stream)];
        const known = [...state.subscriptions, ...state.unsubscribed].some((s: any) => s.stream_id === stream.stream_id);
        if (!known) state.never_subscribed = [...without(state.never_subscribed, stream.stream_id), structuredClone(stream)];
      }
    } else if (event.type === 'stream' && event.op === 'delete') {
      for (const streamId of event.stream_ids) {
        state.streams = without(state.streams, streamId);
        state.subscriptions = without(state.subscriptions, streamId);
        state.never_subscribed = without(state.never_subscribed, streamId);
        state.unsubscribed = without(state.unsubscribed, streamId);
      }
    } else if (event.type === 'stream' && event.op === 'update') {
      // Zulip's apply_event: the extra fields of description and invite_only updates come along.
      const extra = Object.fromEntries(
        ['rendered_description', 'history_public_to_subscribers', 'is_web_public'].filter((key) => key in event).map((key) => [key, event[key]]),
      );
      for (const key of lists) for (const s of state[key]) if (s.stream_id === event.stream_id) Object.assign(s, { [event.property]: event.value }, extra);
    } else if (event.type === 'subscription' && event.op === 'update') {
      for (const sub of state.subscriptions) if (sub.stream_id === event.stream_id) sub[event.property] = event.value;
    } else if (event.type === 'subscription' && event.op === 'add') {
      for (const sub of event.subscriptions) {
        state.never_subscribed = without(state.never_subscribed, sub.stream_id);
        state.unsubscribed = without(state.unsubscribed, sub.stream_id);
        state.subscriptions = [...without(state.subscriptions, sub.stream_id), structuredClone(sub)];
      }
    } else if (event.type === 'subscription' && event.op === 'remove') {
      for (const { stream_id } of event.subscriptions) {
        const sub = state.subscriptions.find((s: any) => s.stream_id === stream_id);
        state.subscriptions = without(state.subscriptions, stream_id);
        if (sub) state.unsubscribed = [...without(state.unsubscribed, stream_id), { ...sub, ...SUBSCRIPTION_DEFAULTS }];
      }
    } else if (event.type === 'subscription' && (event.op === 'peer_add' || event.op === 'peer_remove')) {
      const delta = (event.op === 'peer_add' ? 1 : -1) * event.user_ids.length;
      for (const key of lists) for (const s of state[key]) if (event.stream_ids.includes(s.stream_id)) s.subscriber_count += delta;
    } else if (event.type === 'user_group' && event.op === 'add') {
      state.realm_user_groups = [...state.realm_user_groups, event.group];
    } else if (event.type === 'user_group' && (event.op === 'add_members' || event.op === 'remove_members')) {
      for (const group of state.realm_user_groups) {
        if (group.id !== event.group_id) continue;
        const members = new Set<number>(group.members);
        for (const userId of event.user_ids) {
          if (event.op === 'add_members') members.add(userId);
          else members.delete(userId);
        }
        group.members = [...members].sort((a, b) => a - b);
      }
    } else if (event.type === 'message') {
      state.max_message_id = Math.max(state.max_message_id, event.message.id);
    } else if (event.type === 'delete_message') {
      if (maxMessageId === undefined) throw new Error('delete_message needs maxMessageId');
      state.max_message_id = maxMessageId();
    }
  }
  for (const key of lists) state[key] = [...state[key]].sort(byName);
  return state;
}

/** The newest message the user has (Zulip's max_message_id: a row, or a subscription period's), -1 without any. */
export function userMaxMessageId(s: TestServer, user: TestUser): number {
  return s.db.prepare(`SELECT coalesce(max(message_id), -1) FROM (${USER_MESSAGE_ALL}) WHERE user_id = ?`).pluck().get(user.user_id) as number;
}

/** Registers, runs the change, and checks every event's schema and that applying them equals a fresh register. */
export async function eventsApply(t: Test, s: TestServer, users: readonly TestUser[], change: () => Promise<unknown>): Promise<Map<number, Record<string, any>[]>> {
  const queues = new Map<number, Record<string, any>>();
  for (const user of users) queues.set(user.user_id, await register(s, user));
  await change();
  const all = new Map<number, Record<string, any>[]>();
  for (const user of users) {
    const before = queues.get(user.user_id)!;
    const events = await poll(s, user, before);
    checkSchemas(t, events);
    const after = await register(s, user);
    t.same(applyEvents(before, events, () => userMaxMessageId(s, user)), pick(after), `user ${user.user_id}: events applied to the state before equal a fresh register`);
    all.set(user.user_id, events);
  }
  return all;
}

