// Invitations (Zulip's zerver/views/invite.py and zerver/actions/invites.py): POST /invites, GET
// /invites, DELETE /invites/{id}, POST /invites/{id}/resend, and the rules reusable links share
// (invite_links.ts); the invitation email goes through the mailer, and each change tells the
// organization's administrators and the invitation's referrer (invites_changed).
import type { Ctx } from '../context.js';
import { ApiError, badRequest, mustBeOwner } from '../errors.js';
import { deleteInvitationConfirmations } from '../store/confirmations.js';
import {
  INVITATION_STATUS,
  countEmailInvitationsSince,
  insertInvitation,
  selectInvitation,
  selectValidInvitations,
  updateInvitationStatus,
  type InvitationRow,
} from '../store/invitations.js';
import { selectDefaultStreamIds, selectActiveUserIdsWithRoleAtMost, type StreamRow } from '../store/streams.js';
import { sendEmail, emailEnabled } from '../domain/email.js';
import { emit } from '../domain/event_types.js';
import { ROLE, isAdmin, isOwner, type Actor, type Role } from '../domain/roles.js';
import { accessStreamContentById } from '../domain/streams.js';
import { requireMemberOrAdmin, existingUser } from '../domain/users.js';
import { addressProblem, existingAccountProblem } from './addresses.js';
import { invitationEmail } from './emails.js';
import type { InviteDict } from './invite_dicts.js';
import { linkUrl, makeLink } from './links.js';
import { DEFAULT_INVITATIONS_PER_DAY, accountOptions, inRoleGroup, mayAddSubscribers } from './permissions.js';

/** Zulip's INVITATION_LINK_VALIDITY_DAYS: an invitation lasts 10 days unless its sender says otherwise. */
export const DEFAULT_INVITE_MINUTES = 10 * 24 * 60;

export const INVITE_AS: readonly Role[] = [ROLE.owner, ROLE.admin, ROLE.moderator, ROLE.member, ROLE.guest];

/** An [email, reason, deactivated] of Zulip's InvitationError. */
type Skipped = [string, string, boolean];

/** Zulip's InvitationError: 400 INVITATION_FAILED with the addresses and what happened. */
function invitationFailed(msg: string, errors: Skipped[], sentInvitations: boolean, dailyLimitReached = false): ApiError {
  return new ApiError('INVITATION_FAILED', msg, {
    extra: { errors, sent_invitations: sentInvitations, license_limit_reached: false, daily_limit_reached: dailyLimitReached },
  });
}

/** Zulip's get_invitee_emails_set: split on commas and newlines, `Name <address>` taken as the address. */
export function inviteeEmails(raw: string): string[] {
  const emails = new Set<string>();
  for (const part of raw.split(/[,\n]/)) {
    const named = /<(?<email>.*)>/.exec(part)?.groups?.email;
    emails.add((named ?? part).trim());
  }
  return [...emails];
}

/** Zulip's check_role_based_permissions. */
function checkInviteRole(actor: Actor, invitedAs: number, requireAdmin: boolean): void {
  if (invitedAs === ROLE.owner && !isOwner(actor)) throw mustBeOwner();
  if (requireAdmin && !isAdmin(actor)) throw badRequest('Must be an organization administrator');
}

/** Owners, administrators and moderators are invited only by administrators (owners, by owners). */
export function checkInvitedAs(actor: Actor, invitedAs: number): void {
  checkInviteRole(actor, invitedAs, invitedAs === ROLE.owner || invitedAs === ROLE.admin || invitedAs === ROLE.moderator);
}

/**
 * Zulip's access_streams_for_invite: channels the sender can read, and that they may subscribe
 * others to (Zulip's can_add_subscribers_group) unless they are default channels.
 */
export function inviteStreams(ctx: Ctx, actor: Actor, streamIds: readonly number[]): StreamRow[] {
  const streams = streamIds.map((id) => {
    try {
      return accessStreamContentById(ctx, actor, id);
    } catch {
      throw badRequest(`Invalid channel ID ${id}. No invites were sent.`);
    }
  });
  const defaults = new Set(selectDefaultStreamIds(ctx.store));
  if (streams.some((stream) => !defaults.has(stream.id)) && !mayAddSubscribers(ctx, actor)) {
    throw badRequest('You do not have permission to subscribe other users to channels.');
  }
  return streams;
}

