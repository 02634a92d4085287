// Which addresses may have an account (Zulip's zerver/lib/email_validation.py): a valid address,
// in one of the organization's domains when it restricts them, and not an account already.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { selectUserByEmail } from '../store/users.js';
import { accountOptions } from './permissions.js';

const EMAIL = z.email();

/** The longest address (RFC 5321's path limit, Django's EmailField). */
const MAX_EMAIL_LENGTH = 254;

/** Zulip's validate_email_is_valid: why an address cannot be invited or sign up, if it cannot. */
export function addressProblem(ctx: Ctx, email: string): string | undefined {
  if (email.length > MAX_EMAIL_LENGTH || !EMAIL.safeParse(email).success) return 'Invalid address.';
  const domains = accountOptions(ctx).emailDomains ?? [];
  if (domains.length === 0) return undefined;
  const at = email.lastIndexOf('@');
  if (email.slice(0, at).includes('+')) return 'Email addresses containing + are not allowed.';
  const domain = email.slice(at + 1).toLowerCase();
  const allowed = domains.some((allowed) =>
    allowed.startsWith('*.') ? domain === allowed.slice(2) || domain.endsWith(allowed.slice(1)) : domain === allowed,
  );
  return allowed ? undefined : 'Outside your domain.';
}

/** Zulip's get_existing_user_errors for one address: its message and whether the account is deactivated. */
export function existingAccountProblem(ctx: Ctx, email: string): { msg: string; deactivated: boolean } | undefined {
  const row = selectUserByEmail(ctx.store, email);
  if (row === undefined) return undefined;
  return row.is_active === 1 ? { msg: 'Already has an account.', deactivated: false } : { msg: 'Account has been deactivated.', deactivated: true };
}
