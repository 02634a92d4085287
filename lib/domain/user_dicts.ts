// Zulip's user dictionary and what carries it: GET /users, /users/me and /users/{id}, the
// realm_user part of POST /register and the realm_user events; the muted_users and alert_words
// lists; user status (https://zulip.com/api/get-users, https://zulip.com/api/get-events).
import { z } from 'zod';

const id = z.int();

/** Zulip's roles: owner, administrator, moderator, member, guest. */
const roleSchema = z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]);

/** Zulip's user dictionary (lib/domain/users.ts formatUser). */
export const userSchema = z.object({
  email: z.string(),
  user_id: id,
  avatar_version: z.int(),
  avatar_url: z.string().nullable(),
  is_admin: z.boolean(),
  is_owner: z.boolean(),
  is_guest: z.boolean(),
  role: roleSchema,
  is_bot: z.boolean(),
  full_name: z.string(),
  timezone: z.string(),
  is_active: z.boolean(),
  date_joined: z.string(),
  delivery_email: z.string().nullable(),
  bot_type: z.int().optional().describe('Bots only'),
  bot_owner_id: id.nullable().optional().describe('Bots only'),
  profile_data: z.record(z.string(), z.unknown()).optional().describe('Users only'),
});
export type UserDict = z.infer<typeof userSchema>;

/** GET /users/me: the caller, with its gravatar URL and newest message id. */
export const ownUserSchema = userSchema.extend({ avatar_url: z.string(), max_message_id: z.int() });
export type OwnUserDict = z.infer<typeof ownUserSchema>;

/** The realm_user part of POST /register (lib/domain/users_state.ts). */
export const realmUserStateSchema = z.object({
  realm_users: z.array(userSchema),
  realm_non_active_users: z.array(userSchema),
  cross_realm_bots: z.array(userSchema),
  user_id: id,
  email: z.string(),
  delivery_email: z.string(),
  full_name: z.string(),
  is_admin: z.boolean(),
  is_owner: z.boolean(),
  is_moderator: z.boolean(),
  is_guest: z.boolean(),
  avatar_url: z.string(),
});
export type RealmUserState = z.infer<typeof realmUserStateSchema>;

/** The `person` of a realm_user update: the user id and the one thing that changed. */
const personUpdateSchema = z.union([
  z.object({ user_id: id, full_name: z.string() }),
  z.object({ user_id: id, role: roleSchema }),
  z.object({ user_id: id, is_active: z.boolean() }),
  z.object({ user_id: id, bot_owner_id: id }),
  z.object({ user_id: id, delivery_email: z.string().nullable() }),
  z.object({ user_id: id, new_email: z.string() }),
  z.object({ email: z.string(), user_id: id, timezone: z.string() }),
]);

/** A muted user, as the muted_users event and state list them. */
const mutedUserSchema = z.object({ id, timestamp: z.int() });
export type MutedUser = z.infer<typeof mutedUserSchema>;

export const mutedUsersStateSchema = z.object({ muted_users: z.array(mutedUserSchema) });
export type MutedUsersState = z.infer<typeof mutedUsersStateSchema>;

/** The alert words: GET, POST and DELETE /users/me/alert_words, the state and the event. */
export const alertWordsSchema = z.object({ alert_words: z.array(z.string()) });
export type AlertWords = z.infer<typeof alertWordsSchema>;

/** Zulip's format_user_status: only what is set (`{}` for a cleared status). */
export const userStatusSchema = z.object({
  away: z.literal(true).optional(),
  status_text: z.string().optional(),
  emoji_name: z.string().optional(),
  emoji_code: z.string().optional(),
  reaction_type: z.string().optional(),
});
export type UserStatus = z.infer<typeof userStatusSchema>;

/** POST /register: user id (as a string) -> status. */
export const userStatusStateSchema = z.object({ user_status: z.record(z.string(), userStatusSchema) });
export type UserStatusState = z.infer<typeof userStatusStateSchema>;

/** The user_status event: what changed (`away` as sent, true or false). */
const userStatusEventSchema = userStatusSchema.extend({ type: z.literal('user_status'), user_id: id, away: z.boolean().optional() });
export type UserStatusEvent = z.infer<typeof userStatusEventSchema>;

export const userEventSchemas = [
  z.object({ type: z.literal('realm_user'), op: z.literal('add'), person: userSchema }),
  z.object({ type: z.literal('realm_user'), op: z.literal('update'), person: personUpdateSchema }),
  mutedUsersStateSchema.extend({ type: z.literal('muted_users') }),
  alertWordsSchema.extend({ type: z.literal('alert_words') }),
  userStatusEventSchema,
] as const;
