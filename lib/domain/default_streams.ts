// Default channels (Zulip's DefaultStream): GET, POST and DELETE /default_streams, the
// `realm_default_streams` state of POST /register (fetch type default_streams), its
// `default_streams` event, and the subscriptions of new users.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import {
  deleteDefaultStream,
  insertDefaultStream,
  insertStream,
  selectDefaultStreamIds,
  selectStreamById,
  type StreamRow,
} from '../store/streams.js';
import { accessStreamById, accessStreamContentById, renderStreamDescription } from './streams.js';
import { emit } from './event_types.js';
import { subscribeUsers, type Subscriber } from './subscriptions.js';
import { ROLE, requireAdmin, type Actor } from './roles.js';
import type { StateOptions } from './state_options.js';

export const defaultStreamStateSchema = z.object({ realm_default_streams: z.array(z.int()) });

/** POST /register: the ids of the default channels (Zulip's realm_default_streams since feature level 330). */
export function fetchDefaultStreamState(ctx: Ctx, _actor: Actor, _options: StateOptions): z.infer<typeof defaultStreamStateSchema> {
  return { realm_default_streams: selectDefaultStreamIds(ctx.store) };
}

export const defaultStreamsAnswerSchema = z.object({ default_streams: z.array(z.int()) });

/** GET /default_streams: the ids of the default channels, as realm_default_streams. */
export function getDefaultStreams(ctx: Ctx, _actor: Actor): z.infer<typeof defaultStreamsAnswerSchema> {
  return { default_streams: selectDefaultStreamIds(ctx.store) };
}

/** Zulip's notify_default_streams_changed: every active user but guests (active_non_guest_user_ids). */
function notifyChanged(ctx: Ctx): void {
  emit(ctx, { maxRole: ROLE.member }, {
    type: 'default_streams',
    default_streams: selectDefaultStreamIds(ctx.store),
  });
}

/** POST /default_streams (Zulip's add_default_stream): a public channel the administrator can read. */
export function addDefaultStream(ctx: Ctx, actor: Actor, input: { streamId: number }): Record<string, never> {
  requireAdmin(actor);
  return ctx.tx(() => {
    const stream = accessActiveStream(ctx, actor, input.streamId, true);
    if (stream.invite_only === 1) throw badRequest('Private channels cannot be made default.');
    if (!selectDefaultStreamIds(ctx.store).includes(stream.id)) {
      insertDefaultStream(ctx.store, stream.id);
      notifyChanged(ctx);
    }
    return {};
  });
}

/** DELETE /default_streams (Zulip's remove_default_stream: metadata access suffices). */
export function removeDefaultStream(ctx: Ctx, actor: Actor, input: { streamId: number }): Record<string, never> {
  requireAdmin(actor);
  return ctx.tx(() => {
    const stream = accessActiveStream(ctx, actor, input.streamId, false);
    removeDefaultStreamIfAny(ctx, stream.id);
    return {};
  });
}

/** Zulip's access_stream_by_id: archived channels are invalid; `content` also requires reading the channel. */
function accessActiveStream(ctx: Ctx, actor: Actor, streamId: number, content: boolean): StreamRow {
  if (content) return accessStreamContentById(ctx, actor, streamId);
  const stream = accessStreamById(ctx, actor, streamId);
  if (stream.is_archived === 1) throw badRequest('Invalid channel ID');
  return stream;
}

/** In the caller's transaction: the channel stops being a default one (and everyone is told) if it was. */
export function removeDefaultStreamIfAny(ctx: Ctx, streamId: number): void {
  if (!selectDefaultStreamIds(ctx.store).includes(streamId)) return;
  deleteDefaultStream(ctx.store, streamId);
  notifyChanged(ctx);
}

/** In the caller's transaction: a new human user joins the default channels (Zulip's get_default_subs). */
export function subscribeToDefaultStreams(ctx: Ctx, users: readonly Subscriber[]): void {
  const streams = selectDefaultStreamIds(ctx.store)
    .map((id) => selectStreamById(ctx.store, id)!)
    .filter((stream) => stream.is_archived === 0);
  if (streams.length > 0 && users.length > 0) subscribeUsers(ctx, users, streams, new Set());
}

/**
 * The channels of a new organization, all default channels (Zulip's do_create_realm creates
 * "general", "sandbox" and a channel for questions about Zulip itself, which parley leaves out).
 */
const INITIAL_CHANNELS = [
  { name: 'general', description: 'For team-wide conversations' },
  { name: 'sandbox', description: 'Experiment here. :test_tube:' },
] as const;

/** In the transaction that creates the organization's first user, before that user joins them. */
export function createInitialChannels(ctx: Ctx): void {
  for (const { name, description } of INITIAL_CHANNELS) {
    const id = insertStream(ctx.store, {
      name,
      description,
      rendered_description: renderStreamDescription(ctx, description),
      invite_only: 0,
      history_public_to_subscribers: 1,
      date_created: ctx.now(),
      creator_id: null,
    });
    insertDefaultStream(ctx.store, id);
  }
}
