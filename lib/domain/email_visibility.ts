// Zulip's email address visibility: the API email every viewer sees (the real one only when its
// owner shows it to everyone, else user{id}@{organization host}), the real email as each viewer
// may see it (`delivery_email`), and finding a user by either.
import type { Ctx } from '../context.js';
import { selectUserByEmail, selectUserById, type UserRow } from '../store/users.js';
import { botDomain, getRealm } from './realm.js';
import { EMAIL_VISIBILITY, canAccessDeliveryEmail, type Actor } from './roles.js';
import { callerEmailDomain, type Caller } from './callers.js';

export interface EmailOwner {
  id: number;
  email: string;
  email_address_visibility: number;
}

/** Zulip's get_fake_email_domain: the organization's host, or a reserved name when that is no mail domain. */
export function fakeEmailDomain(ctx: Ctx): string {
  return botDomain(getRealm(ctx));
}

/** Zulip's UserProfile.email: the real email when shown to everyone, else the dummy address. */
export function apiEmail(domain: string, user: EmailOwner): string {
  return user.email_address_visibility === EMAIL_VISIBILITY.everyone ? user.email : `user${user.id}@${domain}`;
}

/** The caller's API email, from the row and organization URL its request was authenticated under. */
export function callerApiEmail(ctx: Ctx, caller: Caller): string {
  return apiEmail(callerEmailDomain(ctx, caller, () => fakeEmailDomain(ctx)), caller.row);
}

const DUMMY_EMAIL = /^user(\d+)@(.+)$/i;

/**
 * A user named by email (direct-message recipients, narrows, subscription principals): the API
 * email (the dummy address works for everyone, as in Zulip's access_user_by_email), or the real
 * email when the caller may see it. A hidden real email finds no one, as an unknown one.
 */
export function userByEmail(ctx: Ctx, actor: Actor, raw: string): UserRow | undefined {
  const email = raw.trim();
  const dummy = DUMMY_EMAIL.exec(email);
  if (dummy && dummy[2]!.toLowerCase() === fakeEmailDomain(ctx).toLowerCase()) {
    const byId = selectUserById(ctx.store, Number(dummy[1]));
    if (byId) return byId;
  }
  const row = selectUserByEmail(ctx.store, email);
  return row && canAccessDeliveryEmail(actor, row) ? row : undefined;
}
