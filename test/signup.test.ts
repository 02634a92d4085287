// Joining (issue 33): an invitation's link opens the sign-up form and makes the account with the
// invited role and channels, signed in; the referrer hears of it from Notification Bot; a
// reusable link's joiner confirms their address first, as does anyone where sign-up is open; used,
// expired and revoked links are refused with their reason. Over HTTP, with a real SMTP server.
import t, { type Test } from 'tap';
import { bad, isError } from './assertions.js';
import { keyOf, linkIn, mailServer, type MailServer } from './accounts_helpers.js';
import { withCookie } from './session_helpers.js';
import { manualTime } from './manual_time.js';
import type { AccountOptions } from '../lib/index.js';

async function world(t: Test, accounts: AccountOptions = {}, extra: Parameters<typeof mailServer>[1] = {}): Promise<MailServer> {
  const m = await mailServer(t, { realm: { name: 'Acme', url: 'https://chat.acme.test' }, accounts, defaultChannels: true, ...extra });
  m.s.chat.api.streams.subscribe(m.s.owner.user_id, { subscriptions: [{ name: 'design' }] });
  m.s.chat.api.streams.subscribe(m.s.owner.user_id, { subscriptions: [{ name: 'board' }], inviteOnly: true });
  return m;
}

const id = (m: MailServer, name: string) => m.s.chat.api.streams.getId(m.s.owner.user_id, { stream: name }).stream_id;
const register = (m: MailServer, key: string, fullName = 'Ada Lovelace', password = 'ada-password') =>
  m.s.request('POST', '/accounts/register', { params: { key, full_name: fullName, password } });
const subscribedNames = (m: MailServer, userId: number) =>
  m.s.chat.api.streams.listSubscriptions(userId).subscriptions.map((s) => s.name).sort();
const linkError = (reason: string, msg: string) => ({ status: 400, code: 'INVALID_CONFIRMATION_LINK', msg, extra: { reason } });

t.test('an invitation makes the account with its role and channels, signs it in, and tells the referrer', async (t) => {
  const m = await world(t);
  const admin = await m.s.user('admin');
  m.s.chat.api.streams.subscribe(m.s.owner.user_id, { subscriptions: [{ name: 'board' }], principals: [admin.user_id] });
  await m.s.request('POST', '/invites', { as: admin, params: { invitee_emails: 'ada@acme.test', stream_ids: [id(m, 'design'), id(m, 'board')], invite_as: 300 } });
  await m.s.request('POST', '/invites', { as: m.s.owner, params: { invitee_emails: 'ada@acme.test', stream_ids: [] } });
  const key = keyOf(linkIn(await m.mailTo('ada@acme.test')));
  const watcher = await m.s.request('POST', '/register', { as: m.s.owner, params: { event_types: ['realm_user', 'invites_changed'] } });

  const joined = await register(m, key);
  t.equal(joined.status, 200);
  t.match(joined.body, { result: 'success', email: 'ada@acme.test', user_id: Number, session_id: Number });
  t.match(joined.headers.get('set-cookie'), /^parley_session=[A-Za-z0-9_-]{43}; Path=\/; Max-Age=1209600; HttpOnly; SameSite=Strict; Secure$/);
  const cookie = joined.headers.get('set-cookie')!.split(';')[0]!;
  const me = await m.s.request('GET', '/users/me', { headers: withCookie(cookie) });
  t.same([me.body.user_id, me.body.full_name, me.body.role], [joined.body.user_id, 'Ada Lovelace', 300], 'signed in, as a moderator');
  t.same(subscribedNames(m, joined.body.user_id), ['board', 'design'], 'the invited channels (a private one too), not the default ones');

  const dm = m.s.chat.api.messages.list(admin.user_id, { anchor: 'newest', numBefore: 5, numAfter: 0, narrow: [{ operator: 'is', operand: 'dm' }] }).messages.at(-1)!;
  t.match(dm, { sender_full_name: 'Notification Bot', type: 'private' });
  t.match(dm.content, new RegExp(`<span class="user-mention silent" data-user-id="${joined.body.user_id}">Ada Lovelace</span> accepted your invitation to join Acme!`));
  t.same(m.s.chat.api.invites.list(m.s.owner.user_id).invites, [], "the address's other invitation was revoked too");
  const events = (await m.s.request('GET', '/events', { as: m.s.owner, params: { queue_id: watcher.body.queue_id, last_event_id: watcher.body.last_event_id, dont_block: true } })).body.events;
  t.match(events.find((e: { type: string; op?: string }) => e.type === 'realm_user' && e.op === 'add'), { person: { user_id: joined.body.user_id, full_name: 'Ada Lovelace' } });
  t.ok(events.some((e: { type: string }) => e.type === 'invites_changed'));

  isError(t, await register(m, key), linkError('used', 'This link has already been used.'), 'the link works once');
  isError(t, await m.s.request('POST', '/accounts/confirmation', { params: { key } }), linkError('used', 'This link has already been used.'));
});

