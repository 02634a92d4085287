// Joining the organization (Zulip's zerver/views/registration.py): what a link is for (its page
// asks), asking for the link that confirms an address (a reusable invitation link's joiner, or
// open sign-up when invitations are not required), and creating the account from an invitation's
// or a confirmed address's link: the invited role and channels, the referrer told, the other
// invitations of the address revoked, and the new member signed in.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { INVITATION_STATUS, selectInvitation, selectInvitationStreamIds, selectPendingInvitationIdsForEmail, updateInvitationStatus, type InvitationRow } from '../store/invitations.js';
import { selectUserById } from '../store/users.js';
import { emailEnabled, sendEmail } from '../domain/email.js';
import { getRealm } from '../domain/realm.js';
import { ROLE, type Role } from '../domain/roles.js';
import { addUser } from '../domain/users.js';
import { addressProblem, existingAccountProblem } from './addresses.js';
import { alreadyRegisteredEmail, registrationEmail } from './emails.js';
import { notifyInvitesChanged } from './invites.js';
import { checkSendingLimits, followLink, invalidLink, LINK_SECONDS, linkUrl, makeLink, recordRequest, spendLink, type ConfirmationRow } from './links.js';
import { notify } from './notification_bot.js';
import { accountOptions } from './permissions.js';
import { openSession, type OpenedSession, type SignedIn } from './sessions.js';

export const linkInfoSchema = z.object({
  kind: z.enum(['invitation', 'multiuse_invite', 'registration', 'password_reset', 'email_change']),
  /** The address the link is for; null for a reusable invitation link (the joiner gives theirs). */
  email: z.string().nullable(),
  organization_name: z.string(),
  /** Who invited (their name), for an invitation's links. */
  invited_by: z.string().nullable(),
  /** The role an invitation's account gets. */
  invited_as: z.int().nullable(),
});
export type LinkInfo = z.infer<typeof linkInfoSchema>;

/** The invitation behind a link, if it still lets someone in; throws the link's problem otherwise. */
function liveInvitation(ctx: Ctx, row: ConfirmationRow): InvitationRow | undefined {
  if (row.invitation_id === null) return undefined;
  const invitation = selectInvitation(ctx.store, row.invitation_id)!;
  if (invitation.status === INVITATION_STATUS.revoked) throw invalidLink('revoked');
  if (invitation.status === INVITATION_STATUS.used) throw invalidLink('used');
  if (invitation.expires_at !== null && invitation.expires_at <= ctx.now()) throw invalidLink('expired');
  return invitation;
}

/** Open sign-up (Zulip's invite_required false): otherwise an address needs an invitation. */
function checkOpenSignUp(ctx: Ctx): void {
  if (accountOptions(ctx).inviteRequired !== false) throw badRequest('You need an invitation to join this organization.');
}

/** POST /accounts/confirmation: what a link is for, so that its page shows the right form. */
export function describeLink(ctx: Ctx, input: { key: string }): LinkInfo {
  const row = followLink(ctx, input.key, ['invitation', 'multiuse_invite', 'registration', 'password_reset', 'email_change']);
  const invitation = liveInvitation(ctx, row);
  if (row.kind === 'registration' && invitation === undefined) {
    try {
      checkOpenSignUp(ctx);
    } catch {
      throw invalidLink('revoked');
    }
  }
  const user = row.user_id === null ? undefined : selectUserById(ctx.store, row.user_id);
  if (row.user_id !== null && user?.is_active !== 1) throw invalidLink('unknown');
  const referrer = invitation === undefined ? undefined : selectUserById(ctx.store, invitation.invited_by);
  return {
    kind: row.kind,
    email: row.kind === 'multiuse_invite' ? null : row.email,
    organization_name: getRealm(ctx).name,
    invited_by: referrer?.full_name ?? null,
    invited_as: invitation?.invited_as ?? null,
  };
}

/**
 * POST /accounts/signup: the link that confirms an address and leads to the sign-up form, for a
 * reusable invitation link's joiner (`key`) or, in an organization open to sign-up, anyone. The
 * answer is the same whether the address has an account or not: if it has, its owner is told by
 * email instead.
 */
