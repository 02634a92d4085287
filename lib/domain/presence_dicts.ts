// Zulip's presence formats (https://zulip.com/api/get-presence): the modern one (keyed by user id,
// with active_timestamp and idle_timestamp) and the legacy one (keyed by email, a "website" client
// entry and an "aggregated" copy of it); the presence event and the /register `presences` state.
import { z } from 'zod';

/** Zulip's OFFLINE_THRESHOLD_SECS: a user not heard from for longer is offline (and idle, for notifications). */
export const OFFLINE_THRESHOLD_SECONDS = 140;

/** Zulip's modern presence format (slim_presence, last_update_id). */
export const modernPresenceSchema = z.object({ active_timestamp: z.int(), idle_timestamp: z.int() });
/** One client's entry in Zulip's legacy format; "aggregated" has no `pushable`. */
const legacyClientPresenceSchema = z.object({
  client: z.string(),
  status: z.enum(['active', 'idle', 'offline']),
  timestamp: z.int(),
  pushable: z.boolean().optional(),
});
/** The "website" entry of the legacy format, the one client parley reports. */
const websitePresenceSchema = legacyClientPresenceSchema.required();
/** Zulip's legacy format: `website` and `aggregated` entries. */
const legacyPresenceSchema = z.record(z.string(), legacyClientPresenceSchema);
/** GET /users/{user_id_or_email}/presence in the legacy format: entries without client and pushable. */
export const userLegacyPresenceSchema = z.record(z.string(), legacyClientPresenceSchema.pick({ status: true, timestamp: true }));
/** The presences of POST /users/me/presence, GET /realm/presence and /register: by user id or by email. */
const presencesSchema = z.record(z.string(), z.union([modernPresenceSchema, legacyPresenceSchema]));

export type ModernPresence = z.infer<typeof modernPresenceSchema>;
export type WebsitePresence = z.infer<typeof websitePresenceSchema>;
export type LegacyPresence = z.infer<typeof legacyPresenceSchema>;
export type UserLegacyPresence = z.infer<typeof userLegacyPresenceSchema>;

/** When the server read the presences, in seconds (a float). */
const serverTimestampSchema = z.number().describe('When the server read the presences, in seconds (a float)');

/** Zulip's get_presence_response: POST /users/me/presence and the /register state. */
export const presencesAnswerSchema = z.object({
  presences: presencesSchema,
  server_timestamp: serverTimestampSchema,
  presence_last_update_id: z.int().describe('The newest update id in presences (-1: none)'),
});
export type PresencesAnswer = z.infer<typeof presencesAnswerSchema>;

export const presenceEventSchemas = [
  // Zulip's send_presence_changed: the legacy format, one "website" entry.
  z.object({
    type: z.literal('presence'),
    email: z.string(),
    user_id: z.int(),
    server_timestamp: z.number(),
    presence: z.object({ website: websitePresenceSchema }),
  }),
] as const;
