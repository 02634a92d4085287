// Channel administration: PATCH /streams/{stream_id} (name, description, privacy) and DELETE
// /streams/{stream_id} (archiving), Zulip's update_stream_backend and deactivate_stream_backend.
import type { Ctx } from '../context.js';
import { ApiError, badRequest, mustBeAdmin } from '../errors.js';
import {
  archiveStream,
  selectStreamById,
  selectStreamByName,
  selectSubscriberCount,
  updateStreamDescription,
  updateStreamName,
  updateStreamPrivacy,
  type StreamRow,
} from '../store/streams.js';
import { streamViewerIds, streamViewers } from './stream_access.js';
import { canReadStream, renderStreamDescription } from './streams.js';
import { streamDict, streamNameProblem } from './stream_dicts.js';
import { emit } from './event_types.js';
import { removeDefaultStreamIfAny } from './default_streams.js';
import { isAdmin, type Actor } from './roles.js';

/**
 * Zulip's access_stream_for_delete_or_update_requiring_metadata_access, without channel
 * administrators (parley does not model can_administer_channel_group): administrators may change
 * any channel; others who can read it are told they are no administrator, the rest that it does
 * not exist. Archived channels do not exist for these requests (Zulip's require_active).
 */
function accessStreamForUpdate(ctx: Ctx, actor: Actor, streamId: number): StreamRow {
  const stream = selectStreamById(ctx.store, streamId);
  if (!stream || stream.is_archived === 1) throw badRequest('Invalid channel ID');
  if (isAdmin(actor)) return stream;
  if (canReadStream(ctx, actor, stream)) throw mustBeAdmin();
  throw badRequest('Invalid channel ID');
}

export interface UpdateStreamInput {
  streamId: number;
  newName?: string | undefined;
  description?: string | undefined;
  isPrivate?: boolean | undefined;
  isWebPublic?: boolean | undefined;
  historyPublicToSubscribers?: boolean | undefined;
}

/** A `stream` update event: the property, its value and the extra fields Zulip sends with it. */
function streamUpdate<const F extends { property: string; value: unknown }>(stream: StreamRow, fields: F) {
  return { type: 'stream' as const, op: 'update' as const, ...fields, stream_id: stream.id, name: stream.name };
}

/** PATCH /streams/{stream_id}: one `stream` update event per changed property, to everyone who can see the channel. */
export function updateStream(ctx: Ctx, actor: Actor, input: UpdateStreamInput): Record<string, never> {
  return ctx.tx(() => {
    let stream = accessStreamForUpdate(ctx, actor, input.streamId);
    if (input.isWebPublic === true) throw badRequest('Web-public channels are not enabled.');
    const viewers = () => streamViewers(ctx, stream);

    if (input.description !== undefined) {
      // Zulip stores channel descriptions on one line.
      const description = input.description.replace(/\n/g, ' ');
      if (description !== stream.description) {
        const rendered = renderStreamDescription(ctx, description);
        updateStreamDescription(ctx.store, stream.id, description, rendered);
        emit(ctx, viewers(), streamUpdate(stream, { property: 'description', value: description, rendered_description: rendered }));
        stream = selectStreamById(ctx.store, stream.id)!;
      }
    }
    if (input.newName !== undefined) {
      const name = input.newName.trim();
      if (stream.name === name) throw badRequest('Channel already has that name.');
      const problem = streamNameProblem(name);
      if (problem) throw badRequest(problem);
      // A change of case only keeps the name available (Zulip's check_stream_name_available).
      if (stream.name.toLowerCase() !== name.toLowerCase() && selectStreamByName(ctx.store, name)) {
        throw new ApiError('CHANNEL_ALREADY_EXISTS', `Channel '${name}' already exists`);
      }
      updateStreamName(ctx.store, stream.id, name);
      emit(ctx, viewers(), streamUpdate(stream, { property: 'name', value: name }));
      stream = selectStreamById(ctx.store, stream.id)!;
    }
    // Even administrators change a channel's privacy only with access to its content.
    if (input.isPrivate !== undefined && !canReadStream(ctx, actor, stream)) {
      throw badRequest('Invalid channel ID');
    }
    if (input.isPrivate !== undefined || input.historyPublicToSubscribers !== undefined) {
      stream = changePrivacy(ctx, stream, input.isPrivate ?? stream.invite_only === 1, input.historyPublicToSubscribers);
    }
    return {};
  });
}

/**
 * Zulip's do_change_stream_permission. A public channel's history is always public (Zulip's
 * get_default_value_for_history_public_to_subscribers); a private channel's history is
 * protected unless given as public. Users who gain sight of the channel get a `stream` create event,
 * those who lose it a `stream` delete event; those who see it afterwards get the update events.
 */
function changePrivacy(ctx: Ctx, stream: StreamRow, isPrivate: boolean, history: boolean | undefined): StreamRow {
  const historyPublic = isPrivate ? (history ?? false) : true;
  const inviteOnly = isPrivate ? 1 : 0;
  const historyValue = historyPublic ? 1 : 0;
  if (inviteOnly === stream.invite_only && historyValue === stream.history_public_to_subscribers) return stream;
  const before = streamViewerIds(ctx, stream);
  updateStreamPrivacy(ctx.store, stream.id, inviteOnly, historyValue);
  const changed = selectStreamById(ctx.store, stream.id)!;
  const after = streamViewerIds(ctx, changed);
  const gained = [...after].filter((id) => !before.has(id));
  const lost = [...before].filter((id) => !after.has(id));
  if (gained.length > 0) emit(ctx, gained, { type: 'stream', op: 'create', streams: [streamDict(changed, selectSubscriberCount(ctx.store, stream.id))] });
  if (lost.length > 0) emit(ctx, lost, { type: 'stream', op: 'delete', streams: [{ stream_id: stream.id }], stream_ids: [stream.id] });
  if (inviteOnly !== stream.invite_only) {
    emit(ctx, after, streamUpdate(changed, { property: 'invite_only', value: isPrivate, history_public_to_subscribers: historyPublic, is_web_public: false }));
  }
  if (historyValue !== stream.history_public_to_subscribers) {
    emit(ctx, after, streamUpdate(changed, { property: 'history_public_to_subscribers', value: historyPublic }));
  }
  return changed;
}

/**
 * DELETE /streams/{stream_id}: Zulip's do_deactivate_stream. The channel, its messages and its
 * subscriptions stay; it stops being a default channel, and everyone who could see it gets a
 * `stream` delete event (Zulip's event for clients without the archived_channels capability,
 * which parley does not offer), so it leaves every list of /register.
 */
export function deleteStream(ctx: Ctx, actor: Actor, input: { streamId: number }): Record<string, never> {
  return ctx.tx(() => {
    const existing = selectStreamById(ctx.store, input.streamId);
    if (existing?.is_archived === 1 && isAdmin(actor)) throw badRequest('Channel is already deactivated');
    const stream = accessStreamForUpdate(ctx, actor, input.streamId);
    const viewers = streamViewers(ctx, stream);
    removeDefaultStreamIfAny(ctx, stream.id);
    archiveStream(ctx.store, stream.id);
    emit(ctx, viewers, { type: 'stream', op: 'delete', streams: [{ stream_id: stream.id }], stream_ids: [stream.id] });
    return {};
  });
}
