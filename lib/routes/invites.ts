// Invitations (lib/accounts/invites.ts): POST /invites, GET /invites, DELETE /invites/{invite_id},
// POST /invites/{invite_id}/resend, POST /invites/multiuse, DELETE /invites/multiuse/{invite_id}.
import { z } from 'zod';
import { INVITE_AS, inviteUsers, listInvites, resendInvite, revokeInvite } from '../accounts/invites.js';
import { createInviteLink, revokeInviteLink } from '../accounts/invite_links.js';
import { inviteLinkAnswerSchema, invitesAnswerSchema } from '../accounts/invite_dicts.js';
import { bool, json, pathInt, str, valueErrorMessage } from '../http/params.js';
import { MAX_CHANNELS_PER_REQUEST } from './limits.js';
import { noFields, route } from './route.js';

/** Zulip's check_int_in_validator(PreregistrationUser.INVITE_AS values). */
const inviteAs = () =>
  json(
    z.int().check((payload) => {
      if (!(INVITE_AS as readonly number[]).includes(payload.value)) {
        payload.issues.push({ code: 'custom', message: valueErrorMessage('Not in the list of possible values'), input: payload.value });
      }
    }),
  )
    .optional()
    .describe('The role of the account: 100 owner, 200 administrator, 300 moderator, 400 member (default), 600 guest');

/** Minutes until the invitation expires (default 10 days), or null for never. */
const expiresInMinutes = () =>
  json(z.int().min(1).max(2 ** 31 - 1).nullable())
    .optional()
    .describe('Minutes until the invitation expires (default 14400, ten days); null: never');

const streamIds = () => json(z.array(z.int()).max(MAX_CHANNELS_PER_REQUEST));

const INVITE_ERRORS = ['BAD_REQUEST', 'UNAUTHORIZED_PRINCIPAL', 'INVITATION_FAILED'] as const;

export const inviteRoutes = {
  send: route({
    method: 'POST',
    path: '/invites',
    access: 'user',
    summary: 'Send invitations by email',
    params: {
      inviteeEmails: str().describe('Addresses separated by commas or newlines (`Name <address>` too)'),
      streamIds: streamIds().describe("The channels the new accounts join (besides the default ones with include_realm_default_subscriptions)"),
      inviteAs: inviteAs(),
      inviteExpiresInMinutes: expiresInMinutes(),
      includeRealmDefaultSubscriptions: bool().optional(),
      notifyReferrerOnJoin: bool().optional().describe('Notification Bot tells you when the account is made (default true)'),
    },
    response: noFields,
    errors: INVITE_ERRORS,
    handler: (ctx, { actor }, p) => inviteUsers(ctx, actor, p),
  }),
  list: route({
    method: 'GET',
    path: '/invites',
    access: 'user',
    summary: 'The pending invitations the caller can manage (administrators: all)',
    params: {},
    response: invitesAnswerSchema,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }) => listInvites(ctx, actor),
  }),
  revoke: route({
    method: 'DELETE',
    path: '/invites/:invite_id',
    transactional: true,
    access: 'user',
    summary: 'Revoke an email invitation: its link stops working',
    params: { inviteId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST', 'UNAUTHORIZED_PRINCIPAL'],
    handler: (ctx, { actor }, p) => revokeInvite(ctx, actor, p),
  }),
  resend: route({
    method: 'POST',
    path: '/invites/:invite_id/resend',
    transactional: true,
    access: 'user',
    summary: 'Send an email invitation again, with a new link (the previous one stops working)',
    params: { inviteId: pathInt() },
    response: noFields,
    errors: INVITE_ERRORS,
    handler: (ctx, { actor }, p) => resendInvite(ctx, actor, p),
  }),
  createLink: route({
    method: 'POST',
    path: '/invites/multiuse',
    access: 'user',
    summary: 'Create a reusable invitation link (each joiner confirms their address by email)',
    params: {
      streamIds: streamIds().optional(),
      inviteAs: inviteAs(),
      inviteExpiresInMinutes: expiresInMinutes(),
      includeRealmDefaultSubscriptions: bool().optional(),
    },
    response: inviteLinkAnswerSchema,
    errors: ['BAD_REQUEST', 'UNAUTHORIZED_PRINCIPAL'],
    handler: (ctx, { actor }, p) => createInviteLink(ctx, actor, p),
  }),
  revokeLink: route({
    method: 'DELETE',
    path: '/invites/multiuse/:invite_id',
    transactional: true,
    access: 'user',
    summary: 'Revoke a reusable invitation link',
    params: { inviteId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST', 'UNAUTHORIZED_PRINCIPAL'],
    handler: (ctx, { actor }, p) => revokeInviteLink(ctx, actor, p),
  }),
};
