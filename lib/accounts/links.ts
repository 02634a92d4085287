// The links sent by email (Zulip's Confirmation): made with a random key of which only a hash is
// kept, addressed under the organization URL to a page of the web client, followed once (a
// reusable invitation link: until it expires or is revoked), and the limits on sending them that
// are counted from their rows, so they hold across restarts and processes.
import type { Ctx } from '../context.js';
import { ApiError, rateLimitHit } from '../errors.js';
import {
  countConfirmationsForEmail,
  countConfirmationsForIp,
  countConfirmationsForUser,
  deleteSpentConfirmations,
  insertConfirmation,
  markConfirmationUsed,
  selectConfirmationByKeyHash,
  type ConfirmationKind,
  type ConfirmationRow,
} from '../store/confirmations.js';
import { getRealm } from '../domain/realm.js';
import { isSecretShaped, newSecret, secretHash } from './tokens.js';
import { accountOptions, DEFAULT_EMAILS_PER_CLIENT_ADDRESS_PER_DAY } from './permissions.js';

export type { ConfirmationKind, ConfirmationRow } from '../store/confirmations.js';

const HOUR = 3600;
const DAY = 24 * HOUR;

/**
 * How long a link of each kind works: Zulip's CONFIRMATION_LINK_DEFAULT_VALIDITY_DAYS (1) for a
 * sign-up's or a new address's, its password reset timeout (24 hours); an invitation's own expiry.
 */
export const LINK_SECONDS = { registration: DAY, password_reset: DAY, email_change: DAY } as const;

/** Where each kind of link leads: the web client's pages (Zulip's paths). */
const PAGES: Readonly<Record<ConfirmationKind, string>> = {
  invitation: '/accounts/do_confirm/',
  registration: '/accounts/do_confirm/',
  multiuse_invite: '/join/',
  password_reset: '/accounts/password/reset/',
  email_change: '/accounts/confirm_new_email/',
};

/**
 * The web client's account pages (lib/http/web_client.ts serves its page there): the links' pages,
 * and the forgotten-password and open sign-up forms.
 */
export const ACCOUNT_PAGES: readonly string[] = [...new Set(Object.values(PAGES)), '/accounts/password/reset', '/register'];

/** The page a link's key opens, under the organization URL. */
export function linkUrl(ctx: Ctx, kind: ConfirmationKind, key: string): string {
  return `${getRealm(ctx).url}${PAGES[kind]}${key}`;
}

export interface NewLink {
  kind: ConfirmationKind;
  email: string;
  invitationId?: number | null | undefined;
  userId?: number | null | undefined;
  ip?: string | undefined;
  /** Unix seconds; null: never. */
  expiresAt: number | null;
}

/** Makes a link in the caller's transaction; answers its key (to be sent, never stored). */
export function makeLink(ctx: Ctx, link: NewLink): string {
  const key = newSecret(ctx);
  record(ctx, link, secretHash(key));
  return key;
}

/** Records a request that sent no link (a reset asked for an address without an account): the limits count it. */
export function recordRequest(ctx: Ctx, link: Omit<NewLink, 'expiresAt'>): void {
  record(ctx, { ...link, expiresAt: null }, null);
}

function record(ctx: Ctx, link: NewLink, keyHash: Buffer | null): void {
  const now = ctx.now();
  deleteSpentConfirmations(ctx.store, now - 2 * DAY, now);
  insertConfirmation(ctx.store, {
    key_hash: keyHash,
    kind: link.kind,
    email: link.email,
    invitation_id: link.invitationId ?? null,
    user_id: link.userId ?? null,
    ip: link.ip ?? '',
    created_at: now,
    expires_at: link.expiresAt,
  });
}

export type LinkProblem = 'unknown' | 'expired' | 'used' | 'revoked';

const PROBLEMS: Readonly<Record<LinkProblem, string>> = {
  unknown: 'This link is not valid. Check that it was copied whole, or ask for a new one.',
  expired: 'This link has expired. Ask for a new one.',
  used: 'This link has already been used.',
  revoked: 'This invitation has been revoked.',
};

/** Why a link cannot be followed: 400 INVALID_CONFIRMATION_LINK with the reason the page shows. */
export function invalidLink(reason: LinkProblem): ApiError {
  return new ApiError('INVALID_CONFIRMATION_LINK', PROBLEMS[reason], { extra: { reason } });
}

/**
 * The unexpired, unused link of one of `kinds` that `key` opens; throws invalidLink otherwise. A
 * reusable invitation link is never used up (its invitation says whether it still works).
 */
export function followLink(ctx: Ctx, key: string, kinds: readonly ConfirmationKind[]): ConfirmationRow {
  const row = isSecretShaped(key) ? selectConfirmationByKeyHash(ctx.store, secretHash(key)) : undefined;
  if (row === undefined || !kinds.includes(row.kind)) throw invalidLink('unknown');
  if (row.used_at !== null) throw invalidLink('used');
  if (row.expires_at !== null && row.expires_at <= ctx.now()) throw invalidLink('expired');
  return row;
}

/** Spends a single-use link (in the transaction that acts on it): a second use is refused. */
export function spendLink(ctx: Ctx, row: ConfirmationRow): void {
  if (!markConfirmationUsed(ctx.store, row.id, ctx.now())) throw invalidLink('used');
}

/** Windows and counts: Zulip's RATE_LIMITING_RULES for emails (2 an hour, 5 a day). */
const PER_ADDRESS: readonly [number, number][] = [
  [HOUR, 2],
  [DAY, 5],
];

function checkWindows(ctx: Ctx, windows: readonly [number, number][], count: (since: number) => number): void {
  const now = ctx.now();
  for (const [seconds, most] of windows) {
    if (count(now - seconds) >= most) throw rateLimitHit(seconds);
  }
}

/**
 * Before a public request sends an email (a reset, a sign-up confirmation): the address's and the
 * account's limits (password_reset_form_by_email), and the client address's (sends_email_by_ip).
 * Counted alike whether an account exists or not, so a refusal tells nothing about the address.
 */
export function checkSendingLimits(ctx: Ctx, kind: ConfirmationKind, email: string, ip: string, userId?: number): void {
  checkWindows(ctx, PER_ADDRESS, (since) => countConfirmationsForEmail(ctx.store, email, kind, since));
  if (userId !== undefined) checkWindows(ctx, PER_ADDRESS, (since) => countConfirmationsForUser(ctx.store, userId, kind, since));
  const perClient = accountOptions(ctx).emailsPerClientAddressPerDay ?? DEFAULT_EMAILS_PER_CLIENT_ADDRESS_PER_DAY;
  if (ip !== '' && perClient > 0) checkWindows(ctx, [[DAY, perClient]], (since) => countConfirmationsForIp(ctx.store, ip, since));
}

/** Zulip's email_change_by_user: 2 an hour, 5 a day. */
export function checkEmailChangeLimit(ctx: Ctx, userId: number): void {
  checkWindows(ctx, PER_ADDRESS, (since) => countConfirmationsForUser(ctx.store, userId, 'email_change', since));
}
