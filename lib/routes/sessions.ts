// The web client's sessions (lib/accounts/sessions.ts): POST /sessions (sign in with email and
// password: a session cookie, no API key), GET /sessions, DELETE /sessions/{session_id}, DELETE
// /sessions/current (sign out). parley's own endpoints: Zulip's web app signs in through its login
// page and keeps a Django session.
import { endCurrentSession, endSession, listSessions, sessionListSchema, signedInSchema, signIn } from '../accounts/sessions.js';
import { maxCodePoints, pathInt, str } from '../http/params.js';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH } from './limits.js';
import { noFields, route } from './route.js';
import { checkSignInOrigin, clearSessionCookie, setSessionCookie } from './ways_in.js';

export const sessionRoutes = {
  signIn: route({
    method: 'POST',
    path: '/sessions',
    access: 'public',
    passwordLogin: { accountParam: 'username' },
    summary: 'Sign the web client in with an email and password: a session cookie (HttpOnly), not the API key',
    params: {
      username: str(maxCodePoints(MAX_EMAIL_LENGTH)).describe('The account email'),
      password: str(maxCodePoints(MAX_PASSWORD_LENGTH)).describe('The account password'),
    },
    response: signedInSchema,
    errors: ['AUTHENTICATION_FAILED', 'USER_DEACTIVATED', 'RATE_LIMIT_HIT', 'CSRF_FAILED'],
    handler: async (ctx, _caller, p, request) => {
      checkSignInOrigin(ctx, request);
      const { opened, ...signedIn } = await signIn(ctx, p, request.userAgent);
      setSessionCookie(ctx, request, opened);
      return signedIn;
    },
  }),
  list: route({
    method: 'GET',
    path: '/sessions',
    access: 'human',
    summary: "The caller's web sessions (`current`: the one this request came with)",
    params: {},
    response: sessionListSchema,
    handler: (ctx, caller) => listSessions(ctx, caller),
  }),
  end: route({
    method: 'DELETE',
    path: '/sessions/:session_id',
    transactional: true,
    access: 'human',
    summary: "End one of the caller's web sessions: that browser is signed out",
    params: { sessionId: pathInt() },
    response: noFields,
    errors: ['BAD_REQUEST'],
    handler: (ctx, { actor }, p) => endSession(ctx, actor, p),
  }),
  signOut: route({
    method: 'DELETE',
    path: '/sessions/current',
    transactional: true,
    access: 'user',
    summary: 'Sign out: the session this request came with ends, and the browser forgets its cookie',
    params: {},
    response: noFields,
    handler: (ctx, caller, _p, request) => {
      clearSessionCookie(ctx, request);
      return endCurrentSession(ctx, caller);
    },
  }),
};
