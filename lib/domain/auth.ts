// Who may pass: HTTP Basic credentials (email + API key) checked as Zulip's validate_api_key
// does, in constant time; and POST /fetch_api_key (email + password).
import type { Ctx } from '../context.js';
import { ApiError, unauthorized } from '../errors.js';
import { selectUserByEmail, selectUserById, type UserRow } from '../store/users.js';
import { API_KEY_PATTERN, safeEqual, verifyPassword } from './credentials.js';
import type { Actor } from './roles.js';
import { toActor } from './users.js';

// Compared against when no account has the email, so a miss costs the same as a wrong key.
const NO_KEY = 'x'.repeat(32);

// Zulip's bot_type of an incoming webhook bot: it may only post through webhook integrations.
const INCOMING_WEBHOOK_BOT = 2;

/** What the endpoint being called allows beyond active humans and bots. */
export interface CallerRules {
  /** Incoming webhook bots may call it (Zulip: sending messages). */
  allowIncomingWebhooks?: boolean | undefined;
}

export function authenticate(ctx: Ctx, email: string, apiKey: string, rules: CallerRules = {}): Actor {
  if (!API_KEY_PATTERN.test(apiKey)) throw unauthorized('Malformed API key');
  const user = selectUserByEmail(ctx.store, email);
  const matches = safeEqual(apiKey, user?.api_key ?? NO_KEY);
  if (!user || !matches) throw unauthorized('Invalid API key');
  return mayCall(user, rules);
}

/** The account rules after identification, the same over HTTP and in-process. */
function mayCall(user: UserRow, rules: CallerRules): Actor {
  if (user.is_active !== 1) throw unauthorized('Account is deactivated');
  if (user.bot_type === INCOMING_WEBHOOK_BOT && !rules.allowIncomingWebhooks) {
    throw unauthorized('This API is not available to incoming webhook bots.');
  }
  return toActor(user);
}

/** The in-process API's caller: a user id or an object with one; must be an active account, not an incoming webhook bot. */
export type ActorRef = number | { id: number };

export function resolveActor(ctx: Ctx, ref: ActorRef, rules: CallerRules = {}): Actor {
  const id = typeof ref === 'number' ? ref : ref.id;
  const user = selectUserById(ctx.store, id);
  if (!user) throw unauthorized('Invalid API key');
  return mayCall(user, rules);
}

/** POST /fetch_api_key. */
export async function fetchApiKey(
  ctx: Ctx,
  input: { username: string; password: string },
): Promise<{ api_key: string; email: string; user_id: number }> {
  const user = selectUserByEmail(ctx.store, input.username.trim());
  const ok = await verifyPassword(input.password, user?.password_hash ?? null);
  if (!user || !ok) {
    throw new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  }
  if (user.is_active !== 1) throw new ApiError('USER_DEACTIVATED', 'Account is deactivated');
  return { api_key: user.api_key, email: user.email, user_id: user.id };
}
