// Invitations (issue 33; Zulip's /invites endpoints): who may invite whom as what, the exact errors
// of Zulip's invite views, the invitation email with its link, GET /invites, revoking and resending,
// the daily limit, and invites_changed to administrators and the referrer. Over HTTP and in-process.
import t, { type Test } from 'tap';
import { bad, bothFail, isError } from './assertions.js';
import { keyOf, linkIn, mailServer, type MailServer } from './accounts_helpers.js';
import { startServer, type TestUser } from './helpers.js';
import { botOf } from './bot_helpers.js';
import type { AccountOptions } from '../lib/index.js';

async function world(t: Test, accounts: AccountOptions = {}): Promise<MailServer & { general: number; secret: number }> {
  const m = await mailServer(t, { realm: { name: 'Acme', url: 'https://chat.acme.test' }, accounts });
  const general = m.s.chat.api.streams.subscribe(m.s.owner.user_id, { subscriptions: [{ name: 'general' }] }) && streamId(m, 'general');
  m.s.chat.api.streams.subscribe(m.s.owner.user_id, { subscriptions: [{ name: 'secret' }], inviteOnly: true });
  return { ...m, general, secret: streamId(m, 'secret') };
}

function streamId(m: MailServer, name: string): number {
  return m.s.chat.api.streams.getId(m.s.owner.user_id, { stream: name }).stream_id;
}

const invite = (m: MailServer, as: TestUser, params: Record<string, unknown>) => m.s.request('POST', '/invites', { as, params });
const link = (key: string) => ({ key });

t.test('POST /invites emails each address a link to the sign-up page under the organization URL', async (t) => {
  const m = await world(t);
  const reply = await invite(m, m.s.owner, { invitee_emails: 'Ada Lovelace <ada@acme.test>, bob@acme.test\ncarol@acme.test', stream_ids: [m.general] });
  t.same([reply.status, reply.body], [200, { result: 'success', msg: '' }]);
  for (const address of ['ada@acme.test', 'bob@acme.test', 'carol@acme.test']) {
    const mail = await m.mailTo(address);
    t.equal(mail.parsed.subject, 'Olivia Owner has invited you to join Acme', address);
    t.match(linkIn(mail), /^https:\/\/chat\.acme\.test\/accounts\/do_confirm\/[A-Za-z0-9_-]{43}$/);
    t.match(mail.parsed.text, /Olivia Owner \(owner@example\.com\) wants you to join them on Acme/);
  }
  const described = await m.s.request('POST', '/accounts/confirmation', { params: link(keyOf(linkIn(m.smtp.received[0]!))) });
  t.same(described.body, { result: 'success', msg: '', kind: 'invitation', email: described.body.email, organization_name: 'Acme', invited_by: 'Olivia Owner', invited_as: 400 });
});

