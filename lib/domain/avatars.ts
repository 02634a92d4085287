// Avatar URLs: parley stores no avatars, so every account has Zulip's default (gravatar) one.
import { createHash } from 'node:crypto';
import { EMAIL_VISIBILITY } from './roles.js';

/**
 * Zulip's default avatar (no uploaded one, gravatar on): the own user's avatar_url is always a URL
 * (GET /users/me, POST /register); other users' are null, as Zulip's client_gravatar gives them.
 */
export function gravatarUrl(email: string): string {
  return `https://secure.gravatar.com/avatar/${gravatarHash(email)}?d=identicon&version=1`;
}

/** Zulip's gravatar_hash: the MD5 of the lower-cased text. */
export function gravatarHash(text: string): string {
  return createHash('md5').update(text.toLowerCase()).digest('hex');
}

/**
 * Zulip's get_avatar_field for the default avatar: null when the client computes the gravatar
 * itself (client_gravatar) from an email everyone may see; otherwise the URL, hashed from the real
 * email (Zulip forces client_gravatar off for users whose email not everyone may see).
 */
export function avatarUrl(row: { email: string; email_address_visibility: number }, clientGravatar: boolean): string | null {
  return clientGravatar && row.email_address_visibility === EMAIL_VISIBILITY.everyone ? null : gravatarUrl(row.email);
}
