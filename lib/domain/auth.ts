// Who may pass: HTTP Basic credentials (email + API key) checked as Zulip's validate_api_key
// does, in constant time; and POST /fetch_api_key (email + password).
import type { Ctx } from '../context.js';
import { ApiError, unauthorized } from '../errors.js';
import { selectUserByEmail, selectUserById, type UserRow } from '../store/users.js';
import { API_KEY_PATTERN, safeEqual, verifyPassword } from './credentials.js';
import type { Actor, Role } from './roles.js';

// Compared against when no account has the email, so a miss costs the same as a wrong key.
const NO_KEY = 'x'.repeat(32);

// Zulip's bot_type of an incoming webhook bot: it may only post through webhook integrations.
const INCOMING_WEBHOOK_BOT = 2;

/** What the endpoint being called allows beyond active humans and bots. */
export interface CallerRules {
  /** Incoming webhook bots may call it (Zulip: sending messages). */
  allowIncomingWebhooks?: boolean | undefined;
}

// Every request starts by reading its caller's user row. The rows read are kept (ctx.cached 'user')
// until a change to the user table or the organization URL, by any process, gives them a new
// version: checking it costs a fraction of reading a row again. Misses are not kept, so unknown
// emails cannot fill the memory. A request of a transactional route (RouteDef.transactional) checks
// the version inside its write transaction rather than in a read transaction of its own: before
// its body is read it may pass on the remembered row alone (authenticateRemembered), and it is
// authenticated again, as every request is, in the transaction that runs its handler: there a
// caller made from rows still current (isCurrentCaller) is kept without its key compared again.
interface CachedUser {
  row: UserRow;
  /** The caller built from the row; shared by every request of that user, so frozen. */
  actor: Actor;
}

interface UserCache {
  byEmail: Map<string, CachedUser>;
  byId: Map<number, CachedUser>;
  /** The row each caller was authenticated from: Zulip's request.user (GET /users/me answers with it). */
  rows: WeakMap<Actor, UserRow>;
  /** The domain of API emails, from the organization URL (whose changes give a new version too). */
  emailDomain?: string;
  /** The own avatar URL of each remembered row's user (an MD5 of the email). */
  avatarUrls: WeakMap<UserRow, string>;
}

const MAX_CACHED_USERS = 10_000;

const userCache = (ctx: Ctx): UserCache => ctx.cached<UserCache>('user', () => ({ byEmail: new Map(), byId: new Map(), rows: new WeakMap(), avatarUrls: new WeakMap() }));

/** A caller by email or by id: remembered, or read and remembered under that key and its id. */
function rememberedUser<K>(ctx: Ctx, index: (cache: UserCache) => Map<K, CachedUser>, key: K, read: (key: K) => UserRow | undefined): CachedUser | undefined {
  const cache = userCache(ctx);
  // Full (one user under many spellings of its email counts once per spelling): start again.
  if (cache.byEmail.size >= MAX_CACHED_USERS || cache.byId.size >= MAX_CACHED_USERS) {
    cache.byEmail.clear();
    cache.byId.clear();
  }
  const hit = index(cache).get(key);
  if (hit !== undefined) return hit;
  const row = read(key);
  if (row === undefined) return undefined;
  let user = cache.byId.get(row.id);
  if (user === undefined) {
    user = { row, actor: Object.freeze(toActor(row)) };
    cache.rows.set(user.actor, row);
    cache.byId.set(row.id, user);
  }
  index(cache).set(key, user);
  return user;
}

const userByEmail = (ctx: Ctx, email: string): CachedUser | undefined =>
  rememberedUser(ctx, (cache) => cache.byEmail, email, (key) => selectUserByEmail(ctx.store, key));

const userById = (ctx: Ctx, id: number): CachedUser | undefined =>
  rememberedUser(ctx, (cache) => cache.byId, id, (key) => selectUserById(ctx.store, key));

/**
 * A user's row by id from the remembered rows (read and remembered on a miss): checking the
 * version costs less than reading the row, whose many columns make a wide object.
 */
export function rememberedUserRow(ctx: Ctx, id: number): UserRow | undefined {
  return userById(ctx, id)?.row;
}

/**
 * Whether `actor` was authenticated from the user rows as they are now (the version is read
 * again): then authenticating its request again would give the same caller, the same rows
 * answering the same credentials and rules.
 */
export function isCurrentCaller(ctx: Ctx, actor: Actor): boolean {
  return userCache(ctx).rows.has(actor);
}