t.test('GET /invites: the shape, administrators see all, others their own, newest state', async (t) => {
  const m = await world(t);
  const member = await m.s.user('member');
  const admin = await m.s.user('admin');
  t.equal((await invite(m, member, { invitee_emails: 'm1@acme.test', stream_ids: [], notify_referrer_on_join: false })).status, 200);
  t.equal((await invite(m, m.s.owner, { invitee_emails: 'o1@acme.test', stream_ids: [m.general], invite_as: 200, invite_expires_in_minutes: null })).status, 200);
  const linkReply = await m.s.request('POST', '/invites/multiuse', { as: admin, params: { invite_as: 600, invite_expires_in_minutes: 60 } });
  t.match(linkReply.body.invite_link, /^https:\/\/chat\.acme\.test\/join\/[A-Za-z0-9_-]{43}$/);

  const all = await m.s.request('GET', '/invites', { as: admin });
  t.equal(all.status, 200);
  const now = Math.floor(Date.now() / 1000);
  t.same(
    all.body.invites.map((i: Record<string, unknown>) => ({ ...i, id: 0, invited: 0, expiry_date: i.expiry_date === null ? null : 'set' })),
    [
      { id: 0, invited_by_user_id: member.user_id, invited: 0, expiry_date: 'set', invited_as: 400, email: 'm1@acme.test', notify_referrer_on_join: false, is_multiuse: false },
      { id: 0, invited_by_user_id: m.s.owner.user_id, invited: 0, expiry_date: null, invited_as: 200, email: 'o1@acme.test', notify_referrer_on_join: true, is_multiuse: false },
      { id: 0, invited_by_user_id: admin.user_id, invited: 0, expiry_date: 'set', invited_as: 600, is_multiuse: true },
    ],
  );
  t.ok(Math.abs(all.body.invites[0].expiry_date - (now + 10 * 24 * 3600)) < 5, 'ten days by default');
  t.ok(Math.abs(all.body.invites[2].expiry_date - (now + 3600)) < 5, 'invite_expires_in_minutes');
  const own = await m.s.request('GET', '/invites', { as: member });
  t.same(own.body.invites.map((i: { email: string }) => i.email), ['m1@acme.test']);
  t.same(m.s.chat.api.invites.list(member.user_id).invites.length, 1, 'in-process');
});

