// The web client's sessions (DESIGN.md "one Caller"): the web client holds no API key but an
// HttpOnly cookie, made when it signs in (POST /sessions; also by a sign-up or a password reset),
// found by the session way in on each request (lib/routes/ways_in.ts), listed (GET /sessions)
// and ended (DELETE /sessions/{id}, DELETE /sessions/current at sign-out), and all ended when the
// account is deactivated or its password reset (the others when it is changed), as Zulip's
// Django sessions end.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import { ApiError, badRequest } from '../errors.js';
import {
  deleteExpiredWebSessions,
  deleteWebSession,
  deleteWebSessionsOfUser,
  insertWebSession,
  selectWebSessionByTokenHash,
  selectWebSessionsOfUser,
  touchWebSession,
} from '../store/web_sessions.js';
import type { Caller } from '../domain/callers.js';
import { passwordAccount } from '../domain/auth.js';
import type { Actor } from '../domain/roles.js';
import { isSecretShaped, newSecret, secretHash } from './tokens.js';

/** The cookie's name. */
export const SESSION_COOKIE = 'parley_session';

/** How long a session lasts: Zulip's SESSION_COOKIE_AGE, two weeks. */
export const SESSION_SECONDS = 14 * 24 * 60 * 60;

/** last_used_at is brought forward at most this often: a read request writes once a minute at most. */
const TOUCH_SECONDS = 60;

/** The longest User-Agent kept with a session. */
const MAX_USER_AGENT = 256;

export const sessionSchema = z.object({
  id: z.int(),
  /** Unix seconds. */
  created: z.int(),
  last_used: z.int(),
  expires: z.int(),
  user_agent: z.string(),
  /** The session this request came with. */
  current: z.boolean(),
});
export const sessionListSchema = z.object({ sessions: z.array(sessionSchema) });
export const signedInSchema = z.object({ user_id: z.int(), email: z.string(), session_id: z.int() });
export type SignedIn = z.infer<typeof signedInSchema>;

/** A new session and the cookie value that proves it. */
export interface OpenedSession {
  id: number;
  token: string;
  maxAge: number;
}

/** Opens a session for `userId` (in the caller's transaction, or its own). */
export function openSession(ctx: Ctx, userId: number, userAgent: string): OpenedSession {
  return ctx.tx(() => {
    const now = ctx.now();
    deleteExpiredWebSessions(ctx.store, now);
    const token = newSecret(ctx);
    const id = insertWebSession(ctx.store, {
      user_id: userId,
      token_hash: secretHash(token),
      created_at: now,
      last_used_at: now,
      expires_at: now + SESSION_SECONDS,
      user_agent: [...userAgent].slice(0, MAX_USER_AGENT).join(''),
    });
    return { id, token, maxAge: SESSION_SECONDS };
  });
}

/**
 * The unexpired session a cookie value proves, if any (the session way in). A session used after
 * a minute's rest is marked used now.
 */
export function sessionOfToken(ctx: Ctx, token: string): { userId: number; sessionId: number } | undefined {
  if (!isSecretShaped(token)) return undefined;
  const row = selectWebSessionByTokenHash(ctx.store, secretHash(token));
  const now = ctx.now();
  if (row === undefined || row.expires_at <= now) return undefined;
  if (now - row.last_used_at >= TOUCH_SECONDS) {
    try {
      touchWebSession(ctx.store, row.id, now);
    } catch {
      // Another process holds the write lock: the session is marked used on a later request.
    }
  }
  return { userId: row.user_id, sessionId: row.id };
}

/**
 * POST /sessions: the web client signs in with an email and password (POST /fetch_api_key's
 * checks and answers), and gets a session instead of the API key.
 */
export async function signIn(ctx: Ctx, input: { username: string; password: string }, userAgent: string): Promise<SignedIn & { opened: OpenedSession }> {
  const user = await passwordAccount(ctx, input.username, input.password);
  // A bot has no password to sign in with; should one have been set, it still gets no session.
  if (user.bot_type !== null) throw new ApiError('AUTHENTICATION_FAILED', 'Your username or password is incorrect');
  const opened = openSession(ctx, user.id, userAgent);
  return { user_id: user.id, email: user.email, session_id: opened.id, opened };
}

/** GET /sessions: the caller's sessions, oldest first. */
export function listSessions(ctx: Ctx, caller: Caller): z.infer<typeof sessionListSchema> {
  const current = caller.credential.kind === 'session' ? caller.credential.sessionId : null;
  const now = ctx.now();
  const sessions = selectWebSessionsOfUser(ctx.store, caller.actor.id)
    .filter((row) => row.expires_at > now)
    .map((row) => ({
      id: row.id,
      created: row.created_at,
      last_used: row.last_used_at,
      expires: row.expires_at,
      user_agent: row.user_agent,
      current: row.id === current,
    }));
  return { sessions };
}

/** DELETE /sessions/{session_id}: ends one of the caller's sessions (another browser's, or this one). */
export function endSession(ctx: Ctx, actor: Actor, input: { sessionId: number }): Record<string, never> {
  return ctx.tx(() => {
    if (!deleteWebSession(ctx.store, actor.id, input.sessionId)) throw badRequest('No such session');
    return {};
  });
}

/** DELETE /sessions/current: signing out ends the session the request came with (none: nothing to end). */
export function endCurrentSession(ctx: Ctx, caller: Caller): Record<string, never> {
  if (caller.credential.kind !== 'session') return {};
  return endSession(ctx, caller.actor, { sessionId: caller.credential.sessionId });
}

/** Ends a user's sessions but `keepId` (in the caller's transaction): deactivation, a new password. */
export function endSessionsOf(ctx: Ctx, userId: number, keepId: number | null = null): void {
  deleteWebSessionsOfUser(ctx.store, userId, keepId);
}
