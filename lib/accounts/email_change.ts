// Changing one's email (Zulip's do_start_email_change_process and confirm_email_change): PATCH
// /settings `email` sends a link to the new address and changes nothing; following it (POST
// /accounts/email/confirm, the web client's /accounts/confirm_new_email/<key> page) changes it,
// tells the users who see the real address, and tells the old address.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { markUserConfirmationsUsed } from '../store/confirmations.js';
import { selectActiveUserRoles, selectUserById, updateUserEmail, type UserRow } from '../store/users.js';
import { emailEnabled, sendEmail } from '../domain/email.js';
import { apiEmail, fakeEmailDomain } from '../domain/email_visibility.js';
import { emit } from '../domain/event_types.js';
import { canAccessDeliveryEmail } from '../domain/roles.js';
import { addressProblem, existingAccountProblem } from './addresses.js';
import { confirmNewEmail, emailChangedEmail } from './emails.js';
import { checkEmailChangeLimit, followLink, invalidLink, LINK_SECONDS, linkUrl, makeLink, spendLink } from './links.js';

/** Zulip's validate_email_change_request (the address checks). */
function checkNewAddress(ctx: Ctx, email: string): void {
  const problem = addressProblem(ctx, email);
  if (problem !== undefined) throw badRequest(problem);
  const existing = existingAccountProblem(ctx, email);
  if (existing !== undefined) throw badRequest(existing.msg);
}

/**
 * In the transaction of PATCH /settings: a confirmation link to the new address (earlier ones
 * stop working), limited per user (Zulip's email_change_by_user). The address stays until then.
 */
export function startEmailChange(ctx: Ctx, user: UserRow, newEmail: string): void {
  checkNewAddress(ctx, newEmail);
  if (!emailEnabled(ctx)) throw badRequest('This server does not send email, so it cannot confirm a new email address.');
  checkEmailChangeLimit(ctx, user.id);
  markUserConfirmationsUsed(ctx.store, user.id, 'email_change', ctx.now());
  const key = makeLink(ctx, { kind: 'email_change', email: newEmail, userId: user.id, expiresAt: ctx.now() + LINK_SECONDS.email_change });
  sendEmail(ctx, confirmNewEmail(ctx, newEmail, user.email, linkUrl(ctx, 'email_change', key)));
}

/**
 * POST /accounts/email/confirm: Zulip's do_change_user_delivery_email: realm_user update with
 * the new delivery_email to who may see it (and new_email to everyone when the address is the API
 * email), and a notice to the old address.
 */
export function confirmEmailChange(ctx: Ctx, input: { key: string }): { email: string } {
  return ctx.tx(() => {
    const row = followLink(ctx, input.key, ['email_change']);
    const user = row.user_id === null ? undefined : selectUserById(ctx.store, row.user_id);
    if (user === undefined || user.is_active !== 1) throw invalidLink('unknown');
    checkNewAddress(ctx, row.email);
    spendLink(ctx, row);
    const newEmail = row.email;
    updateUserEmail(ctx.store, user.id, newEmail);
    const seeing = selectActiveUserRoles(ctx.store).filter((viewer) => canAccessDeliveryEmail(viewer, user)).map((viewer) => viewer.id);
    emit(ctx, seeing, { type: 'realm_user', op: 'update', person: { user_id: user.id, delivery_email: newEmail } });
    const domain = fakeEmailDomain(ctx);
    const after = { ...user, email: newEmail };
    if (apiEmail(domain, user) !== apiEmail(domain, after)) {
      emit(ctx, null, { type: 'realm_user', op: 'update', person: { user_id: user.id, new_email: apiEmail(domain, after) } });
    }
    sendEmail(ctx, emailChangedEmail(ctx, user.email, newEmail));
    return { email: newEmail };
  });
}