t.test("POST /invites's refusals, in Zulip's order and words", async (t) => {
  const m = await world(t);
  const guest = await m.s.user('guest');
  const member = await m.s.user('member');
  const bot = await botOf(m.s, member, 'inviter');
  const params = { invitee_emails: 'x@acme.test', stream_ids: [] };
  await bothFail(t, () => invite(m, guest, params), () => m.s.chat.api.invites.send(guest.user_id, { inviteeEmails: 'x@acme.test', streamIds: [] }), bad('Not allowed for guest users'));
  isError(t, await invite(m, bot, params), bad('This endpoint does not accept bot requests.'));
  isError(t, await invite(m, member, { ...params, invite_as: 100 }), { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' });
  for (const role of [200, 300]) isError(t, await invite(m, member, { ...params, invite_as: role }), bad('Must be an organization administrator'));
  isError(t, await invite(m, m.s.owner, { ...params, invite_as: 500 }), bad('Invalid invite_as: Value error, Not in the list of possible values'));
  isError(t, await invite(m, m.s.owner, { invitee_emails: '', stream_ids: [] }), bad('You must specify at least one email address.'));
  isError(t, await invite(m, m.s.owner, { invitee_emails: 'x@acme.test' }), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'stream_ids' argument" });
  isError(t, await invite(m, m.s.owner, { ...params, stream_ids: [99999] }), bad('Invalid channel ID 99999. No invites were sent.'));
  isError(t, await invite(m, member, { ...params, stream_ids: [m.secret] }), bad(`Invalid channel ID ${m.secret}. No invites were sent.`), 'a private channel the sender cannot read');
  isError(t, await invite(m, m.s.owner, { ...params, invite_expires_in_minutes: 0 }), bad('invite_expires_in_minutes is too small'));
  t.equal(m.smtp.received.length, 0, 'no email was sent');
});

t.test('who may invite: options.accounts.whoMayInvite (Zulip\'s can_invite_users_group, members by default)', async (t) => {
  const m = await world(t, { whoMayInvite: 'role:administrators' });
  const member = await m.s.user('member');
  const moderator = await m.s.user('moderator');
  for (const who of [member, moderator]) isError(t, await invite(m, who, { invitee_emails: 'x@acme.test', stream_ids: [] }), bad('Insufficient permission'));
  const admin = await m.s.user('admin');
  t.equal((await invite(m, admin, { invitee_emails: 'x@acme.test', stream_ids: [], invite_as: 300 })).status, 200);
  const open = await world(t);
  const someone = await open.s.user('member');
  t.equal((await invite(open, someone, { invitee_emails: 'y@acme.test', stream_ids: [] })).status, 200, 'members by default');
});

t.test("subscribing invitees to channels follows can_add_subscribers_group; default channels are always allowed", async (t) => {
  const m = await world(t, { whoMayAddSubscribers: 'role:moderators' });
  const member = await m.s.user('member');
  m.s.chat.api.streams.subscribe(member.user_id, { subscriptions: [{ name: 'general' }, { name: 'random' }] });
  const random = streamId(m, 'random');
  isError(t, await invite(m, member, { invitee_emails: 'x@acme.test', stream_ids: [random] }), bad('You do not have permission to subscribe other users to channels.'));
  m.s.chat.api.streams.addDefaultStream(m.s.owner.user_id, { streamId: random });
  t.equal((await invite(m, member, { invitee_emails: 'x@acme.test', stream_ids: [random] })).status, 200, 'a default channel');
  const moderator = await m.s.user('moderator');
  m.s.chat.api.streams.subscribe(moderator.user_id, { subscriptions: [{ name: 'general' }] });
  t.equal((await invite(m, moderator, { invitee_emails: 'y@acme.test', stream_ids: [m.general] })).status, 200);
});

t.test('addresses that do not validate: INVITATION_FAILED, nothing sent', async (t) => {
  const m = await world(t, { emailDomains: ['acme.test', '*.acme.org'] });
  const taken = await m.s.user('member', { email: 'taken@acme.test' });
  const reply = await invite(m, m.s.owner, { invitee_emails: 'not-an-address, x@elsewhere.test, a+b@acme.test, ok@sub.acme.org, taken@acme.test', stream_ids: [] });
  isError(t, reply, { status: 400, code: 'INVITATION_FAILED', msg: "Some emails did not validate, so we didn't send any invitations." });
  t.same(reply.body, {
    result: 'error',
    code: 'INVITATION_FAILED',
    msg: "Some emails did not validate, so we didn't send any invitations.",
    errors: [
      ['not-an-address', 'Invalid address.', false],
      ['x@elsewhere.test', 'Outside your domain.', false],
      ['a+b@acme.test', 'Email addresses containing + are not allowed.', false],
      ['taken@acme.test', 'Already has an account.', false],
    ],
    sent_invitations: false,
    license_limit_reached: false,
    daily_limit_reached: false,
  });
  t.equal(m.s.chat.api.invites.list(m.s.owner.user_id).invites.length, 0);
  void taken;
});

t.test('addresses of existing accounts are skipped and the others invited; all skipped: no one', async (t) => {
  const m = await world(t);
  await m.s.user('member', { email: 'taken@acme.test' });
  const gone = await m.s.user('member', { email: 'gone@acme.test' });
  m.s.chat.admin.deactivateUser(gone.user_id);
  const some = await invite(m, m.s.owner, { invitee_emails: 'taken@acme.test, new@acme.test', stream_ids: [] });
  t.same(some.body, {
    result: 'error',
    code: 'INVITATION_FAILED',
    msg: "Some of those addresses are already using Zulip, so we didn't send them an invitation. We did send invitations to everyone else!",
    errors: [['taken@acme.test', 'Already has an account.', false]],
    sent_invitations: true,
    license_limit_reached: false,
    daily_limit_reached: false,
  });
  t.equal(some.status, 400);
  await m.mailTo('new@acme.test');
  t.same(m.s.chat.api.invites.list(m.s.owner.user_id).invites.map((i) => i.email), ['new@acme.test'], 'the others were invited');
  const none = await invite(m, m.s.owner, { invitee_emails: 'taken@acme.test, gone@acme.test', stream_ids: [] });
  t.match(none.body, {
    msg: "We weren't able to invite anyone.",
    errors: [
      ['taken@acme.test', 'Already has an account.', false],
      ['gone@acme.test', 'Account has been deactivated.', true],
    ],
    sent_invitations: false,
  });
});

t.test('the daily limit (options.accounts.invitationsPerDay): INVITATION_FAILED with daily_limit_reached', async (t) => {
  const m = await world(t, { invitationsPerDay: 2 });
  t.equal((await invite(m, m.s.owner, { invitee_emails: 'a@acme.test, b@acme.test', stream_ids: [] })).status, 200);
  const over = await invite(m, m.s.owner, { invitee_emails: 'c@acme.test', stream_ids: [] });
  isError(t, over, {
    status: 400,
    code: 'INVITATION_FAILED',
    msg: 'To protect users, Zulip limits the number of invitations you can send in one day. Because you have reached the limit, no invitations were sent.',
  });
  t.match(over.body, { errors: [], sent_invitations: false, daily_limit_reached: true });
});

t.test('without a mailer invitations cannot be sent', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  isError(t, await s.request('POST', '/invites', { as: s.owner, params: { invitee_emails: 'x@acme.test', stream_ids: [] } }), bad('This server does not send email, so it cannot send invitations.'));
});

t.test('invites_changed goes to administrators and the referrer', async (t) => {
  const m = await world(t);
  const admin = await m.s.user('admin');
  const member = await m.s.user('member');
  const other = await m.s.user('member');
  const queues = await Promise.all(
    [admin, member, other].map(async (who) => ({ who, q: (await m.s.request('POST', '/register', { as: who, params: { event_types: ['invites_changed'] } })).body })),
  );
  t.equal((await invite(m, member, { invitee_emails: 'x@acme.test', stream_ids: [] })).status, 200);
  for (const { who, q } of queues) {
    const events = (await m.s.request('GET', '/events', { as: who, params: { queue_id: q.queue_id, last_event_id: q.last_event_id, dont_block: true } })).body.events;
    t.same(events.map((e: { type: string }) => e.type), who === other ? [] : ['invites_changed'], who.email);
  }
});

t.test('DELETE /invites/{id}: the referrer, or an administrator (an owner for an owner invitation); the link then says revoked', async (t) => {
  const m = await world(t);
  const member = await m.s.user('member');
  const admin = await m.s.user('admin');
  await invite(m, member, { invitee_emails: 'x@acme.test', stream_ids: [] });
  await invite(m, m.s.owner, { invitee_emails: 'boss2@acme.test', stream_ids: [], invite_as: 100 });
  const [mine, owners] = m.s.chat.api.invites.list(m.s.owner.user_id).invites;
  const key = keyOf(linkIn(await m.mailTo('x@acme.test')));
  const ownerOnly = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization owner' };
  for (const who of [member, admin]) isError(t, await m.s.request('DELETE', `/invites/${owners!.id}`, { as: who }), ownerOnly, 'the owner check comes first');
  const other = await m.s.user('member');
  isError(t, await m.s.request('DELETE', `/invites/${mine!.id}`, { as: other }), bad('Must be an organization administrator'));
  const revoked = await m.s.request('DELETE', `/invites/${mine!.id}`, { as: member });
  t.same([revoked.status, revoked.body], [200, { result: 'success', msg: '' }]);
  isError(t, await m.s.request('DELETE', `/invites/${mine!.id}`, { as: member }), bad('No such invitation'), 'twice');
  isError(t, await m.s.request('DELETE', '/invites/99999', { as: m.s.owner }), bad('No such invitation'));
  const followed = await m.s.request('POST', '/accounts/confirmation', { params: { key } });
  isError(t, followed, { status: 400, code: 'INVALID_CONFIRMATION_LINK', msg: 'This invitation has been revoked.', extra: { reason: 'revoked' } });
  t.same(m.s.chat.api.invites.list(m.s.owner.user_id).invites.map((i) => i.email), ['boss2@acme.test']);
});

t.test('POST /invites/{id}/resend sends a new link; the previous one stops working', async (t) => {
  const m = await world(t);
  await invite(m, m.s.owner, { invitee_emails: 'x@acme.test', stream_ids: [] });
  const first = keyOf(linkIn(await m.mailTo('x@acme.test')));
  const [pending] = m.s.chat.api.invites.list(m.s.owner.user_id).invites;
  const member = await m.s.user('member');
  isError(t, await m.s.request('POST', `/invites/${pending!.id}/resend`, { as: member }), bad('Must be an organization administrator'));
  const resent = await m.s.request('POST', `/invites/${pending!.id}/resend`, { as: m.s.owner });
  t.same([resent.status, resent.body], [200, { result: 'success', msg: '' }]);
  const second = keyOf(linkIn(await m.mailTo('x@acme.test')));
  t.not(second, first);
  isError(t, await m.s.request('POST', '/accounts/confirmation', { params: { key: first } }), { status: 400, code: 'INVALID_CONFIRMATION_LINK', msg: 'This link is not valid. Check that it was copied whole, or ask for a new one.' });
  t.equal((await m.s.request('POST', '/accounts/confirmation', { params: { key: second } })).status, 200);
  isError(t, await m.s.request('POST', '/invites/99999/resend', { as: m.s.owner }), bad('No such invitation'));
});

t.test('POST /invites/multiuse: administrators by default (can_create_multiuse_invite_group); DELETE /invites/multiuse/{id}', async (t) => {
  const m = await world(t);
  const member = await m.s.user('member');
  isError(t, await m.s.request('POST', '/invites/multiuse', { as: member }), bad('Insufficient permission'));
  isError(t, await m.s.request('POST', '/invites/multiuse', { as: m.s.owner, params: { stream_ids: [4242] } }), bad('Invalid channel ID 4242. No invites were sent.'));
  const made = await m.s.request('POST', '/invites/multiuse', { as: m.s.owner, params: { stream_ids: [m.general] } });
  t.same(Object.keys(made.body).sort(), ['invite_link', 'msg', 'result']);
  const [created] = m.s.chat.api.invites.list(m.s.owner.user_id).invites;
  isError(t, await m.s.request('DELETE', `/invites/${created!.id}`, { as: m.s.owner }), bad('No such invitation'), 'not an email invitation');
  isError(t, await m.s.request('DELETE', `/invites/multiuse/${created!.id}`, { as: member }), bad('Must be an organization administrator'));
  t.equal((await m.s.request('DELETE', `/invites/multiuse/${created!.id}`, { as: m.s.owner })).status, 200);
  isError(t, await m.s.request('DELETE', `/invites/multiuse/${created!.id}`, { as: m.s.owner }), bad('Invitation has already been revoked'));
  isError(t, await m.s.request('DELETE', '/invites/multiuse/99999', { as: m.s.owner }), bad('No such invitation'));
  isError(t, await m.s.request('POST', '/accounts/confirmation', { params: { key: keyOf(made.body.invite_link) } }), { status: 400, code: 'INVALID_CONFIRMATION_LINK', msg: 'This invitation has been revoked.' });
  const members = await world(t, { whoMayCreateInviteLinks: 'role:members' });
  const someone = await members.s.user('member');
  t.equal((await members.s.request('POST', '/invites/multiuse', { as: someone })).status, 200, 'when members may');
});

t.test('in an organization open to sign-up, new members wait three days to invite (Zulip\'s INVITES_MIN_USER_AGE_DAYS)', async (t) => {
  const m = await world(t, { inviteRequired: false });
  const newcomer = await m.s.user('member');
  const reply = await invite(m, newcomer, { invitee_emails: 'x@acme.test', stream_ids: [] });
  isError(t, reply, { status: 400, code: 'INVITATION_FAILED', msg: 'Your account is too new to send invites for this organization. Ask an organization admin, or a more experienced user.' });
  t.equal((await invite(m, m.s.owner, { invitee_emails: 'x@acme.test', stream_ids: [] })).status, 200, 'administrators do not wait');
});
