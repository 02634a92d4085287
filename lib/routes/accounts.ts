// The public routes of the web client's account pages (lib/accounts/): what a link is for, signing
// up (asking for a confirmation link; creating the account), password reset (asking; setting the
// new password) and confirming a new email address. parley's own endpoints, in place of Zulip's
// server-rendered pages; those that sign a browser in set its session cookie.
import { z } from 'zod';
import { confirmEmailChange } from '../accounts/email_change.js';
import { requestPasswordReset, resetPassword } from '../accounts/passwords.js';
import { describeLink, linkInfoSchema, register, requestSignUp } from '../accounts/registration.js';
import { signedInSchema } from '../accounts/sessions.js';
import { maxCodePoints, str } from '../http/params.js';
import { MAX_EMAIL_LENGTH, MAX_PASSWORD_LENGTH, MAX_TEXT_LENGTH } from './limits.js';
import { noFields, route } from './route.js';
import { checkPageOrigin, signBrowserIn } from './ways_in.js';

const key = () => str(maxCodePoints(MAX_TEXT_LENGTH)).describe("The key at the end of the link's URL");
const email = () => str(maxCodePoints(MAX_EMAIL_LENGTH));
const password = () => str(maxCodePoints(MAX_PASSWORD_LENGTH));

export const accountRoutes = {
  describeLink: route({
    method: 'POST',
    path: '/accounts/confirmation',
    access: 'public',
    summary: 'What a link sent by email is for (an invitation, a sign-up, a password reset, a new address)',
    params: { key: key() },
    response: linkInfoSchema,
    errors: ['INVALID_CONFIRMATION_LINK'],
    handler: (ctx, _caller, p) => describeLink(ctx, p),
  }),
  signUp: route({
    method: 'POST',
    path: '/accounts/signup',
    access: 'public',
    summary: "Ask for the link that confirms an address: a reusable invitation link's joiner, or anyone when sign-up is open",
    params: {
      email: email(),
      key: key().optional().describe("The reusable invitation link's key"),
    },
    response: noFields,
    errors: ['BAD_REQUEST', 'INVALID_CONFIRMATION_LINK', 'RATE_LIMIT_HIT', 'CSRF_FAILED'],
    handler: (ctx, _caller, p, request) => {
      checkPageOrigin(ctx, request);
      return requestSignUp(ctx, p, request.ip);
    },
  }),
  register: route({
    method: 'POST',
    path: '/accounts/register',
    access: 'public',
    summary: "Create the account of an invitation's or a confirmed address's link, signed in (a session cookie)",
    params: {
      key: key(),
      fullName: str(maxCodePoints(MAX_TEXT_LENGTH)),
      password: password(),
    },
    response: signedInSchema,
    errors: ['BAD_REQUEST', 'INVALID_CONFIRMATION_LINK', 'CSRF_FAILED'],
    asynchronous: true,
    handler: (ctx, _caller, p, request) => signBrowserIn(ctx, request, () => register(ctx, p, request.userAgent)),
  }),
  requestPasswordReset: route({
    method: 'POST',
    path: '/accounts/password/reset',
    access: 'public',
    summary: 'Ask for a password reset link (the same answer for any address)',
    params: { email: email() },
    response: noFields,
    errors: ['BAD_REQUEST', 'RATE_LIMIT_HIT', 'CSRF_FAILED'],
    handler: (ctx, _caller, p, request) => {
      checkPageOrigin(ctx, request);
      return requestPasswordReset(ctx, p, request.ip);
    },
  }),
  resetPassword: route({
    method: 'POST',
    path: '/accounts/password/set',
    access: 'public',
    summary: "A reset link's new password: every web session ends and this browser is signed in",
    params: { key: key(), newPassword: password() },
    response: signedInSchema,
    errors: ['BAD_REQUEST', 'INVALID_CONFIRMATION_LINK', 'CSRF_FAILED'],
    asynchronous: true,
    handler: (ctx, _caller, p, request) => signBrowserIn(ctx, request, () => resetPassword(ctx, p, request.userAgent)),
  }),
  confirmEmail: route({
    method: 'POST',
    path: '/accounts/email/confirm',
    access: 'public',
    summary: "Follow a new address's confirmation link: the account's email changes",
    params: { key: key() },
    response: z.object({ email: z.string() }),
    errors: ['BAD_REQUEST', 'INVALID_CONFIRMATION_LINK', 'CSRF_FAILED'],
    handler: (ctx, _caller, p, request) => {
      checkPageOrigin(ctx, request);
      return confirmEmailChange(ctx, p);
    },
  }),
};
