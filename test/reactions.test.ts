// Emoji reactions (Zulip's add_reaction / remove_reaction): who may react, how the emoji is named,
// Zulip's errors, the `reactions` of message objects, the `reaction` event and who gets it, and
// the has:reaction narrow. Each rule over HTTP and in-process.
import t from 'tap';
import { z } from 'zod';
import { reactionEventSchemas } from '../lib/domain/reaction_dicts.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { bad, bothFail, memberPair, ok, poll, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';
import { IMAGES } from './user_status_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());
const api = s.chat.api;

const path = (id: number) => `/messages/${id}/reactions`;
const react = (user: TestUser, id: number, params: Record<string, unknown>) => s.request('POST', path(id), { as: user, params });
const unreact = (user: TestUser, id: number, params: Record<string, unknown>) => s.request('DELETE', path(id), { as: user, params });
const reactionsOf = async (user: TestUser, id: number) => (await s.request('GET', `/messages/${id}`, { as: user })).body.message.reactions;

async function uploadEmoji(name: string): Promise<string> {
  await api.realmEmoji.upload(s.owner.user_id, { emojiName: name, files: [{ field: 'f', filename: 'e.png', mimetype: 'image/png', data: IMAGES.png }] });
  const emoji = api.realmEmoji.list(s.owner.user_id).emoji as Record<string, { name: string; id: string }>;
  return Object.values(emoji).find((e) => e.name === name)!.id;
}

t.test('a reaction by name is added and shows in the message object, with the user and the Unicode code', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'react');
  const id = await sendToStream(s, alice, channel, 'hi', 'react to this');
  ok(t, await react(bob, id, { emoji_name: 'octopus' }));
  t.same(await reactionsOf(alice, id), [{ emoji_name: 'octopus', emoji_code: '1f419', reaction_type: 'unicode_emoji', user_id: bob.user_id }]);
  api.reactions.add(alice.user_id, { messageId: id, emojiName: 'heart' });
  const page = ok(t, await s.request('GET', '/messages', { as: alice, params: { anchor: id, num_before: 0, num_after: 0 } }));
  t.same(
    page.messages[0].reactions.map((r: { emoji_name: string; user_id: number }) => [r.emoji_name, r.user_id]),
    [['octopus', bob.user_id], ['heart', alice.user_id]],
    'GET /messages too, oldest first',
  );
});

t.test('name, code and type may all be given; custom emoji and the zulip extra emoji', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'types');
  const id = await sendToStream(s, alice, channel, 'hi', 'types');
  ok(t, await react(alice, id, { emoji_name: 'smile', emoji_code: '1f642', reaction_type: 'unicode_emoji' }));
  const customId = await uploadEmoji('parrot');
  ok(t, await react(alice, id, { emoji_name: 'parrot' }));
  ok(t, await react(alice, id, { emoji_name: 'zulip', emoji_code: 'zulip', reaction_type: 'service_extra_emoji' }));
  t.same(
    (await reactionsOf(alice, id)).map((r: Record<string, unknown>) => [r.emoji_name, r.emoji_code, r.reaction_type]),
    [['smile', '1f642', 'unicode_emoji'], ['parrot', customId, 'realm_emoji'], ['zulip', 'zulip', 'zulip_extra_emoji']],
    "reported with Zulip's type names",
  );
});