t.test("include_realm_default_subscriptions adds the default channels; notify_referrer_on_join false sends no message", async (t) => {
  const m = await world(t);
  await m.s.request('POST', '/invites', {
    as: m.s.owner,
    params: { invitee_emails: 'bo@acme.test', stream_ids: [id(m, 'design')], include_realm_default_subscriptions: true, notify_referrer_on_join: false },
  });
  const joined = await register(m, keyOf(linkIn(await m.mailTo('bo@acme.test'))), 'Bo Peep');
  t.same(subscribedNames(m, joined.body.user_id), ['design', 'general', 'sandbox']);
  const fromBot = m.s.db.prepare("SELECT count(*) AS n FROM message m JOIN user u ON u.id = m.sender_id WHERE u.full_name = 'Notification Bot'").get() as { n: number };
  t.equal(fromBot.n, 0);
});

t.test('the sign-up form checks the name and password as account creation does', async (t) => {
  const m = await world(t);
  await m.s.request('POST', '/invites', { as: m.s.owner, params: { invitee_emails: 'cy@acme.test', stream_ids: [] } });
  const key = keyOf(linkIn(await m.mailTo('cy@acme.test')));
  isError(t, await register(m, key, 'Cy', 'short'), bad('The password is too weak.'));
  isError(t, await register(m, key, 'C', 'long-enough'), bad('Name too short!'));
  isError(t, await register(m, 'x'.repeat(43)), linkError('unknown', 'This link is not valid. Check that it was copied whole, or ask for a new one.'));
  isError(t, await register(m, 'not/a/key'), linkError('unknown', 'This link is not valid. Check that it was copied whole, or ask for a new one.'));
  t.equal((await register(m, key, 'Cy Young', 'long-enough')).status, 200, 'the link was not spent by the refusals');
});

t.test('an expired invitation link is refused as expired', async (t) => {
  const time = manualTime();
  const m = await world(t, {}, { clock: time.clock, timers: time.timers });
  await m.s.request('POST', '/invites', { as: m.s.owner, params: { invitee_emails: 'dee@acme.test', stream_ids: [], invite_expires_in_minutes: 30 } });
  const key = keyOf(linkIn(await m.mailTo('dee@acme.test')));
  time.advance(30 * 60_000);
  isError(t, await m.s.request('POST', '/accounts/confirmation', { params: { key } }), linkError('expired', 'This link has expired. Ask for a new one.'));
  isError(t, await register(m, key), linkError('expired', 'This link has expired. Ask for a new one.'));
});

