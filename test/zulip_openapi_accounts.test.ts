// Conformance of the ways in and accounts: every route of the sessions, invites and accounts
// groups answered with a success and an error, each answer checked against parley's OpenAPI
// document and, for Zulip's /invites endpoints, against Zulip's (feature level 420).
import t from 'tap';
import { contextOf } from '../lib/context.js';
import { makeLink } from '../lib/accounts/links.js';
import { ACCOUNT_GROUPS, conformance } from './conformance.js';
import { startServer } from './helpers.js';
import { withCookie } from './session_helpers.js';

const s = await startServer({ email: { send: async () => undefined }, accounts: { emailsPerClientAddressPerDay: 0 } });
t.teardown(() => s.close());
const api = conformance(s);
const member = await s.user('member', { password: 'member-password' });
const ctx = contextOf(s.chat);
const link = (kind: Parameters<typeof makeLink>[1]['kind'], email: string, extra: { invitationId?: number; userId?: number } = {}) =>
  ctx.tx(() => makeLink(ctx, { kind, email, expiresAt: null, ...extra }));

t.test('sessions', async (t) => {
  const signedIn = await api.call(t, 'POST', '/sessions', { params: { username: member.email, password: 'member-password' } }, 200);
  await api.call(t, 'POST', '/sessions', { params: { username: member.email, password: 'wrong-password' } }, 401);
  const cookie = signedIn.headers.get('set-cookie')!.split(';')[0]!;
  await api.call(t, 'GET', '/sessions', { headers: withCookie(cookie) }, 200);
  await api.call(t, 'GET', '/sessions', {}, 401);
  const other = (await s.request('POST', '/sessions', { params: { username: member.email, password: 'member-password' } })).body.session_id as number;
  await api.call(t, 'DELETE', `/sessions/${other}`, { headers: withCookie(cookie) }, 200);
  await api.call(t, 'DELETE', `/sessions/${other}`, { headers: withCookie(cookie) }, 400);
  await api.call(t, 'DELETE', '/sessions/current', { headers: withCookie(cookie) }, 200);
  await api.call(t, 'DELETE', '/sessions/current', {}, 401);
});

t.test('invites', async (t) => {
  await api.call(t, 'POST', '/invites', { as: s.owner, params: { invitee_emails: 'new1@example.com, new2@example.com', stream_ids: [] } }, 200);
  await api.call(t, 'POST', '/invites', { as: s.owner, params: { invitee_emails: `${member.email}, new3@example.com`, stream_ids: [] } }, 400);
  await api.call(t, 'POST', '/invites', { as: s.owner, params: { invitee_emails: '', stream_ids: [] } }, 400);
  const listed = await api.call(t, 'GET', '/invites', { as: s.owner }, 200);
  await api.call(t, 'GET', '/invites', { as: await s.user('guest') }, 400);
  const [first, second] = listed.body.invites as { id: number }[];
  await api.call(t, 'POST', `/invites/${first!.id}/resend`, { as: s.owner }, 200);
  await api.call(t, 'POST', '/invites/99999/resend', { as: s.owner }, 400);
  await api.call(t, 'DELETE', `/invites/${second!.id}`, { as: s.owner }, 200);
  await api.call(t, 'DELETE', `/invites/${second!.id}`, { as: s.owner }, 400);
  await api.call(t, 'POST', '/invites/multiuse', { as: s.owner, params: { invite_as: 600, invite_expires_in_minutes: null } }, 200);
  await api.call(t, 'POST', '/invites/multiuse', { as: member }, 400);
  const multiuse = ((await s.request('GET', '/invites', { as: s.owner })).body.invites as { id: number; is_multiuse: boolean }[]).find((i) => i.is_multiuse)!;
  await api.call(t, 'GET', '/invites', { as: s.owner }, 200);
  await api.call(t, 'DELETE', `/invites/multiuse/${multiuse.id}`, { as: s.owner }, 200);
  await api.call(t, 'DELETE', `/invites/multiuse/${multiuse.id}`, { as: s.owner }, 400);
});

t.test('accounts', async (t) => {
  await s.request('POST', '/invites', { as: s.owner, params: { invitee_emails: 'joiner@example.com', stream_ids: [] } });
  const invitation = s.chat.api.invites.list(s.owner.user_id).invites.find((i) => i.email === 'joiner@example.com')!;
  const invited = link('invitation', 'joiner@example.com', { invitationId: invitation.id });
  await api.call(t, 'POST', '/accounts/confirmation', { params: { key: invited } }, 200);
  await api.call(t, 'POST', '/accounts/confirmation', { params: { key: 'x'.repeat(43) } }, 400);
  const linkUrl = s.chat.api.invites.createLink(s.owner.user_id).invite_link;
  await api.call(t, 'POST', '/accounts/signup', { params: { email: 'via-link@example.com', key: linkUrl.slice(linkUrl.lastIndexOf('/') + 1) } }, 200);
  await api.call(t, 'POST', '/accounts/signup', { params: { email: 'anyone@example.com' } }, 400);
  await api.call(t, 'POST', '/accounts/register', { params: { key: invited, full_name: 'Joan Joiner', password: 'joiner-password' } }, 200);
  await api.call(t, 'POST', '/accounts/register', { params: { key: invited, full_name: 'Joan Joiner', password: 'joiner-password' } }, 400);
  await api.call(t, 'POST', '/accounts/password/reset', { params: { email: member.email } }, 200);
  await api.call(t, 'POST', '/accounts/password/reset', { params: { email: 'nonsense' } }, 400);
  const reset = link('password_reset', member.email, { userId: member.user_id });
  await api.call(t, 'POST', '/accounts/password/set', { params: { key: reset, new_password: 'another-password' } }, 200);
  await api.call(t, 'POST', '/accounts/password/set', { params: { key: reset, new_password: 'another-password' } }, 400);
  const moved = link('email_change', 'moved@example.com', { userId: member.user_id });
  await api.call(t, 'POST', '/accounts/email/confirm', { params: { key: moved } }, 200);
  await api.call(t, 'POST', '/accounts/email/confirm', { params: { key: moved } }, 400);
});

t.test('every route of these groups was checked', async (t) => {
  api.assertCovered(t, ACCOUNT_GROUPS);
});
