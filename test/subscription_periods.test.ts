// Messages to a big channel (largeChannelSubscribers; 0 here: every channel) are had by
// subscription period: a send writes rows only for the recipients whose flags differ and one event
// row; a user has exactly the messages of the times they were an active subscriber; reading in
// order moves read_through and keeps no row per message; ids are never handed out twice.
import t, { type Test } from 'tap';
import { startServer, type TestServer, type TestUser } from './helpers.js';

async function world(t: Test) {
  const s = await startServer({ largeChannelSubscribers: 0 });
  t.teardown(() => s.close());
  const [ann, bob, cy] = [await s.user('member', { fullName: 'Ann Anders' }), await s.user('member', { fullName: 'Bob Brown' }), await s.user('member')];
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'big' }], principals: [s.owner.user_id, ann.user_id, bob.user_id, cy.user_id] });
  const send = (content: string, from = s.owner) => s.chat.api.messages.send(from.user_id, { type: 'stream', to: 'big', topic: 't', content }).id;
  return { s, ann, bob, cy, send };
}

const ids = (s: TestServer, user: TestUser, narrow: object[] = []) =>
  (s.chat.api.messages.list(user.user_id, { anchor: 'newest', numBefore: 100, numAfter: 0, narrow: narrow as never }).messages as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags]);
const rows = (s: TestServer, where = '1') => s.db.prepare(`SELECT user_id, message_id, flags FROM user_message WHERE ${where} ORDER BY user_id, message_id`).raw().all();

t.test('a send writes rows only for the recipients whose flags differ, and one event row for the others', async (t) => {
  const { s, ann, bob, send } = await world(t);
  const earlier = send('the first message of the channel (it also updates first_message_id)');
  const events = s.db.prepare('SELECT count(*) FROM event').pluck();
  const before = events.get() as number;
  const id = send('hello @**Ann Anders**');
  t.same(rows(s, `message_id = ${id}`), [[ann.user_id, id, 8]], 'only the mentioned has a row');
  t.equal((events.get() as number) - before, 2, 'one event row for the mentioned, one for everyone else');
  t.same(ids(s, bob), [[earlier, []], [id, []]], 'the others have it, unread');
  t.same(ids(s, ann), [[earlier, []], [id, ['mentioned']]]);
});

t.test('a user has the messages of the times they were an active subscriber, not of the gaps', async (t) => {
  const { s, ann, bob, send } = await world(t);
  const first = send('one');
  s.chat.api.streams.unsubscribe(ann.user_id, { subscriptions: ['big'] });
  s.chat.admin.deactivateUser(bob.user_id);
  const gap = send('while away');
  s.chat.api.streams.subscribe(ann.user_id, { subscriptions: [{ name: 'big' }] });
  s.chat.admin.reactivateUser(bob.user_id);
  const last = send('back');
  t.same(ids(s, ann), [[first, ['read']], [last, []]], 'the first read on leaving, the one sent while away not hers');
  t.same(ids(s, bob), [[first, []], [last, []]], 'a deactivated user received nothing meanwhile, and keeps what was unread');
  const history = (s.chat.api.messages.list(ann.user_id, { anchor: 'newest', numBefore: 10, numAfter: 0, narrow: [{ operator: 'channel', operand: 'big' }] }).messages as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags]);
  t.same(history, [[first, ['read']], [gap, ['read', 'historical']], [last, []]], 'in the channel with its history, the gap is history');
});

t.test('reading in order keeps no row per message; out of order, a row until read_through passes it', async (t) => {
  const { s, bob, send } = await world(t);
  const sent = [send('a'), send('b'), send('c'), send('d')];
  s.chat.api.messageFlags.update(bob.user_id, { messages: [sent[2]!], op: 'add', flag: 'read' });
  t.same(rows(s, `user_id = ${bob.user_id}`), [[bob.user_id, sent[2], 1]], 'read out of order: a row');
  s.chat.api.messageFlags.update(bob.user_id, { messages: [sent[0]!, sent[1]!], op: 'add', flag: 'read' });
  t.same(rows(s, `user_id = ${bob.user_id}`), [], 'read_through passed them all: no row');
  t.same(ids(s, bob), [[sent[0], ['read']], [sent[1], ['read']], [sent[2], ['read']], [sent[3], []]]);
  s.chat.api.messageFlags.update(bob.user_id, { messages: [sent[1]!], op: 'remove', flag: 'read' });
  t.same(rows(s, `user_id = ${bob.user_id}`), [[bob.user_id, sent[1], 0]], 'unread below read_through: a row');
  t.same(
    (s.chat.api.events.register(bob.user_id, { eventTypes: ['message', 'update_message_flags'] }) as { unread_msgs: { streams: { unread_message_ids: number[] }[] } }).unread_msgs.streams[0]!.unread_message_ids,
    [sent[1], sent[3]],
  );
});

t.test('message_ids with a narrow: the messages had by period among them, with their flags, as the rows are', async (t) => {
  const { s, bob, send } = await world(t);
  const sent = [send('a'), send('hello @**Bob Brown**'), send('c'), send('d')];
  s.chat.api.messageFlags.update(bob.user_id, { messages: [sent[0]!], op: 'add', flag: 'read' });
  const among = (narrow: object[]) =>
    (s.chat.api.messages.list(bob.user_id, { messageIds: [...sent, 9999], narrow: narrow as never }).messages as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags]);
  t.same(among([{ operator: 'channel', operand: 'big' }]), [[sent[0], ['read']], [sent[1], ['mentioned']], [sent[2], []], [sent[3], []]], 'rows and periods together');
  t.same(among([{ operator: 'is', operand: 'unread' }]), [[sent[1], ['mentioned']], [sent[2], []], [sent[3], []]], 'is:unread: after read_through');
  t.same(among([{ operator: 'is', operand: 'dm' }]), [], 'none is a direct message');
  const viaHttp = await s.request('GET', '/messages', { as: bob, params: { message_ids: [sent[2], sent[3]], narrow: [{ operator: 'is', operand: 'unread' }] } });
  t.same(viaHttp.body.messages.map((m: { id: number }) => m.id), [sent[2], sent[3]], 'over HTTP');
});

t.test('a message id is never handed out twice, the newest one deleted or not', async (t) => {
  const { s, bob, send } = await world(t);
  const a = send('a');
  s.chat.api.messages.delete(s.owner.user_id, { messageId: a });
  s.chat.api.streams.unsubscribe(bob.user_id, { subscriptions: ['big'] });
  const b = send('b');
  t.ok(b > a, `${b} after ${a}`);
  t.same(ids(s, bob), [], 'a message sent after one left is not theirs');
});
