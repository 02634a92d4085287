// Account recovery (issue 33): a reset request answers the same for any address (one without an
// account gets at most an email saying so), its link works once for 24 hours, the new password
// ends every web session (the API key stays, as in Zulip), and requests are limited per address,
// per account and per client address. Also a password change ending the other sessions, and an
// administrator's set-password and reset email.
import t, { type Test } from 'tap';
import { bad, isError } from './assertions.js';
import { keyOf, linkIn, mailServer, type MailServer } from './accounts_helpers.js';
import { signIn, withCookie } from './session_helpers.js';
import { startServer } from './helpers.js';
import { manualTime } from './manual_time.js';

async function world(t: Test, extra: Parameters<typeof mailServer>[1] = {}): Promise<MailServer> {
  return mailServer(t, { realm: { name: 'Acme', url: 'https://chat.acme.test' }, ...extra });
}

const ask = (m: MailServer, email: string) => m.s.request('POST', '/accounts/password/reset', { params: { email } });
const setNew = (m: MailServer, key: string, password: string) => m.s.request('POST', '/accounts/password/set', { params: { key, new_password: password } });
const SAME = { result: 'success', msg: '' };
const RATE = { status: 429, code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' };

t.test('a reset request answers the same for an account, an unknown address and a deactivated account', async (t) => {
  const m = await world(t);
  const gone = await m.s.user('member', { email: 'gone@acme.test', password: 'gone-password' });
  m.s.chat.admin.deactivateUser(gone.user_id);
  for (const address of ['owner@example.com', 'nobody@acme.test', 'gone@acme.test']) {
    const reply = await ask(m, address);
    t.same([reply.status, reply.body], [200, SAME], address);
  }
  const reset = await m.mailTo('owner@example.com');
  t.equal(reset.parsed.subject, 'Reset your password for Acme');
  t.match(linkIn(reset), /^https:\/\/chat\.acme\.test\/accounts\/password\/reset\/[A-Za-z0-9_-]{43}$/);
  for (const address of ['nobody@acme.test', 'gone@acme.test']) {
    const mail = await m.mailTo(address);
    t.match(mail.parsed.text, new RegExp(`requested a password reset email for ${address} on https://chat.acme.test, but you do not have an active account`));
    t.notMatch(mail.parsed.text, /\/accounts\/password\/reset\//, 'no link');
  }
  isError(t, await ask(m, 'not an address'), bad('Enter a valid email address.'));
});

t.test('the link sets a new password once: the old one is refused, every web session ends, the API key stays', async (t) => {
  const m = await world(t);
  const before = await signIn(m.s, 'owner@example.com', 'owner-password');
  await ask(m, 'owner@example.com');
  const key = keyOf(linkIn(await m.mailTo('owner@example.com')));
  t.match((await m.s.request('POST', '/accounts/confirmation', { params: { key } })).body, { kind: 'password_reset', email: 'owner@example.com' });
  isError(t, await setNew(m, key, 'short'), bad('The password is too weak.'));
  const done = await setNew(m, key, 'brand-new-password');
  t.equal(done.status, 200);
  t.match(done.body, { user_id: m.s.owner.user_id, email: 'owner@example.com', session_id: Number });
  t.match(done.headers.get('set-cookie'), /^parley_session=[A-Za-z0-9_-]{43};/, 'this browser is signed in');
  const fresh = done.headers.get('set-cookie')!.split(';')[0]!;
  t.equal((await m.s.request('GET', '/users/me', { headers: withCookie(fresh) })).status, 200);
  isError(t, await m.s.request('GET', '/users/me', { headers: withCookie(before.cookie) }), { status: 401, code: 'UNAUTHORIZED', msg: 'Missing authorization header for basic auth' }, 'the earlier session ended');
  isError(t, await m.s.request('POST', '/sessions', { params: { username: 'owner@example.com', password: 'owner-password' } }), { status: 401, code: 'AUTHENTICATION_FAILED', msg: 'Your username or password is incorrect' }, 'the old password');
  t.equal((await m.s.request('POST', '/sessions', { params: { username: 'owner@example.com', password: 'brand-new-password' } })).status, 200, 'the new one');
  t.equal((await m.s.request('GET', '/users/me', { as: m.s.owner })).status, 200, 'the API key is kept, as in Zulip');
  isError(t, await setNew(m, key, 'another-password'), { status: 400, code: 'INVALID_CONFIRMATION_LINK', msg: 'This link has already been used.', extra: { reason: 'used' } });
});

t.test('a new password ends the pending reset links; a link expires after 24 hours', async (t) => {
  const time = manualTime();
  const m = await world(t, { clock: time.clock, timers: time.timers });
  await ask(m, 'owner@example.com');
  const first = keyOf(linkIn(await m.mailTo('owner@example.com')));
  await ask(m, 'owner@example.com');
  const second = keyOf(linkIn(await m.mailTo('owner@example.com')));
  t.equal((await setNew(m, second, 'brand-new-password')).status, 200);
  isError(t, await setNew(m, first, 'other-password'), { status: 400, code: 'INVALID_CONFIRMATION_LINK', msg: 'This link has already been used.' });
  time.advance(3600_000);
  await ask(m, 'owner@example.com');
  const third = keyOf(linkIn(await m.mailTo('owner@example.com')));
  time.advance(24 * 3600_000);
  isError(t, await setNew(m, third, 'other-password'), { status: 400, code: 'INVALID_CONFIRMATION_LINK', msg: 'This link has expired. Ask for a new one.', extra: { reason: 'expired' } });
});

t.test('requests are limited per address (2 an hour, 5 a day) whether it has an account or not, and per client address (5 a day)', async (t) => {
  const time = manualTime();
  const m = await world(t, { clock: time.clock, timers: time.timers });
  for (const address of ['owner@example.com', 'nobody@acme.test']) {
    t.same([(await ask(m, address)).status, (await ask(m, address)).status], [200, 200]);
    isError(t, await ask(m, address), RATE, `${address}: the third in an hour`);
  }
  await m.settle();
  time.advance(3600_000);
  t.equal((await ask(m, 'nobody@acme.test')).status, 200, 'an hour later');
  isError(t, await ask(m, 'third@acme.test'), RATE, 'the client address has had 5 today');
  t.equal(m.s.chat.api.accounts.requestPasswordReset(null, { email: 'third@acme.test' }) !== undefined, true, 'in-process calls have no client address');
});

t.test('without a mailer there is no reset', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  isError(t, await s.request('POST', '/accounts/password/reset', { params: { email: 'owner@example.com' } }), bad('This server does not send email, so it cannot send a password reset link.'));
});

t.test('PATCH /settings new_password ends the other web sessions and keeps this one', async (t) => {
  const m = await world(t);
  const here = await signIn(m.s, 'owner@example.com', 'owner-password');
  const elsewhere = await signIn(m.s, 'owner@example.com', 'owner-password');
  const changed = await m.s.request('PATCH', '/settings', { params: { old_password: 'owner-password', new_password: 'changed-password' }, headers: withCookie(here.cookie) });
  t.equal(changed.status, 200);
  t.equal((await m.s.request('GET', '/users/me', { headers: withCookie(here.cookie) })).status, 200, 'this session goes on');
  t.equal((await m.s.request('GET', '/users/me', { headers: withCookie(elsewhere.cookie) })).status, 401, 'the other one ended');
});

t.test('chat.admin.setPassword and sendPasswordReset', async (t) => {
  const m = await world(t);
  const member = await m.s.user('member', { password: 'member-password' });
  const session = await signIn(m.s, member.email, 'member-password');
  await m.s.chat.admin.setPassword(member.user_id, 'set-by-admin');
  t.equal((await m.s.request('GET', '/users/me', { headers: withCookie(session.cookie) })).status, 401, 'their sessions ended');
  t.equal((await m.s.request('POST', '/sessions', { params: { username: member.email, password: 'set-by-admin' } })).status, 200);
  await t.rejects(m.s.chat.admin.setPassword(member.user_id, 'x'), { message: 'The password is too weak.' });
  const bot = await m.s.user('member', { bot: true });
  await t.rejects(m.s.chat.admin.setPassword(bot.user_id, 'long-enough'), { message: 'No such user' });
  m.s.chat.admin.sendPasswordReset(member.user_id);
  const key = keyOf(linkIn(await m.mailTo(member.email)));
  t.equal((await setNew(m, key, 'chosen-by-member')).status, 200);
});
