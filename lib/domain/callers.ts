// Who is calling: the one Caller every way in produces (HTTP Basic, the in-process API, and those
// to come), and the one cache of the user rows callers are made from, kept until the 'user' cache
// version changes.
import type { Ctx } from '../context.js';
import { ApiError, unauthorized } from '../errors.js';
import { selectUserByApiKey, selectUserByEmail, selectUserById, type UserRow } from '../store/users.js';
import { apiKeyWellFormed, checkApiKey, refusal, type CallerRules } from './auth.js';
import type { Actor, Role } from './roles.js';

/**
 * How a request proves who is calling. Each way in reads its own (lib/routes/ways_in.ts); a new
 * way in adds a kind here and a case to `find`.
 */
export type Credential =
  /** Zulip's email and API key: HTTP Basic (Zulip's validate_api_key). */
  | { readonly kind: 'apiKey'; readonly email: string; readonly apiKey: string }
  /** An API key alone: an incoming webhook's `api_key` parameter (Zulip's webhook_view). */
  | { readonly kind: 'webhookKey'; readonly apiKey: string }
  /** A user the host application vouches for: the in-process API. */
  | { readonly kind: 'trusted'; readonly userId: number }
  /** The web client's session cookie (lib/accounts/sessions.ts), already found unexpired: its user and row id. */
  | { readonly kind: 'session'; readonly userId: number; readonly sessionId: number }
  /**
   * The embedding application's `authenticate(request)` hook (options.authenticate): the user it
   * names, and whether it meant a bot (a bot is refused unless it did).
   */
  | { readonly kind: 'host'; readonly userId: number; readonly bot: boolean };

export interface Caller {
  /** Who is calling, as domain functions take it; one frozen object per user row. */
  readonly actor: Actor;
  /** The row the caller was authenticated from: Zulip's request.user (GET /users/me answers with it). */
  readonly row: UserRow;
  /** The 'user' cache version the row was read under (lib/store/cache_version.ts). */
  readonly version: number;
  /** What the request proved itself with: checked again when the version has changed (`confirm`). */
  readonly credential: Credential;
}

// Every request starts from its caller's user row. The rows read are kept until a change to the
// user table or the organization URL, by any process, gives them a new version. A request is
// authenticated against the rows this process last read, without reading the version, and
// confirmed before its route runs (lib/routes/run.ts): one version read, inside the write
// transaction of a transactional route; when the version has changed, it is authenticated again.
// Rows are only added to rows whose version was read in the same snapshot, so a row read inside a
// transaction that rolls back is never kept under a version another commit can reach. Misses are
// not kept, so unknown emails cannot fill the memory.
interface Known {
  row: UserRow;
  actor: Actor;
}

class UserRows {
  readonly byEmail = new Map<string, Known>();
  /** By API key (incoming webhooks): a key that stops working gives the user table a new version. */
  readonly byKey = new Map<string, Known>();
  readonly byId = new Map<number, Known>();
  /** The domain of API emails, from the organization URL (whose changes give a new version too). */
  emailDomain: string | undefined;
  /** The own avatar URL of each row's user (an MD5 of the email). */
  readonly avatarUrls = new WeakMap<UserRow, string>();
  constructor(readonly version: number) {}
}

const MAX_CACHED_USERS = 10_000;

/** A way in that names a user id which is not (or, for the host's hook, not meant to be) an account. */
const NOT_AN_ACCOUNT = 'Not logged in: API authentication or user session required';

/** The rows this process last read, per server. */
const LAST = Symbol('parley.lastUserRows');
const lastRead = (ctx: Ctx): { rows: UserRows | undefined } => ctx.once(LAST, () => ({ rows: undefined }));

/** The rows as of the version in the database now: the one version check (ctx.cached's point read). */
function currentRows(ctx: Ctx): UserRows {
  const rows = ctx.cached<UserRows>('user', (_previous, version) => new UserRows(version));
  lastRead(ctx).rows = rows;
  return rows;
}

/** The map a credential's user is kept under, and its key there. */
function slotOf(rows: UserRows, credential: Credential): [Map<string | number, Known>, string | number] {
  if (credential.kind === 'apiKey') return [rows.byEmail, credential.email];
  if (credential.kind === 'webhookKey') return [rows.byKey, credential.apiKey];
  return [rows.byId, credential.userId];
}

const kept = (rows: UserRows, credential: Credential): Known | undefined => {
  const [slot, key] = slotOf(rows, credential);
  return slot.get(key);
};

function readRow(ctx: Ctx, credential: Credential): UserRow | undefined {
  if (credential.kind === 'apiKey') return selectUserByEmail(ctx.store, credential.email);
  if (credential.kind === 'webhookKey') return selectUserByApiKey(ctx.store, credential.apiKey);
  return selectUserById(ctx.store, credential.userId);
}

