// The web client's sessions (lib/accounts/sessions.ts): POST /sessions (sign in with email and
// password: a session cookie, no API key), GET /sessions, DELETE /sessions/{session_id}, DELETE
// /sessions/current (sign out). parley's own endpoints: Zulip's web app signs in through its login
// page and keeps a Django session.
import { endCurrentSession, endSession, listSessions, sessionListSchema, signedInSchema, signIn } from '../accounts/sessions.js';
import { pathInt } from '../http/params.js';
import { noFields, route } from './route.js';
import { passwordLoginParams } from './server.js';
import { clearSessionCookie, signBrowserIn } from './ways_in.js';

export const sessionRoutes = {
  signIn: route({
    method: 'POST',
    path: '/sessions',
    access: 'public',
    passwordLogin: { accountParam: 'username' },
    summary: 'Sign the web client in with an email and password: a session cookie (HttpOnly), not the API key',
    params: passwordLoginParams,
    response: signedInSchema,
    errors: ['AUTHENTICATION_FAILED', 'USER_DEACTIVATED', 'RATE_LIMIT_HIT', 'CSRF_FAILED'],
    asynchronous: true,
    handler: (ctx, _caller, p, request) => signBrowserIn(ctx, request, () => signIn(ctx, p, request.userAgent)),
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
