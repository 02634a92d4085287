// Every event parley delivers, as one zod union of the schemas each domain module defines next
// to the code that builds its events (Zulip's GET /events: https://zulip.com/api/get-events).
// `ZulipEvent` is the type domain code appends; the tests check every stored event against the
// schema, and the OpenAPI document describes GET /events with it.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { channelEventSchemas } from './channel_event_dicts.js';
import { botEventSchemas } from './bot_dicts.js';
import { presenceEventSchemas } from './presence_dicts.js';
import { realmEventSchemas } from './realm_dicts.js';
import { userEventSchemas } from './user_dicts.js';
import { userSettingsEventSchemas } from './user_setting_types.js';
import { messageEventSchemas } from './message_event_dicts.js';
import { queueEventSchemas } from './queue_dicts.js';
import { accountEventSchemas } from '../accounts/invite_dicts.js';

// Each area's events, as one `as const` list exported by the module that defines them.
export const zulipEventSchema = z.union([
  // users, bots, settings, status, presence, realm, emoji, linkifiers, alert words
  ...userEventSchemas,
  ...botEventSchemas,
  ...userSettingsEventSchemas,
  ...presenceEventSchemas,
  ...realmEventSchemas,
  // channels, subscriptions, user groups, default channels, topics
  ...channelEventSchemas,
  // messages, flags, reactions, typing
  ...messageEventSchemas,
  // drafts, navigation views, attachments, devices, queues (heartbeat)
  ...queueEventSchemas,
  // invitations
  ...accountEventSchemas,
]);

/** An event as the domain appends it: `type` plus Zulip's payload. */
export type ZulipEvent = z.infer<typeof zulipEventSchema>;

/**
 * Appends an event for the given users (null: every user), inside the caller's transaction. The
 * heartbeat is not stored: a waiting GET /events answers with it.
 */
export function emit(ctx: Ctx, userIds: Iterable<number> | null, event: Exclude<ZulipEvent, { type: 'heartbeat' }>): void {
  ctx.events.append(userIds, event);
}