/** When an invitation made now for `minutes` expires (null: never). */
export function expiry(ctx: Ctx, minutes: number | null): number | null {
  return minutes === null ? null : ctx.now() + minutes * 60;
}

/** Zulip's notify_invites_changed: administrators (bots included) and the invitation's referrer. */
export function notifyInvitesChanged(ctx: Ctx, referrerId: number | null): void {
  const ids = new Set(selectActiveUserIdsWithRoleAtMost(ctx.store, ROLE.admin));
  if (referrerId !== null) ids.add(referrerId);
  emit(ctx, ids, { type: 'invites_changed' });
}

/** Invitations leave by email: without a mailer there is no way to deliver one. */
function requireEmail(ctx: Ctx): void {
  if (!emailEnabled(ctx)) throw badRequest('This server does not send email, so it cannot send invitations.');
}

export interface InviteInput {
  inviteeEmails: string;
  streamIds: readonly number[];
  inviteAs?: number | undefined;
  inviteExpiresInMinutes?: number | null | undefined;
  includeRealmDefaultSubscriptions?: boolean | undefined;
  notifyReferrerOnJoin?: boolean | undefined;
}

/** The invitation email of a pending invitation, with a new link (the previous one stops working). */
function sendInvitation(ctx: Ctx, invitation: InvitationRow, referrer: { name: string; email: string }): void {
  deleteInvitationConfirmations(ctx.store, invitation.id);
  const key = makeLink(ctx, { kind: 'invitation', email: invitation.email!, invitationId: invitation.id, expiresAt: invitation.expires_at });
  sendEmail(ctx, invitationEmail(ctx, invitation.email!, referrer, linkUrl(ctx, 'invitation', key), invitation.expires_at));
}

/** Zulip's check_invite_limit: the organization's email invitations of the last 24 hours. */
function checkInviteLimit(ctx: Ctx, count: number): void {
  const perDay = accountOptions(ctx).invitationsPerDay ?? DEFAULT_INVITATIONS_PER_DAY;
  if (countEmailInvitationsSince(ctx.store, ctx.now() - 24 * 3600) + count > perDay) {
    throw invitationFailed(
      'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
      [],
      false,
      true,
    );
  }
}

/** Zulip's INVITES_MIN_USER_AGE_DAYS: in an organization open to sign-up, new members wait 3 days to invite. */
const MIN_INVITER_AGE_SECONDS = 3 * 24 * 3600;

/** POST /invites: Zulip's invite_users_backend and do_invite_users. */
export function inviteUsers(ctx: Ctx, actor: Actor, input: InviteInput): Record<string, never> {
  requireMemberOrAdmin(actor);
  const options = accountOptions(ctx);
  if (!inRoleGroup(options.whoMayInvite ?? 'role:members', actor)) throw badRequest('Insufficient permission');
  const invitedAs = input.inviteAs ?? ROLE.member;
  checkInvitedAs(actor, invitedAs);
  if (input.inviteeEmails === '') throw badRequest('You must specify at least one email address.');
  const emails = inviteeEmails(input.inviteeEmails);
  const skipped = ctx.tx(() => {
    const streams = inviteStreams(ctx, actor, input.streamIds);
    requireEmail(ctx);
    checkInviteLimit(ctx, emails.length);
    const sender = existingUser(ctx, actor.id);
    if (options.inviteRequired === false && !isAdmin(actor) && sender.date_joined > ctx.now() - MIN_INVITER_AGE_SECONDS) {
      throw invitationFailed(
        'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.',
        [],
        false,
      );
    }
    const errors: Skipped[] = [];
    const skipped: Skipped[] = [];
    const good: string[] = [];
    for (const email of emails) {
      if (email === '') continue;
      const problem = addressProblem(ctx, email);
      if (problem !== undefined) {
        errors.push([email, problem, false]);
        continue;
      }
      const existing = existingAccountProblem(ctx, email);
      if (existing !== undefined) skipped.push([email, existing.msg, existing.deactivated]);
      else good.push(email);
    }
    if (errors.length > 0) throw invitationFailed("Some emails did not validate, so we didn't send any invitations.", [...errors, ...skipped], false);
    if (skipped.length > 0 && skipped.length === emails.length) throw invitationFailed("We weren't able to invite anyone.", skipped, false);
    const expiresAt = expiry(ctx, input.inviteExpiresInMinutes === undefined ? DEFAULT_INVITE_MINUTES : input.inviteExpiresInMinutes);
    for (const email of good) {
      const id = insertInvitation(
        ctx.store,
        {
          email,
          invited_by: actor.id,
          invited_as: invitedAs,
          include_realm_default_subscriptions: input.includeRealmDefaultSubscriptions ? 1 : 0,
          notify_referrer_on_join: input.notifyReferrerOnJoin === false ? 0 : 1,
          created_at: ctx.now(),
          expires_at: expiresAt,
        },
        streams.map((stream) => stream.id),
      );
      sendInvitation(ctx, selectInvitation(ctx.store, id)!, { name: sender.full_name, email: sender.email });
    }
    notifyInvitesChanged(ctx, actor.id);
    return skipped;
  });
  // Outside the transaction: the invitations to everyone else were made.
  if (skipped.length > 0) {
    throw invitationFailed(
      "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
      skipped,
      true,
    );
  }
  return {};
}

