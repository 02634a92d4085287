// Avatar URLs: parley stores no avatars, so every account has Zulip's default (gravatar) one.
import { createHash } from 'node:crypto';

/**
 * Zulip's default avatar (no uploaded one, gravatar on): the own user's avatar_url is always a URL
 * (GET /users/me, POST /register); other users' are null, as Zulip's client_gravatar gives them.
 */
export function gravatarUrl(email: string): string {
  return `https://secure.gravatar.com/avatar/${createHash('md5').update(email.toLowerCase()).digest('hex')}?d=identicon&version=1`;
}