t.test("a reusable link's joiner confirms their address by email, then joins with the link's role and channels", async (t) => {
  const m = await world(t);
  const made = await m.s.request('POST', '/invites/multiuse', { as: m.s.owner, params: { stream_ids: [id(m, 'design')], invite_as: 600 } });
  const multiuse = keyOf(made.body.invite_link);
  const described = await m.s.request('POST', '/accounts/confirmation', { params: { key: multiuse } });
  t.same(described.body, { result: 'success', msg: '', kind: 'multiuse_invite', email: null, organization_name: 'Acme', invited_by: 'Olivia Owner', invited_as: 600 });
  isError(t, await register(m, multiuse), linkError('unknown', 'This link is not valid. Check that it was copied whole, or ask for a new one.'), 'not without a confirmed address');

  for (const [address, name] of [['eve@acme.test', 'Eve Adams'], ['fay@acme.test', 'Fay Wray']] as const) {
    const asked = await m.s.request('POST', '/accounts/signup', { params: { email: address, key: multiuse } });
    t.same([asked.status, asked.body], [200, { result: 'success', msg: '' }]);
    const mail = await m.mailTo(address);
    t.equal(mail.parsed.subject, 'Confirm your email address for Acme');
    const confirm = keyOf(linkIn(mail));
    t.match(linkIn(mail), /\/accounts\/do_confirm\//);
    t.match((await m.s.request('POST', '/accounts/confirmation', { params: { key: confirm } })).body, { kind: 'registration', email: address, invited_as: 600 });
    const joined = await register(m, confirm, name);
    t.equal(joined.status, 200, address);
    t.same([m.s.chat.api.users.get(m.s.owner.user_id, { userId: joined.body.user_id }).user.role, subscribedNames(m, joined.body.user_id)], [600, ['design']]);
  }
  const [link] = m.s.chat.api.invites.list(m.s.owner.user_id).invites;
  t.match(link, { is_multiuse: true }, 'the link stays usable');
  await m.s.request('POST', '/accounts/signup', { params: { email: 'gus@acme.test', key: multiuse } });
  const late = keyOf(linkIn(await m.mailTo('gus@acme.test')));
  await m.s.request('DELETE', `/invites/multiuse/${link!.id}`, { as: m.s.owner });
  isError(t, await register(m, late), linkError('revoked', 'This invitation has been revoked.'), 'revoking the link ends its pending confirmations');
  isError(t, await m.s.request('POST', '/accounts/signup', { params: { email: 'hal@acme.test', key: multiuse } }), linkError('revoked', 'This invitation has been revoked.'));
});

t.test('asking to join with an address that has an account answers the same, and tells its owner instead', async (t) => {
  const m = await world(t, { inviteRequired: false });
  const reply = await m.s.request('POST', '/accounts/signup', { params: { email: 'owner@example.com' } });
  t.same([reply.status, reply.body], [200, { result: 'success', msg: '' }]);
  const mail = await m.mailTo('owner@example.com');
  t.equal(mail.parsed.subject, 'You already have an account in Acme');
  t.notMatch(mail.parsed.text, /\/accounts\/do_confirm\//, 'no sign-up link');
});

t.test('open sign-up (options.accounts.inviteRequired false) with allowed domains', async (t) => {
  const closed = await world(t);
  isError(t, await closed.s.request('POST', '/accounts/signup', { params: { email: 'ivy@acme.test' } }), bad('You need an invitation to join this organization.'));
  const m = await world(t, { inviteRequired: false, emailDomains: ['acme.test'] });
  const realm = (await m.s.request('POST', '/register', { as: m.s.owner, params: { fetch_event_types: ['realm'] } })).body;
  t.same([realm.realm_invite_required, realm.realm_emails_restricted_to_domains], [false, true], "/register tells Zulip's realm settings");
  const closedRealm = (await closed.s.request('POST', '/register', { as: closed.s.owner, params: { fetch_event_types: ['realm'] } })).body;
  t.same([closedRealm.realm_invite_required, closedRealm.realm_emails_restricted_to_domains], [true, false]);
  isError(t, await m.s.request('POST', '/accounts/signup', { params: { email: 'ivy@gmail.test' } }), bad('Outside your domain.'));
  isError(t, await m.s.request('POST', '/accounts/signup', { params: { email: 'not an address' } }), bad('Invalid address.'));
  t.equal((await m.s.request('POST', '/accounts/signup', { params: { email: 'ivy@acme.test' } })).status, 200);
  const joined = await register(m, keyOf(linkIn(await m.mailTo('ivy@acme.test'))), 'Ivy Green');
  t.equal(joined.status, 200);
  t.same([m.s.chat.api.users.get(m.s.owner.user_id, { userId: joined.body.user_id }).user.role, subscribedNames(m, joined.body.user_id)], [400, ['general', 'sandbox']], 'a member in the default channels');
});

t.test('sign-up confirmations are limited per address (2 an hour) and per client address (5 a day)', async (t) => {
  const m = await world(t, { inviteRequired: false });
  const ask = (email: string) => m.s.request('POST', '/accounts/signup', { params: { email } });
  t.same([(await ask('jo@acme.test')).status, (await ask('jo@acme.test')).status], [200, 200]);
  const third = await ask('JO@acme.test');
  isError(t, third, { status: 429, code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' });
  t.equal(third.headers.get('retry-after'), '3600');
  for (const address of ['k1@acme.test', 'k2@acme.test', 'k3@acme.test']) t.equal((await ask(address)).status, 200);
  isError(t, await ask('k4@acme.test'), { status: 429, code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' }, 'the client address had 5');
  t.equal(m.s.chat.api.accounts.signUp(null, { email: 'k5@acme.test' }) !== undefined, true, 'in-process calls have no client address');
});
