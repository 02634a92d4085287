// Reusable invitation links (Zulip's MultiuseInvite): POST /invites/multiuse and DELETE
// /invites/multiuse/{id}. Each joiner confirms their address by email (lib/accounts/registration.ts).
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { INVITATION_STATUS, insertInvitation, updateInvitationStatus } from '../store/invitations.js';
import { ROLE, type Actor } from '../domain/roles.js';
import { requireMemberOrAdmin } from '../domain/users.js';
import { accessInvitation, checkInvitedAs, DEFAULT_INVITE_MINUTES, expiry, inviteStreams, notifyInvitesChanged } from './invites.js';
import { linkUrl, makeLink } from './links.js';
import { accountOptions, inRoleGroup } from './permissions.js';

export interface MultiuseInput {
  streamIds?: readonly number[] | undefined;
  inviteAs?: number | undefined;
  inviteExpiresInMinutes?: number | null | undefined;
  includeRealmDefaultSubscriptions?: boolean | undefined;
}

/** POST /invites/multiuse: Zulip's generate_multiuse_invite_backend; answers the link. */
export function createInviteLink(ctx: Ctx, actor: Actor, input: MultiuseInput): { invite_link: string } {
  requireMemberOrAdmin(actor);
  if (!inRoleGroup(accountOptions(ctx).whoMayCreateInviteLinks ?? 'role:administrators', actor)) throw badRequest('Insufficient permission');
  const invitedAs = input.inviteAs ?? ROLE.member;
  checkInvitedAs(actor, invitedAs);
  return ctx.tx(() => {
    const streams = inviteStreams(ctx, actor, input.streamIds ?? []);
    const expiresAt = expiry(ctx, input.inviteExpiresInMinutes === undefined ? DEFAULT_INVITE_MINUTES : input.inviteExpiresInMinutes);
    const id = insertInvitation(
      ctx.store,
      {
        email: null,
        invited_by: actor.id,
        invited_as: invitedAs,
        include_realm_default_subscriptions: input.includeRealmDefaultSubscriptions ? 1 : 0,
        notify_referrer_on_join: 1,
        created_at: ctx.now(),
        expires_at: expiresAt,
      },
      streams.map((stream) => stream.id),
    );
    const key = makeLink(ctx, { kind: 'multiuse_invite', email: '', invitationId: id, expiresAt });
    notifyInvitesChanged(ctx, actor.id);
    return { invite_link: linkUrl(ctx, 'multiuse_invite', key) };
  });
}

/** DELETE /invites/multiuse/{invite_id}: Zulip's do_revoke_multi_use_invite. */
export function revokeInviteLink(ctx: Ctx, actor: Actor, input: { inviteId: number }): Record<string, never> {
  requireMemberOrAdmin(actor);
  return ctx.tx(() => {
    const row = accessInvitation(ctx, actor, input.inviteId, true);
    if (row.status === INVITATION_STATUS.revoked) throw badRequest('Invitation has already been revoked');
    updateInvitationStatus(ctx.store, row.id, INVITATION_STATUS.revoked);
    notifyInvitesChanged(ctx, row.invited_by);
    return {};
  });
}
