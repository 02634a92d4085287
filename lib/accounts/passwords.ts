// Account recovery (Zulip's password reset, zerver/forms.py ZulipPasswordResetForm): a request
// that answers the same whatever the address (an address without an account gets at most an email
// saying so), a single-use link for 24 hours, and the page's new password, which ends every web
// session (the API key stays, as in Zulip). Also the administrator's set-password and reset email.
import type { Ctx } from '../context.js';
import { badRequest } from '../errors.js';
import { markUserConfirmationsUsed } from '../store/confirmations.js';
import { deleteWebSessionsOfUser } from '../store/web_sessions.js';
import { selectUserByEmail, selectUserById, updateUserPasswordHash, type UserRow } from '../store/users.js';
import { hashPassword } from '../domain/credentials.js';
import { emailEnabled, sendEmail } from '../domain/email.js';
import { isStrongPassword } from '../domain/users.js';
import { addressProblem } from './addresses.js';
import { noAccountEmail, passwordResetEmail } from './emails.js';
import { checkSendingLimits, followLink, invalidLink, LINK_SECONDS, linkUrl, makeLink, recordRequest, spendLink } from './links.js';
import { openSession, type OpenedSession, type SignedIn } from './sessions.js';

/** An account a password may be reset for: active, and a person (bots have no password to reset). */
function resettable(row: UserRow | undefined): row is UserRow {
  return row !== undefined && row.is_active === 1 && row.bot_type === null;
}

function requireEmail(ctx: Ctx): void {
  if (!emailEnabled(ctx)) throw badRequest('This server does not send email, so it cannot send a password reset link.');
}

/** In the caller's transaction: a reset link for the account, by email. */
function sendResetLink(ctx: Ctx, user: UserRow, ip: string): void {
  const key = makeLink(ctx, { kind: 'password_reset', email: user.email, userId: user.id, ip, expiresAt: ctx.now() + LINK_SECONDS.password_reset });
  sendEmail(ctx, passwordResetEmail(ctx, user.email, linkUrl(ctx, 'password_reset', key)));
}

/**
 * POST /accounts/password/reset: always the same answer. An account gets a link; any other
 * address an email saying it has no account here. Limited per address, per account and per client
 * address alike in both cases, so a refusal tells nothing either.
 */
export function requestPasswordReset(ctx: Ctx, input: { email: string }, ip: string): Record<string, never> {
  const email = input.email.trim();
  if (addressProblem(ctx, email) === 'Invalid address.') throw badRequest('Enter a valid email address.');
  requireEmail(ctx);
  return ctx.tx(() => {
    const user = selectUserByEmail(ctx.store, email);
    const account = resettable(user) ? user : undefined;
    checkSendingLimits(ctx, 'password_reset', email, ip, account?.id);
    if (account !== undefined) sendResetLink(ctx, account, ip);
    else {
      recordRequest(ctx, { kind: 'password_reset', email, ip });
      sendEmail(ctx, noAccountEmail(ctx, email));
    }
    return {};
  });
}

/** In the caller's transaction: the new password in place; the account's web sessions and pending reset links end. */
function replacePassword(ctx: Ctx, userId: number, passwordHash: string, keepSessionId: number | null = null): void {
  updateUserPasswordHash(ctx.store, userId, passwordHash);
  deleteWebSessionsOfUser(ctx.store, userId, keepSessionId);
  markUserConfirmationsUsed(ctx.store, userId, 'password_reset', ctx.now());
}

async function newPasswordHash(ctx: Ctx, password: string): Promise<string> {
  if (!isStrongPassword(password)) throw badRequest('The password is too weak.');
  return hashPassword(password, ctx.random);
}

/**
 * POST /accounts/password/set: a reset link's new password. Every web session ends (the API key
 * stays, as in Zulip's do_change_password) and this browser is signed in afresh.
 */
export async function resetPassword(ctx: Ctx, input: { key: string; newPassword: string }, userAgent: string): Promise<SignedIn & { opened: OpenedSession }> {
  followLink(ctx, input.key, ['password_reset']);
  const hash = await newPasswordHash(ctx, input.newPassword);
  return ctx.tx(() => {
    const row = followLink(ctx, input.key, ['password_reset']);
    const user = row.user_id === null ? undefined : selectUserById(ctx.store, row.user_id);
    if (!resettable(user)) throw invalidLink('unknown');
    spendLink(ctx, row);
    replacePassword(ctx, user.id, hash);
    const opened = openSession(ctx, user.id, userAgent);
    return { user_id: user.id, email: user.email, session_id: opened.id, opened };
  });
}

/** A password change of one's own (PATCH /settings): the other web sessions end, this one stays. */
export function changeOwnPassword(ctx: Ctx, userId: number, passwordHash: string, keepSessionId: number | null): void {
  replacePassword(ctx, userId, passwordHash, keepSessionId);
}

/** chat.admin.setPassword and `parley user set-password`: no permission check; the account's web sessions end. */
export async function setPassword(ctx: Ctx, userId: number, password: string): Promise<void> {
  const hash = await newPasswordHash(ctx, password);
  ctx.tx(() => {
    const user = selectUserById(ctx.store, userId);
    if (user === undefined || user.bot_type !== null) throw badRequest('No such user');
    replacePassword(ctx, user.id, hash);
  });
}

/** chat.admin.sendPasswordReset: a reset link to an active person's address, without the public limits. */
export function sendPasswordReset(ctx: Ctx, userId: number): void {
  requireEmail(ctx);
  ctx.tx(() => {
    const user = selectUserById(ctx.store, userId);
    if (!resettable(user)) throw badRequest('No such user');
    sendResetLink(ctx, user, '');
  });
}
