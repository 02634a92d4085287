// Invitations as the API shows them (GET /invites, POST /invites/multiuse) and the
// invites_changed event (Zulip's notify_invites_changed: clients fetch GET /invites again).
import { z } from 'zod';

export const inviteSchema = z.object({
  id: z.int(),
  invited_by_user_id: z.int(),
  /** Unix seconds. */
  invited: z.int(),
  /** Unix seconds; null: never. */
  expiry_date: z.int().nullable(),
  invited_as: z.union([z.literal(100), z.literal(200), z.literal(300), z.literal(400), z.literal(600)]),
  /** Email invitations only. */
  email: z.string().optional(),
  /** Email invitations only, as Zulip's do_get_invites_controlled_by_user. */
  notify_referrer_on_join: z.boolean().optional(),
  is_multiuse: z.boolean(),
});
export type InviteDict = z.infer<typeof inviteSchema>;

export const invitesAnswerSchema = z.object({ invites: z.array(inviteSchema) });
export const inviteLinkAnswerSchema = z.object({ invite_link: z.string() });

export const accountEventSchemas = [z.object({ type: z.literal('invites_changed') })] as const;