t.test("Zulip's errors for a bad emoji, a repeated reaction and a message one cannot read; nothing is written", async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'errors');
  const carol = await s.user('member');
  const id = await sendToStream(s, alice, channel, 'hi', 'errors');
  const dm = await sendDirect(s, alice, [bob.user_id], 'private');
  const cases: [TestUser, number, Record<string, unknown>, ReturnType<typeof bad>][] = [
    [bob, id, { emoji_name: 'no_such_emoji' }, bad("Emoji 'no_such_emoji' does not exist")],
    [bob, id, { emoji_name: 'smile', emoji_code: 'ffffff', reaction_type: 'unicode_emoji' }, bad('Invalid emoji code.')],
    [bob, id, { emoji_name: 'octopus', emoji_code: '1f604', reaction_type: 'unicode_emoji' }, bad('Invalid emoji name.')],
    [bob, id, { emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'bogus' }, bad('Invalid emoji type.')],
    [bob, id, { emoji_name: 'smile', emoji_code: '999', reaction_type: 'realm_emoji' }, bad('Invalid custom emoji.')],
    [carol, dm, { emoji_name: 'smile' }, bad('Invalid message(s)')],
    [bob, 999_999, { emoji_name: 'smile' }, bad('Invalid message(s)')],
  ];
  for (const [user, messageId, params, expected] of cases) {
    const { emoji_name: emojiName, emoji_code: emojiCode, reaction_type: reactionType } = params as Record<string, string>;
    await bothFail(t, () => react(user, messageId, params), () => api.reactions.add(user.user_id, { messageId, emojiName: emojiName!, emojiCode, reactionType }), expected);
  }
  const missing = await react(bob, id, {});
  t.same([missing.status, missing.body.code, missing.body.msg], [400, 'REQUEST_VARIABLE_MISSING', "Missing 'emoji_name' argument"]);
  t.same(await reactionsOf(alice, id), [], 'nothing was added');
  ok(t, await react(bob, id, { emoji_name: 'smile' }));
  await bothFail(
    t,
    () => react(bob, id, { emoji_name: 'smile' }),
    () => api.reactions.add(bob.user_id, { messageId: id, emojiName: 'smile' }),
    { status: 400, code: 'REACTION_ALREADY_EXISTS', msg: 'Reaction already exists.' },
  );
});

t.test("reacting with an emoji code someone used already votes for that reaction, under its name", async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'vote');
  const id = await sendToStream(s, alice, channel, 'hi', 'vote');
  ok(t, await react(alice, id, { emoji_name: 'thumbsup' }));
  ok(t, await react(bob, id, { emoji_name: '+1' }));
  t.same((await reactionsOf(alice, id)).map((r: { emoji_name: string }) => r.emoji_name), ['thumbsup', 'thumbsup']);
});

t.test("Zulip's emoji names: canonical names and aliases (Zulip Terminal's thumbs_up), and the older package names", async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'zulip-names');
  const id = await sendToStream(s, alice, channel, 'hi', 'zulip names');
  // Zulip Terminal's thumbs-up key sends the alias with the code and type.
  ok(t, await react(bob, id, { emoji_name: 'thumbs_up', emoji_code: '1f44d', reaction_type: 'unicode_emoji' }));
  api.reactions.add(alice.user_id, { messageId: id, emojiName: 'heart' });
  ok(t, await react(alice, id, { emoji_name: 'smile' }));
  ok(t, await react(alice, id, { emoji_name: 'big_smile', emoji_code: '1f604', reaction_type: 'unicode_emoji' }));
  ok(t, await react(alice, id, { emoji_name: 'octopus' }));
  // Names the emoji-datasource package gives and Zulip does not are still accepted.
  ok(t, await react(bob, id, { emoji_name: 'grinning_face_with_star_eyes' }));
  t.same(
    (await reactionsOf(alice, id)).map((r: Record<string, unknown>) => [r.emoji_name, r.emoji_code]),
    [['thumbs_up', '1f44d'], ['heart', '2764'], ['smile', '1f642'], ['big_smile', '1f604'], ['octopus', '1f419'], ['grinning_face_with_star_eyes', '1f929']],
    'stored under the name sent, with the code of Zulip\'s map (smile is 1f642 in Zulip, not 1f604)',
  );
  for (const [name, code] of [['+1', '1f44d'], ['like', '1f44d'], ['thumbsup', '1f44d'], ['love', '2764'], ['relaxed', '263a'], ['star-struck', '1f929']] as const) {
    const other = await sendToStream(s, alice, channel, 'hi', `alias ${name}`);
    ok(t, await react(bob, other, { emoji_name: name, emoji_code: code, reaction_type: 'unicode_emoji' }), name);
    t.same((await reactionsOf(alice, other)).map((r: Record<string, unknown>) => [r.emoji_name, r.emoji_code]), [[name, code]], `${name} names ${code}`);
  }
  const fresh = await sendToStream(s, alice, channel, 'hi', 'no reactions yet');
  await bothFail(
    t,
    () => react(bob, fresh, { emoji_name: 'smile', emoji_code: '1f604', reaction_type: 'unicode_emoji' }),
    () => api.reactions.add(bob.user_id, { messageId: fresh, emojiName: 'smile', emojiCode: '1f604', reactionType: 'unicode_emoji' }),
    bad('Invalid emoji name.'),
  );
  ok(t, await unreact(bob, id, { emoji_name: 'thumbs_up' }));
  ok(t, await unreact(alice, id, { emoji_name: 'love', emoji_code: '2764' }));
});