/** A user by email, API key or id: known, or read and kept under that key and its id. */
function find(ctx: Ctx, rows: UserRows, credential: Credential): Known | undefined {
  // Full (one user under many spellings of its email counts once per spelling): start again.
  if (rows.byEmail.size + rows.byKey.size >= MAX_CACHED_USERS || rows.byId.size >= MAX_CACHED_USERS) {
    rows.byEmail.clear();
    rows.byKey.clear();
    rows.byId.clear();
  }
  const hit = kept(rows, credential);
  if (hit !== undefined) return hit;
  const row = readRow(ctx, credential);
  if (row === undefined) return undefined;
  let known = rows.byId.get(row.id);
  if (known === undefined) {
    known = { row, actor: Object.freeze(toActor(row)) };
    rows.byId.set(row.id, known);
  }
  const [slot, key] = slotOf(rows, credential);
  slot.set(key, known);
  return known;
}

/** The credentials that present an API key (HTTP Basic's, a webhook URL's). */
const hasKey = (credential: Credential): credential is Extract<Credential, { apiKey: string }> => credential.kind === 'apiKey' || credential.kind === 'webhookKey';

/**
 * Why a credential is refused: HTTP Basic's 401 UNAUTHORIZED (Zulip's REST authentication turns
 * every refusal into it), or for a webhook's `api_key` the errors Zulip's webhook_view lets through
 * as they are (InvalidAPIKeyError, InvalidAPIKeyFormatError, UserDeactivatedError).
 */
function refused(credential: Credential, msg: string): ApiError {
  if (credential.kind !== 'webhookKey') return unauthorized(msg);
  return new ApiError(msg === 'Account is deactivated' ? 'USER_DEACTIVATED' : 'INVALID_API_KEY', msg);
}

/** The caller `known` is, if the credential and the account rules let it pass; throws the 401 otherwise. */
function admit(known: Known | undefined, rows: UserRows, credential: Credential, rules: CallerRules): Caller {
  // The key found by its own value is compared too: a miss costs the same as a wrong key.
  if (hasKey(credential) && !checkApiKey(credential.apiKey, known?.row)) throw refused(credential, 'Invalid API key');
  if (credential.kind === 'host' && (known === undefined || (known.row.bot_type !== null && !credential.bot))) {
    throw unauthorized(NOT_AN_ACCOUNT);
  }
  if (known === undefined) throw refused(credential, credential.kind === 'session' ? NOT_AN_ACCOUNT : 'Invalid API key');
  const refusedWhy = refusal(known.row, rules);
  if (refusedWhy !== undefined) throw refused(credential, refusedWhy);
  return { actor: known.actor, row: known.row, version: rows.version, credential };
}

/**
 * The caller a credential proves, from the rows this process last read when they hold it and let
 * it pass (no read), else from the rows as they are now. To be confirmed before the route runs
 * (`confirm`).
 */
export function authenticate(ctx: Ctx, credential: Credential, rules: CallerRules): Caller {
  if (hasKey(credential) && !apiKeyWellFormed(credential.apiKey)) throw refused(credential, 'Malformed API key');
  const last = lastRead(ctx).rows;
  const known = last && kept(last, credential);
  if (last !== undefined && known !== undefined) {
    try {
      return admit(known, last, credential, rules);
    } catch {
      // The rows last read may be out of date: a caller is refused only as they are now.
    }
  }
  const rows = currentRows(ctx);
  return admit(find(ctx, rows, credential), rows, credential, rules);
}

/** The caller as of now: the same when the user rows have not changed since, else authenticated again. */
export function confirm(ctx: Ctx, caller: Caller, rules: CallerRules): Caller {
  const rows = currentRows(ctx);
  if (rows.version === caller.version) return caller;
  return admit(find(ctx, rows, caller.credential), rows, caller.credential, rules);
}

/**
 * A user's row by id from the kept rows as of now (read and kept on a miss): checking the version
 * costs less than reading the row, whose many columns make a wide object.
 */
export function userRowById(ctx: Ctx, id: number): UserRow | undefined {
  const rows = currentRows(ctx);
  return find(ctx, rows, { kind: 'trusted', userId: id })?.row;
}

/** How many email spellings and webhook keys are kept (diagnostics and tests: the memory stays bounded). */
export function rememberedEmails(ctx: Ctx): number {
  const rows = lastRead(ctx).rows;
  return (rows?.byEmail.size ?? 0) + (rows?.byKey.size ?? 0);
}

/**
 * The domain of API emails for the caller's request, kept with the rows it was authenticated
 * from (GET /users/me answers without reading the organization row).
 */
export function callerEmailDomain(ctx: Ctx, caller: Caller, compute: () => string): string {
  const rows = lastRead(ctx).rows;
  if (rows === undefined || rows.version !== caller.version) return compute();
  return (rows.emailDomain ??= compute());
}

/**
 * The caller's own avatar URL, kept with their row: the MD5 behind it was 2-3% of
 * GET /users/me's time under load (`npm run bench -- foundation`).
 */
export function callerAvatarUrl(ctx: Ctx, caller: Caller, compute: (email: string) => string): string {
  const rows = lastRead(ctx).rows;
  if (rows === undefined || rows.version !== caller.version) return compute(caller.row.email);
  let url = rows.avatarUrls.get(caller.row);
  if (url === undefined) {
    url = compute(caller.row.email);
    rows.avatarUrls.set(caller.row, url);
  }
  return url;
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