function inviteDict(row: InvitationRow): InviteDict {
  const common = {
    id: row.id,
    invited_by_user_id: row.invited_by,
    invited: row.created_at,
    expiry_date: row.expires_at,
    invited_as: row.invited_as as InviteDict['invited_as'],
  };
  if (row.email === null) return { ...common, is_multiuse: true };
  return { ...common, email: row.email, notify_referrer_on_join: row.notify_referrer_on_join === 1, is_multiuse: false };
}

/**
 * GET /invites: Zulip's do_get_invites_controlled_by_user: administrators see every pending
 * invitation, others their own; email invitations first. A reusable link's URL is shown only when
 * it is made (parley keeps only a hash of its key).
 */
export function listInvites(ctx: Ctx, actor: Actor): { invites: InviteDict[] } {
  requireMemberOrAdmin(actor);
  const rows = selectValidInvitations(ctx.store, ctx.now(), isAdmin(actor) ? null : actor.id);
  return { invites: [...rows.filter((row) => row.email !== null), ...rows.filter((row) => row.email === null)].map(inviteDict) };
}

/** Zulip's access_invite_by_id and access_multiuse_invite_by_id. */
export function accessInvitation(ctx: Ctx, actor: Actor, id: number, multiuse: boolean): InvitationRow {
  const row = selectInvitation(ctx.store, id);
  if (row === undefined || (row.email === null) !== multiuse || (!multiuse && row.status !== INVITATION_STATUS.pending)) {
    throw badRequest('No such invitation');
  }
  if (row.invited_by !== actor.id) checkInviteRole(actor, row.invited_as, true);
  return row;
}

/** DELETE /invites/{invite_id}: Zulip's do_revoke_user_invite. */
export function revokeInvite(ctx: Ctx, actor: Actor, input: { inviteId: number }): Record<string, never> {
  requireMemberOrAdmin(actor);
  return ctx.tx(() => {
    const row = accessInvitation(ctx, actor, input.inviteId, false);
    updateInvitationStatus(ctx.store, row.id, INVITATION_STATUS.revoked);
    notifyInvitesChanged(ctx, row.invited_by);
    return {};
  });
}

/**
 * POST /invites/{invite_id}/resend: Zulip's do_send_user_invite_email. The email carries a new
 * link and the previous one stops working: only a hash of a link's key is kept.
 */
export function resendInvite(ctx: Ctx, actor: Actor, input: { inviteId: number }): Record<string, never> {
  requireMemberOrAdmin(actor);
  return ctx.tx(() => {
    const row = accessInvitation(ctx, actor, input.inviteId, false);
    if (row.expires_at !== null && row.expires_at <= ctx.now()) throw badRequest('No such invitation');
    requireEmail(ctx);
    checkInviteLimit(ctx, 0);
    const referrer = existingUser(ctx, row.invited_by);
    sendInvitation(ctx, row, { name: referrer.full_name, email: referrer.email });
    return {};
  });
}