t.test('removing: by name or by code; neither, or a reaction not made, is an error', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'remove');
  const id = await sendToStream(s, alice, channel, 'hi', 'remove');
  ok(t, await react(bob, id, { emoji_name: 'octopus' }));
  ok(t, await react(bob, id, { emoji_name: 'smile' }));
  await bothFail(
    t,
    () => unreact(bob, id, {}),
    () => api.reactions.remove(bob.user_id, { messageId: id }),
    bad('At least one of the following arguments must be present: emoji_name, emoji_code'),
  );
  await bothFail(
    t,
    () => unreact(alice, id, { emoji_name: 'octopus' }),
    () => api.reactions.remove(alice.user_id, { messageId: id, emojiName: 'octopus' }),
    { status: 400, code: 'REACTION_DOES_NOT_EXIST', msg: "Reaction doesn't exist." },
  );
  ok(t, await unreact(bob, id, { emoji_name: 'octopus' }));
  ok(t, await unreact(bob, id, { emoji_code: '1f642' }));
  t.same(await reactionsOf(alice, id), []);
});

t.test('a reaction with a custom emoji that was deactivated since can still be removed', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'deactivated');
  const id = await sendToStream(s, alice, channel, 'hi', 'emoji');
  const code = await uploadEmoji('gone_soon');
  ok(t, await react(alice, id, { emoji_name: 'gone_soon' }));
  api.realmEmoji.deactivate(s.owner.user_id, { emojiName: 'gone_soon' });
  ok(t, await unreact(alice, id, { emoji_code: code, reaction_type: 'realm_emoji' }));
});

t.test('the reaction event reaches who can see the message, in Zulip\'s shape', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'events');
  const outsider = await s.user('member');
  const guest = await s.user('guest');
  const queues = new Map<TestUser, Record<string, any>>();
  for (const user of [alice, bob, outsider, guest]) {
    queues.set(user, ok(t, await s.request('POST', '/register', { as: user, params: { event_types: ['reaction'] } })));
  }
  const id = await sendToStream(s, alice, channel, 'hi', 'events');
  ok(t, await react(bob, id, { emoji_name: 'octopus' }));
  ok(t, await unreact(bob, id, { emoji_name: 'octopus' }));
  for (const user of [alice, bob]) {
    const events = await poll(s, user, queues.get(user)!);
    t.same(events.map((e) => e.op), ['add', 'remove']);
    for (const { id: _eventId, ...event } of events) t.ok(z.union(reactionEventSchemas).safeParse(event).success, 'schema');
    t.match(events[0], {
      type: 'reaction',
      user_id: bob.user_id,
      message_id: id,
      emoji_name: 'octopus',
      emoji_code: '1f419',
      reaction_type: 'unicode_emoji',
      user: { user_id: bob.user_id, email: bob.email },
    });
  }
  t.same(await poll(s, outsider, queues.get(outsider)!), [], 'not to a member who is not subscribed and never read it');
  t.same(await poll(s, guest, queues.get(guest)!), [], 'not to a guest');
});