export function requestSignUp(ctx: Ctx, input: { email: string; key?: string | undefined }, ip: string): Record<string, never> {
  const email = input.email.trim();
  return ctx.tx(() => {
    const invitation = input.key === undefined ? undefined : liveInvitation(ctx, followLink(ctx, input.key, ['multiuse_invite']));
    if (invitation === undefined) checkOpenSignUp(ctx);
    const problem = addressProblem(ctx, email);
    if (problem !== undefined) throw badRequest(problem);
    if (!emailEnabled(ctx)) throw badRequest('This server does not send email, so it cannot confirm an address.');
    checkSendingLimits(ctx, 'registration', email, ip);
    if (existingAccountProblem(ctx, email) !== undefined) {
      recordRequest(ctx, { kind: 'registration', email, ip });
      sendEmail(ctx, alreadyRegisteredEmail(ctx, email));
      return {};
    }
    const key = makeLink(ctx, { kind: 'registration', email, invitationId: invitation?.id, ip, expiresAt: ctx.now() + LINK_SECONDS.registration });
    sendEmail(ctx, registrationEmail(ctx, email, linkUrl(ctx, 'registration', key)));
    return {};
  });
}

export interface RegisterInput {
  key: string;
  fullName: string;
  password: string;
}

/** The checks of a sign-up link, before and again inside the transaction that creates the account. */
function signUpLink(ctx: Ctx, key: string): { row: ConfirmationRow; invitation: InvitationRow | undefined } {
  const row = followLink(ctx, key, ['invitation', 'registration']);
  const invitation = liveInvitation(ctx, row);
  if (invitation === undefined) checkOpenSignUp(ctx);
  const problem = addressProblem(ctx, row.email);
  if (problem !== undefined) throw badRequest(problem);
  if (existingAccountProblem(ctx, row.email) !== undefined) throw badRequest(`${row.email} already has an account`);
  return { row, invitation };
}

/**
 * POST /accounts/register: the account of an invitation's link, or of a confirmed address's, with
 * the name and password its owner chose; answers it signed in (a web session).
 */
export async function register(ctx: Ctx, input: RegisterInput, userAgent: string): Promise<SignedIn & { opened: OpenedSession }> {
  const { row, invitation } = signUpLink(ctx, input.key);
  let opened: OpenedSession | undefined;
  const created = await addUser(ctx, {
    email: row.email,
    fullName: input.fullName,
    password: input.password,
    role: (invitation?.invited_as ?? ROLE.member) as Role,
    channels:
      invitation === undefined
        ? undefined
        : { streamIds: selectInvitationStreamIds(ctx.store, invitation.id), defaults: invitation.include_realm_default_subscriptions === 1 },
    // The link may have been used, or its invitation revoked, while the password was hashed.
    checkInTransaction: () => void signUpLink(ctx, input.key),
    afterCreate: (user) => {
      spendLink(ctx, row);
      joined(ctx, user.id, user.email, user.full_name, invitation);
      opened = openSession(ctx, user.id, userAgent);
    },
  });
  return { user_id: created.user_id, email: created.email, session_id: opened!.id, opened: opened! };
}

/**
 * Zulip's process_new_human_user: the email invitation used, the address's other invitations
 * revoked, the invitations' viewers told, and the referrer sent a direct message.
 */
function joined(ctx: Ctx, userId: number, email: string, fullName: string, invitation: InvitationRow | undefined): void {
  if (invitation !== undefined && invitation.email !== null) updateInvitationStatus(ctx.store, invitation.id, INVITATION_STATUS.used, userId);
  const others = selectPendingInvitationIdsForEmail(ctx.store, email, invitation?.id ?? null);
  for (const id of others) updateInvitationStatus(ctx.store, id, INVITATION_STATUS.revoked);
  if (invitation !== undefined || others.length > 0) notifyInvitesChanged(ctx, invitation?.invited_by ?? null);
  if (invitation === undefined || invitation.notify_referrer_on_join !== 1) return;
  const referrer = selectUserById(ctx.store, invitation.invited_by);
  if (referrer?.is_active !== 1) return;
  notify(ctx, referrer.id, `@_**${fullName}|${userId}** accepted your invitation to join ${getRealm(ctx).name}!`);
}