/** How many email spellings are remembered (diagnostics and tests: the memory stays bounded). */
export function rememberedEmails(ctx: Ctx): number {
  return ctx.lastCached<UserCache>('user')?.byEmail.size ?? 0;
}

/** The user row the caller was authenticated from (unless the remembered rows were read again since). */
export function authenticatedRow(ctx: Ctx, actor: Actor): UserRow | undefined {
  return ctx.lastCached<UserCache>('user')?.rows.get(actor);
}

/**
 * The domain of API emails for a request whose caller was authenticated from the remembered rows:
 * remembered with them (GET /users/me answers without reading the organization row). Computed
 * again for a caller that was not remembered.
 */
export function rememberedEmailDomain(ctx: Ctx, actor: Actor, compute: () => string): string {
  const cache = ctx.lastCached<UserCache>('user');
  if (cache === undefined || !cache.rows.has(actor)) return compute();
  return (cache.emailDomain ??= compute());
}

/**
 * The caller's own avatar URL, remembered with their row: the MD5 behind it was 2-3% of
 * GET /users/me's time under load (`npm run bench -- foundation`).
 */
export function rememberedAvatarUrl(ctx: Ctx, row: UserRow, compute: (email: string) => string): string {
  const cache = ctx.lastCached<UserCache>('user');
  if (cache === undefined) return compute(row.email);
  let url = cache.avatarUrls.get(row);
  if (url === undefined) {
    url = compute(row.email);
    cache.avatarUrls.set(row, url);
  }
  return url;
}

export function authenticate(ctx: Ctx, email: string, apiKey: string, rules: CallerRules = {}): Actor {
  if (!API_KEY_PATTERN.test(apiKey)) throw unauthorized('Malformed API key');
  const user = userByEmail(ctx, email);
  const matches = safeEqual(apiKey, user?.row.api_key ?? NO_KEY);
  if (!user || !matches) throw unauthorized('Invalid API key');
  return mayCall(user, rules);
}

/**
 * authenticate without reading the version, for a request authenticated again inside its write
 * transaction: a remembered caller with this key, allowed by the rules, passes as remembered;
 * any other request is authenticated as usual.
 */
export function authenticateRemembered(ctx: Ctx, email: string, apiKey: string, rules: CallerRules = {}): Actor {
  const user = ctx.lastCached<UserCache>('user')?.byEmail.get(email);
  if (user !== undefined && API_KEY_PATTERN.test(apiKey) && safeEqual(apiKey, user.row.api_key) && refusal(user.row, rules) === undefined) {
    return user.actor;
  }
  return authenticate(ctx, email, apiKey, rules);
}

/** The account rules after identification, the same over HTTP and in-process. */
function mayCall({ row, actor }: CachedUser, rules: CallerRules): Actor {
  const refused = refusal(row, rules);
  if (refused !== undefined) throw unauthorized(refused);
  return actor;
}

function refusal(row: UserRow, rules: CallerRules): string | undefined {
  if (row.is_active !== 1) return 'Account is deactivated';
  if (row.bot_type === INCOMING_WEBHOOK_BOT && !rules.allowIncomingWebhooks) return 'This API is not available to incoming webhook bots.';
  return undefined;
}

/** The in-process API's caller: a user id or an object with one; must be an active account, not an incoming webhook bot. */
export type ActorRef = number | { id: number };

export function resolveActor(ctx: Ctx, ref: ActorRef, rules: CallerRules = {}): Actor {
  const id = typeof ref === 'number' ? ref : ref.id;
  const user = userById(ctx, id);
  if (!user) throw unauthorized('Invalid API key');
  return mayCall(user, rules);
}

/** POST /fetch_api_key. */
export async function fetchApiKey(
  ctx: Ctx,
  input: { username: string; password: string },
): Promise<{ api_key: string; email: string; user_id: number }> {
  const user = selectUserByEmail(ctx.store, input.username.trim());
  const ok = await verifyPassword(input.password, user?.password_hash ?? null, () =>
    ctx.logger.warn('unusable password hash: the account cannot log in with a password until one is set again', { user_id: user?.id }),
  );
  if (!user || !ok) {
    throw new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  }
  if (user.is_active !== 1) throw new ApiError('USER_DEACTIVATED', 'Account is deactivated');
  return { api_key: user.api_key, email: user.email, user_id: user.id };
}

/** The caller a user row authenticates as. */
export function toActor(row: UserRow): Actor {
  return {
    id: row.id,
    email: row.email,
    fullName: row.full_name,
    role: row.role as Role,
    isBot: row.bot_type !== null,
    botType: row.bot_type,
    botOwnerId: row.bot_owner_id,
  };
}