t.test('reacting to a public channel message one never received puts it in one\'s history; later reactions reach one', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'history');
  const reader = await s.user('member');
  const id = await sendToStream(s, alice, channel, 'hi', 'history');
  ok(t, await react(reader, id, { emoji_name: 'eyes' }));
  const flags = ok(t, await s.request('GET', `/messages/${id}`, { as: reader })).message.flags;
  t.same(flags, ['read', 'historical']);
  const queue = ok(t, await s.request('POST', '/register', { as: reader, params: { event_types: ['reaction'] } }));
  ok(t, await react(alice, id, { emoji_name: 'octopus' }));
  t.equal((await poll(s, reader, queue)).length, 1);
});

t.test('direct messages: the event goes to the conversation only', async (t) => {
  const alice = await s.user('member');
  const bob = await s.user('member');
  const carol = await s.user('member');
  const id = await sendDirect(s, alice, [bob.user_id], 'dm');
  const queue = ok(t, await s.request('POST', '/register', { as: carol, params: { event_types: ['reaction'] } }));
  const bobQueue = ok(t, await s.request('POST', '/register', { as: bob, params: { event_types: ['reaction'] } }));
  ok(t, await react(alice, id, { emoji_name: 'wave' }));
  t.same(await poll(s, carol, queue), []);
  t.equal((await poll(s, bob, bobQueue)).length, 1);
});

t.test('has:reaction narrows to messages with a reaction; negated, to those without', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'narrow');
  const plain = await sendToStream(s, alice, channel, 'n', 'plain');
  const liked = await sendToStream(s, alice, channel, 'n', 'liked');
  ok(t, await react(alice, liked, { emoji_name: 'heart' }));
  const ids = async (narrow: unknown[]) =>
    ok(t, await s.request('GET', '/messages', { as: alice, params: { anchor: 'newest', num_before: 10, num_after: 0, narrow } })).messages.map((m: { id: number }) => m.id);
  t.same(await ids([{ operator: 'channel', operand: channel }, { operator: 'has', operand: 'reaction' }]), [liked]);
  t.same(await ids([{ operator: 'channel', operand: channel }, { operator: 'has', operand: 'reaction', negated: true }]), [plain]);
  const bogus = await s.request('GET', '/messages', { as: alice, params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'has', operand: 'bogus' }] } });
  t.same([bogus.status, bogus.body.code, bogus.body.msg], [400, 'BAD_NARROW', "Invalid narrow operator: unknown 'has' operand bogus"]);
});

t.test('subscribing guests and private channels: a subscribed guest reacts and hears of reactions', async (t) => {
  const alice = await s.user('member');
  const guest = await s.user('guest');
  ok(t, await subscribe(s, alice, ['private-reactions'], { principals: [alice.user_id, guest.user_id], invite_only: true }));
  const queue = ok(t, await s.request('POST', '/register', { as: guest, params: { event_types: ['reaction'] } }));
  const id = await sendToStream(s, alice, 'private-reactions', 'p', 'secret');
  ok(t, await react(guest, id, { emoji_name: 'tada' }));
  ok(t, await react(alice, id, { emoji_name: 'tada' }));
  t.equal((await poll(s, guest, queue)).length, 2);
});

t.test("the reaction event names the reacting user by the email the viewers may see", async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'hidden');
  ok(t, await s.request('PATCH', '/settings', { as: bob, params: { email_address_visibility: 3 } }));
  const queue = ok(t, await s.request('POST', '/register', { as: alice, params: { event_types: ['reaction'] } }));
  const id = await sendToStream(s, alice, channel, 'hi', 'hidden email');
  ok(t, await react(bob, id, { emoji_name: 'octopus' }));
  const [event] = await poll(s, alice, queue);
  t.match(event!.user.email, new RegExp(`^user${bob.user_id}@`), 'the API email, not the real one');
  t.not(event!.user.email, bob.email);
});
