// Narrows whose cost must follow the user or the channel, not the organization: anchor=first_unread
// is the oldest unread message of the narrow (read from the user's unread messages), and a search
// within one channel finds that channel's matches only (its id is part of the full-text match).
import t, { type Test } from 'tap';
import { startServer, type TestServer, type TestUser } from './helpers.js';

const LARGER_THAN_MAX_MESSAGE_ID = 10000000000000000;

async function world(t: Test) {
  const s = await startServer();
  t.teardown(() => s.close());
  const bob = await s.user('member');
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'busy' }, { name: 'quiet' }], principals: [s.owner.user_id, bob.user_id] });
  const id = (name: string) => s.chat.api.streams.getId(s.owner.user_id, { stream: name }).stream_id;
  const send = (stream: string, content: string) => s.chat.api.messages.send(s.owner.user_id, { type: 'stream', to: stream, topic: 'talk', content }).id;
  return { s, bob, busy: id('busy'), quiet: id('quiet'), send };
}

const page = async (s: TestServer, user: TestUser, params: Record<string, unknown>) => {
  const reply = await s.request('GET', '/messages', { as: user, params });
  t.equal(reply.status, 200, 'GET /messages');
  return reply.body as { anchor: number; messages: { id: number }[] };
};

t.test('anchor=first_unread: the oldest unread message of the narrow; none there, the newest', async (t) => {
  const { s, bob, busy, quiet, send } = await world(t);
  const early = send('busy', 'one');
  const quietOne = send('quiet', 'two');
  const busyTwo = send('busy', 'three');
  s.chat.api.messageFlags.update(bob.user_id, { messages: [early], op: 'add', flag: 'read' });
  const first = (narrow: object[]) => page(s, bob, { anchor: 'first_unread', num_before: 0, num_after: 0, narrow });
  t.equal((await first([{ operator: 'channel', operand: busy }])).anchor, busyTwo, 'busy: its first unread, after a read one');
  t.equal((await first([{ operator: 'channel', operand: quiet }])).anchor, quietOne, 'quiet: its own, though older unread ones elsewhere come first');
  t.equal((await first([])).anchor, quietOne, 'no narrow: the oldest unread of all');
  s.chat.api.messageFlags.update(bob.user_id, { messages: [quietOne], op: 'add', flag: 'read' });
  t.equal((await first([{ operator: 'channel', operand: quiet }])).anchor, LARGER_THAN_MAX_MESSAGE_ID, 'all read: the newest');
  const latecomer = await s.user('member');
  s.chat.api.streams.subscribe(latecomer.user_id, { subscriptions: [{ name: 'busy' }] });
  const history = await page(s, latecomer, { anchor: 'first_unread', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: busy }] });
  t.equal(history.anchor, LARGER_THAN_MAX_MESSAGE_ID, 'a member without rows: history counts as read');
  t.same(
    history.messages.map((m) => m.id),
    [busyTwo],
  );
});

t.test("a search within a channel: that channel's matches only, newest first; phrases and prefixes as elsewhere", async (t) => {
  const { s, bob, quiet, send } = await world(t);
  const quietIds = [send('quiet', 'deploy the lorem service'), send('quiet', 'nothing here')];
  for (let i = 0; i < 30; i++) send('busy', `lorem ipsum ${i}`);
  quietIds.push(send('quiet', 'Lorem deployment done'));
  const search = (operand: string, numBefore = 10) =>
    page(s, bob, { anchor: 'newest', num_before: numBefore, num_after: 0, narrow: [{ operator: 'channel', operand: quiet }, { operator: 'search', operand }] });
  t.same(
    (await search('lorem')).messages.map((m) => m.id),
    [quietIds[0], quietIds[2]],
  );
  t.same(
    (await search('deplo')).messages.map((m) => m.id),
    [quietIds[0], quietIds[2]],
    'a prefix',
  );
  t.same(
    (await search('"lorem deployment"')).messages.map((m) => m.id),
    [quietIds[2]],
    'a phrase',
  );
  t.same(
    (await search('lorem', 1)).messages.map((m) => m.id),
    [quietIds[2]],
    'a page of one',
  );
  const negated = await page(s, bob, {
    anchor: 'newest',
    num_before: 50,
    num_after: 0,
    narrow: [{ operator: 'channel', operand: quiet, negated: true }, { operator: 'search', operand: 'lorem' }],
  });
  t.equal(negated.messages.length, 30, 'not in the channel: the others');
});
