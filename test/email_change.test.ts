// Changing one's email (issue 33; Zulip's PATCH /settings `email`): a link goes to the new address
// and nothing changes until it is followed; following it changes the address, tells who may see it
// (realm_user update), and tells the old address. Taken, invalid and too frequent requests refused.
import t, { type Test } from 'tap';
import { bad, isError } from './assertions.js';
import { keyOf, linkIn, mailServer, type MailServer } from './accounts_helpers.js';
import type { TestUser } from './helpers.js';

async function world(t: Test): Promise<MailServer> {
  return mailServer(t, { realm: { name: 'Acme', url: 'https://chat.acme.test' } });
}

const change = (m: MailServer, as: TestUser, email: string) =>
  m.s.request('PATCH', '/settings', { as, params: { email } });

t.test('PATCH /settings email sends a link to the new address and changes nothing until it is followed', async (t) => {
  const m = await world(t);
  const member = await m.s.user('member', { email: 'old@acme.test', emailAddressVisibility: 1 });
  const admin = await m.s.user('admin');
  const queue = (await m.s.request('POST', '/register', { as: admin, params: { event_types: ['realm_user'] } })).body;
  const asked = await change(m, member, '  new@acme.test ');
  t.same([asked.status, asked.body], [200, { result: 'success', msg: '' }]);
  const mail = await m.mailTo('new@acme.test');
  t.equal(mail.parsed.subject, 'Confirm your new email address for Acme');
  t.match(mail.parsed.text, /from old@acme\.test to new@acme\.test/);
  t.match(linkIn(mail), /^https:\/\/chat\.acme\.test\/accounts\/confirm_new_email\/[A-Za-z0-9_-]{43}$/);
  t.equal(m.s.chat.admin.userByEmail('old@acme.test')?.user_id, member.user_id, 'nothing changed yet');
  t.equal((await m.s.request('GET', '/users/me', { as: member })).status, 200, 'the old email still signs in');

  const key = keyOf(linkIn(mail));
  t.match((await m.s.request('POST', '/accounts/confirmation', { params: { key } })).body, { kind: 'email_change', email: 'new@acme.test' });
  const confirmed = await m.s.request('POST', '/accounts/email/confirm', { params: { key } });
  t.same([confirmed.status, confirmed.body], [200, { result: 'success', msg: '', email: 'new@acme.test' }]);
  t.equal(m.s.chat.admin.userByEmail('new@acme.test')?.user_id, member.user_id);
  t.equal(m.s.chat.admin.userByEmail('old@acme.test'), undefined);
  const notice = await m.mailTo('old@acme.test');
  t.equal(notice.parsed.subject, 'Your email address on Acme has changed');
  const events = (await m.s.request('GET', '/events', { as: admin, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true } })).body.events;
  t.same(
    events.map((e: { person: unknown }) => e.person),
    [{ user_id: member.user_id, delivery_email: 'new@acme.test' }, { user_id: member.user_id, new_email: 'new@acme.test' }],
    'the real email to who may see it; the API email (visible to everyone here) to everyone',
  );
  isError(t, await m.s.request('POST', '/accounts/email/confirm', { params: { key } }), { status: 400, code: 'INVALID_CONFIRMATION_LINK', msg: 'This link has already been used.' });
});

t.test('a newer request replaces the pending one', async (t) => {
  const m = await world(t);
  const member = await m.s.user('member', { email: 'me@acme.test' });
  await change(m, member, 'first@acme.test');
  const first = keyOf(linkIn(await m.mailTo('first@acme.test')));
  await change(m, member, 'second@acme.test');
  await m.mailTo('second@acme.test');
  isError(t, await m.s.request('POST', '/accounts/email/confirm', { params: { key: first } }), { status: 400, code: 'INVALID_CONFIRMATION_LINK', msg: 'This link has already been used.' });
});

t.test('taken, invalid and too frequent requests are refused', async (t) => {
  const m = await world(t);
  const member = await m.s.user('member', { email: 'me@acme.test' });
  await m.s.user('member', { email: 'taken@acme.test' });
  isError(t, await change(m, member, 'taken@acme.test'), bad('Already has an account.'));
  isError(t, await change(m, member, 'nope'), bad('Invalid address.'));
  t.equal((await change(m, member, 'me@acme.test')).status, 200, 'the same address changes nothing');
  t.equal((await change(m, member, 'a@acme.test')).status, 200);
  t.equal((await change(m, member, 'b@acme.test')).status, 200);
  const third = await change(m, member, 'c@acme.test');
  isError(t, third, { status: 429, code: 'RATE_LIMIT_HIT', msg: 'API usage exceeded rate limit' }, "Zulip's email_change_by_user: 2 an hour");
});

t.test('a link whose address was taken meanwhile is refused when followed', async (t) => {
  const m = await world(t);
  const member = await m.s.user('member', { email: 'me@acme.test' });
  await change(m, member, 'wanted@acme.test');
  const key = keyOf(linkIn(await m.mailTo('wanted@acme.test')));
  await m.s.user('member', { email: 'wanted@acme.test' });
  isError(t, await m.s.request('POST', '/accounts/email/confirm', { params: { key } }), bad('Already has an account.'));
});
