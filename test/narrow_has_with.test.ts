// The has:link, has:image and has:attachment narrows (set when a message is rendered, kept on
// edit), the `with` operator of GET /messages (Zulip's update_narrow_terms_containing_with_operator)
// and the is: operands parley does not model; is:starred in every query shape (it walks the
// user's starred_message rows when it can). Each rule over HTTP and in-process.
import t from 'tap';
import { startServer, type TestServer } from './helpers.js';
import { isError, memberPair, ok, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';
import { badNarrow, narrowFails, narrowed, narrowedIds, search } from './narrow_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

const has = (operand: string, negated = false) => ({ operator: 'has', operand, negated });
const inChannel = (channel: string) => ({ operator: 'channel', operand: channel });
const withId = (operand: unknown) => ({ operator: 'with', operand });

t.test('has:link, has:image and has:attachment follow the rendered message, negated too', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'has');
  const plain = await sendToStream(s, alice, channel, 't', 'no links here, not even example.org/x');
  const link = await sendToStream(s, alice, channel, 't', 'see https://example.com');
  const upload = await sendToStream(s, alice, channel, 't', '[report](/user_uploads/2/ab/report.pdf)');
  const image = await sendToStream(s, alice, channel, 't', '![chart](/user_uploads/2/cd/chart.png)');
  const ids = (narrow: unknown[]) => narrowedIds(t, s, alice, [inChannel(channel), ...narrow]);
  t.same(await ids([has('link')]), [link, upload], 'links');
  t.same(await ids([has('attachment')]), [upload, image], 'links to and images of uploaded files');
  t.same(await ids([has('image')]), [image], 'inline images');
  t.same(await ids([has('link', true)]), [plain, image], 'negated');
  t.same(await ids([has('link'), has('attachment')]), [upload], 'combined');
});

t.test('an edit recomputes has:link', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'hasedit');
  const id = await sendToStream(s, alice, channel, 't', 'plain');
  const links = () => narrowedIds(t, s, alice, [inChannel(channel), has('link')]);
  t.same(await links(), []);
  ok(t, await s.request('PATCH', `/messages/${id}`, { as: alice, params: { content: 'now with https://example.com' } }));
  t.same(await links(), [id], 'gained');
  s.chat.api.messages.edit(alice.user_id, { messageId: id, content: 'plain again' });
  t.same(await links(), [], 'lost');
});

t.test('with:<id> of a channel message narrows to its channel and current topic, replacing the conversation terms', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'with');
  const first = await sendToStream(s, alice, channel, 'plan', 'one');
  await sendToStream(s, alice, channel, 'elsewhere', 'two');
  const second = await sendToStream(s, bob, channel, 'plan', 'three');
  t.same(await narrowedIds(t, s, alice, [withId(first)]), [first, second], 'the topic of the message');
  t.same(await narrowedIds(t, s, alice, [inChannel('other'), { operator: 'topic', operand: 'x' }, withId(String(second))]), [first, second], 'the narrow\'s own conversation terms give way');
  t.same(await narrowedIds(t, s, alice, [withId(` ${first} `), { operator: 'sender', operand: bob.user_id }]), [second], 'other terms stay');
  s.chat.api.messages.edit(alice.user_id, { messageId: first, topic: 'moved', propagateMode: 'change_one' });
  t.same(await narrowedIds(t, s, alice, [withId(first)]), [first], 'the current topic, after a move');
});

t.test('with:<id> of a direct message narrows to that conversation', async (t) => {
  const alice = await s.user('member');
  const bob = await s.user('member');
  const carol = await s.user('member');
  const one = await sendDirect(s, alice, [bob.user_id], 'hi bob');
  const group = await sendDirect(s, alice, [bob.user_id, carol.user_id], 'hi both');
  const reply = await sendDirect(s, bob, [alice.user_id], 'hi alice');
  t.same(await narrowedIds(t, s, bob, [withId(one)]), [one, reply], 'the 1:1 conversation, seen by its recipient');
  t.same(await narrowedIds(t, s, alice, [withId(reply)]), [one, reply], 'and by its sender');
  t.same(await narrowedIds(t, s, carol, [withId(group)]), [group], 'a group conversation');
});

