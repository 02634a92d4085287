// The events of area "drafts, navigation views, attachments, devices and queues" as one list for
// lib/domain/event_types.ts, and the queue's own event: the heartbeat
// (https://zulip.com/api/get-events#heartbeat), which a waiting GET /events answers with and
// which is never stored.
import { z } from 'zod';
import { attachmentEventSchemas } from './attachment_dicts.js';
import { deviceEventSchemas } from './device_dicts.js';
import { draftEventSchemas } from './draft_dicts.js';
import { navigationViewEventSchemas } from './navigation_view_dicts.js';

export const heartbeatEventSchema = z.object({ type: z.literal('heartbeat') });

export const queueEventSchemas = [
  ...draftEventSchemas,
  ...navigationViewEventSchemas,
  ...attachmentEventSchemas,
  ...deviceEventSchemas,
  heartbeatEventSchema,
] as const;
