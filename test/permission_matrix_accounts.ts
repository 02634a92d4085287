// The permission matrix's entries for the ways in and accounts: web sessions, invitations and the
// public account pages' routes (test/permission_matrix.ts spreads them in). Links are made the way
// their emails would carry them (lib/accounts/links.ts), since the matrix reads no mail.
import { contextOf } from '../lib/context.js';
import { makeLink, type NewLink } from '../lib/accounts/links.js';
import { openSession } from '../lib/accounts/sessions.js';
import type { TestUser } from './helpers.js';
import type { Env, Expectations, Expected, MatrixEntry } from './permission_matrix.js';

const bad = (msg: string): Expected => ({ status: 400, code: 'BAD_REQUEST', msg });
const NO_BOTS = bad('This endpoint does not accept bot requests.');
const NO_GUESTS = bad('Not allowed for guest users');
const NOT_ADMIN = bad('Must be an organization administrator');

const everyone: Expectations = { owner: 'ok', admin: 'ok', moderator: 'ok', member: 'ok', guest: 'ok', bot: 'ok' };
/** Zulip's @require_member_or_admin: guests, then bots. */
const membersAndUp: Expectations = { ...everyone, guest: NO_GUESTS, bot: NO_BOTS };
/** Managing another's invitation: administrators (the owner's invitations here). */
const inviteAdmins = (refusal: Expected): Expectations => ({ ...membersAndUp, moderator: refusal, member: refusal });

function link(env: Env, link: NewLink): string {
  const ctx = contextOf(env.s.chat);
  return ctx.tx(() => makeLink(ctx, link));
}

/** An email invitation by the owner; its id and a link to it. */
function ownerInvitation(env: Env): { id: number; key: string } {
  const email = `${env.unique('invitee')}@example.com`;
  env.s.chat.api.invites.send(env.s.owner.user_id, { inviteeEmails: email, streamIds: [] });
  const { id } = env.s.chat.api.invites.list(env.s.owner.user_id).invites.find((invite) => invite.email === email)!;
  return { id, key: link(env, { kind: 'invitation', email, invitationId: id, expiresAt: null }) };
}

function ownerInviteLink(env: Env): { id: number; key: string } {
  const url = env.s.chat.api.invites.createLink(env.s.owner.user_id).invite_link;
  const ids = env.s.chat.api.invites.list(env.s.owner.user_id).invites.filter((invite) => invite.is_multiuse).map((invite) => invite.id);
  return { id: Math.max(...ids), key: url.slice(url.lastIndexOf('/') + 1) };
}

function sessionOf(env: Env, caller: TestUser): number {
  return openSession(contextOf(env.s.chat), caller.user_id, 'matrix').id;
}

export const ACCOUNT_MATRIX: Record<string, MatrixEntry> = {
  'POST /sessions': { request: (env) => ({ path: '/sessions', params: { username: env.s.owner.email, password: 'owner-password' } }), expect: everyone },
  'GET /sessions': { request: () => ({ path: '/sessions' }), expect: { ...everyone, bot: NO_BOTS } },
  'DELETE /sessions/:session_id': { request: (env, caller) => ({ path: `/sessions/${sessionOf(env, caller)}` }), expect: { ...everyone, bot: NO_BOTS } },
  // With an API key there is no session to end: signing out is a success that ends nothing.
  'DELETE /sessions/current': { request: () => ({ path: '/sessions/current' }), expect: everyone },
  'POST /invites': {
    request: (env) => ({ path: '/invites', params: { invitee_emails: `${env.unique('new')}@example.com`, stream_ids: [] } }),
    expect: membersAndUp,
  },
  'GET /invites': { request: () => ({ path: '/invites' }), expect: membersAndUp },
  'DELETE /invites/:invite_id': { request: (env) => ({ path: `/invites/${ownerInvitation(env).id}` }), expect: inviteAdmins(NOT_ADMIN) },
  'POST /invites/:invite_id/resend': { request: (env) => ({ path: `/invites/${ownerInvitation(env).id}/resend` }), expect: inviteAdmins(NOT_ADMIN) },
  // Zulip's can_create_multiuse_invite_group: administrators by default.
  'POST /invites/multiuse': { request: () => ({ path: '/invites/multiuse' }), expect: inviteAdmins(bad('Insufficient permission')) },
  'DELETE /invites/multiuse/:invite_id': { request: (env) => ({ path: `/invites/multiuse/${ownerInviteLink(env).id}` }), expect: inviteAdmins(NOT_ADMIN) },
  // The public pages' routes: no credentials are read; a link's key is the permission.
  'POST /accounts/confirmation': { request: (env) => ({ path: '/accounts/confirmation', params: { key: ownerInvitation(env).key } }), expect: everyone },
  'POST /accounts/signup': {
    request: (env) => ({ path: '/accounts/signup', params: { email: `${env.unique('joiner')}@example.com`, key: ownerInviteLink(env).key } }),
    expect: everyone,
  },
  'POST /accounts/register': {
    request: (env) => ({ path: '/accounts/register', params: { key: ownerInvitation(env).key, full_name: 'New Member', password: 'a-good-password' } }),
    expect: everyone,
  },
  'POST /accounts/password/reset': { request: (env) => ({ path: '/accounts/password/reset', params: { email: `${env.unique('forgot')}@example.com` } }), expect: everyone },
  'POST /accounts/password/set': {
    request: async (env) => {
      const target = await env.target();
      const key = link(env, { kind: 'password_reset', email: target.email, userId: target.user_id, expiresAt: null });
      return { path: '/accounts/password/set', params: { key, new_password: 'a-new-password' } };
    },
    expect: everyone,
  },
  'POST /accounts/email/confirm': {
    request: async (env) => {
      const target = await env.target();
      const key = link(env, { kind: 'email_change', email: `${env.unique('moved')}@example.com`, userId: target.user_id, expiresAt: null });
      return { path: '/accounts/email/confirm', params: { key } };
    },
    expect: everyone,
  },
};