t.test('with: errors and inaccessible messages', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'withbad');
  const visible = await sendToStream(s, alice, channel, 'open', 'hello');
  ok(t, await subscribe(s, alice, [`${channel}-secret`], { invite_only: true }));
  const hidden = await sendToStream(s, alice, `${channel}-secret`, 'hush', 'secret');
  const carol = await s.user('member');
  const invalid = badNarrow("Invalid 'with' operator");
  await narrowFails(t, s, carol, [withId('abc')], invalid);
  await narrowFails(t, s, carol, [withId('1.5')], invalid);
  await narrowFails(t, s, carol, [withId(hidden)], invalid);
  await narrowFails(t, s, carol, [withId(99_999_999)], invalid);
  await narrowFails(t, s, carol, [withId(visible), withId(visible)], {
    status: 400,
    code: 'BAD_NARROW',
    msg: "Invalid narrow operator combination: Duplicate 'with' operators.",
    extra: { desc: "Duplicate 'with' operators." },
  });
  await narrowFails(t, s, carol, [withId([visible])], { status: 400, code: 'BAD_REQUEST', msg: 'operand is not a string or integer' });
  t.same(
    await narrowedIds(t, s, carol, [inChannel(channel), { operator: 'topic', operand: 'open' }, withId(hidden)]),
    [visible],
    'an inaccessible message leaves a narrow that names a conversation itself',
  );
  t.same(await narrowedIds(t, s, carol, [withId(visible)]), [visible], 'a public channel\'s message one never received');
});

t.test('POST /messages/flags/narrow does not resolve with, as Zulip', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'withflags');
  const id = await sendToStream(s, alice, channel, 't', 'x');
  const reply = await s.request('POST', '/messages/flags/narrow', { as: alice, params: { anchor: 'oldest', num_before: 0, num_after: 10, narrow: [withId(id)], op: 'add', flag: 'starred' } });
  isError(t, reply, badNarrow('unknown operator with'));
});

t.test('is:starred: alone, with other terms, negated, in a search and around anchors, each message with its flags', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'stars');
  const ids = [];
  for (const word of ['apple', 'banana', 'apple pie', 'cherry', 'apple tart']) ids.push(await sendToStream(s, bob, channel, word.split(' ')[0]!, word));
  const dm = await sendDirect(s, bob, [alice.user_id], 'apple in private');
  const starredIds = [ids[0]!, ids[2]!, ids[3]!, dm];
  s.chat.api.messageFlags.update(alice.user_id, { messages: starredIds, op: 'add', flag: 'starred' });
  s.chat.api.messageFlags.update(alice.user_id, { messages: [ids[2]!], op: 'add', flag: 'read' });
  const starred = { operator: 'is', operand: 'starred' };
  const notStarred = { operator: 'is', operand: 'starred', negated: true };
  const alone = await narrowed(t, s, alice, [starred]);
  t.same(alone.map((m) => m.id), starredIds, 'alone');
  t.same(
    alone.map((m) => m.flags),
    [['starred'], ['read', 'starred'], ['starred'], ['starred']],
    'each with its own flags',
  );
  t.same(await narrowedIds(t, s, alice, [starred, inChannel(channel)]), starredIds.slice(0, 3), 'with a channel');
  t.same(await narrowedIds(t, s, alice, [starred, { operator: 'is', operand: 'unread' }]), [ids[0], ids[3], dm], 'with is:unread');
  t.same(await narrowedIds(t, s, alice, [inChannel(channel), notStarred]), [ids[1], ids[4]], 'negated');
  t.same(await narrowedIds(t, s, alice, [starred, search('apple')]), [ids[0], ids[2], dm], 'in a search');
  t.same(await narrowedIds(t, s, alice, [notStarred, search('apple')]), [ids[4]], 'negated in a search');
  t.same(await narrowedIds(t, s, alice, [starred], { anchor: ids[2], num_before: 1, num_after: 1 }), [ids[0], ids[2], ids[3]], 'around an anchor');
  t.same(await narrowedIds(t, s, alice, [starred], { anchor: 'first_unread', num_before: 0, num_after: 1 }), [ids[0], ids[2]], 'first_unread, then the next');
  t.same(await narrowedIds(t, s, bob, [starred]), [], "another user's stars are not theirs");
});
