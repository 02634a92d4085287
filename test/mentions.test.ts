// Mentions set flags on recipients' rows: user mentions by name and by id,
// silent mentions, group mentions, channel wildcards and the topic wildcard with Zulip's topic
// participants; mentions in code are not mentions. Over HTTP and in-process.
import t, { type Test } from 'tap';
import { FLAG } from '../lib/domain/flags.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { flagBits, ok, sendToStream, subscribe } from './messaging_helpers.js';

async function world(t: Test) {
  const s = await startServer();
  t.teardown(() => s.close());
  const alice = await s.user('member', { fullName: 'Alice Anders' });
  const bob = await s.user('member', { fullName: 'Bob Brown' });
  const carol = await s.user('member', { fullName: 'Carol Clark' });
  const dave = await s.user('member', { fullName: 'Dave Doe' });
  ok(t, await subscribe(s, alice, ['general'], { principals: [alice.user_id, bob.user_id, carol.user_id, dave.user_id] }));
  return { s, alice, bob, carol, dave };
}

const WILDCARD = FLAG.stream_wildcard_mentioned;

/** Sends over HTTP and the same content in-process; returns both message ids. */
async function sendBoth(s: TestServer, from: TestUser, content: string, topic = 'talk'): Promise<[number, number]> {
  const viaHttp = await sendToStream(s, from, 'general', topic, content);
  const inProcess = s.chat.api.messages.send(from.user_id, { type: 'stream', to: 'general', topic, content }).id;
  return [viaHttp, inProcess];
}

function expectFlags(t: Test, s: TestServer, ids: readonly number[], expected: Record<number, number>, label: string): void {
  for (const id of ids) {
    for (const [userId, bits] of Object.entries(expected)) t.equal(flagBits(s, Number(userId), id), bits, `${label} (message ${id}, user ${userId})`);
  }
}

async function apiFlags(s: TestServer, user: TestUser, id: number): Promise<string[]> {
  return (await s.request('GET', `/messages/${id}`, { as: user })).body.message.flags as string[];
}

t.test('@**Full Name** mentions that user only, case-insensitively; the flag list says mentioned', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  const ids = await sendBoth(s, alice, 'hi @**bob brown**, how are you');
  expectFlags(t, s, ids, { [bob.user_id]: FLAG.mentioned, [carol.user_id]: 0, [alice.user_id]: 0 }, 'by name');
  t.same(await apiFlags(s, bob, ids[0]), ['mentioned']);
  const html = s.chat.api.messages.get(bob.user_id, { messageId: ids[1] }).message.content;
  t.equal(html, `<p>hi <span class="user-mention" data-user-id="${bob.user_id}">@Bob Brown</span>, how are you</p>`);
});

t.test('@**Full Name|id** and @**|id** mention by id; a name that does not match the id mentions nobody', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  expectFlags(t, s, await sendBoth(s, alice, `@**Bob Brown|${bob.user_id}**`), { [bob.user_id]: FLAG.mentioned }, 'name|id');
  expectFlags(t, s, await sendBoth(s, alice, `@**|${carol.user_id}**`), { [carol.user_id]: FLAG.mentioned }, '|id');
  expectFlags(t, s, await sendBoth(s, alice, `@**Bob Brown|${carol.user_id}**`), { [bob.user_id]: 0, [carol.user_id]: 0 }, 'mismatched name|id');
  expectFlags(t, s, await sendBoth(s, alice, '@**Nobody Here**'), { [bob.user_id]: 0 }, 'unknown names stay text');
});

t.test('names resolve as they are now: a user added or renamed a moment ago, later ids win on a shared name, non-ASCII names fold case too', async (t) => {
  const { s, alice, bob, carol, dave } = await world(t);
  expectFlags(t, s, await sendBoth(s, alice, '@**Bob Brown**'), { [bob.user_id]: FLAG.mentioned }, 'before the changes');
  ok(t, await s.request('PATCH', `/users/${carol.user_id}`, { as: s.owner, params: { full_name: 'Bob Brown' } }));
  expectFlags(t, s, await sendBoth(s, alice, '@**BOB BROWN**'), { [bob.user_id]: 0, [carol.user_id]: FLAG.mentioned }, 'the later id of two Bob Browns');
  ok(t, await s.request('PATCH', `/users/${dave.user_id}`, { as: s.owner, params: { full_name: 'Élodie Ñúñez' } }));
  expectFlags(t, s, await sendBoth(s, alice, '@**élodie ñúñez**'), { [dave.user_id]: FLAG.mentioned }, 'a non-ASCII name, other case');
  const erin = await s.user('member', { fullName: 'Erin Eve' });
  ok(t, await subscribe(s, erin, ['general']));
  expectFlags(t, s, await sendBoth(s, alice, '@**erin eve** and @**Élodie Ñúñez**'), { [erin.user_id]: FLAG.mentioned, [dave.user_id]: FLAG.mentioned }, 'a user added a moment ago');
});

t.test('silent mentions @_**Full Name** render but set no flag', async (t) => {
  const { s, alice, bob } = await world(t);
  const ids = await sendBoth(s, alice, 'thanks @_**Bob Brown**');
  expectFlags(t, s, ids, { [bob.user_id]: 0 }, 'silent');
  t.equal(s.chat.api.messages.get(bob.user_id, { messageId: ids[0] }).message.content, `<p>thanks <span class="user-mention silent" data-user-id="${bob.user_id}">Bob Brown</span></p>`);
});

t.test('@*group* mentions every member of the group (mentioned); @_*group* is silent', async (t) => {
  const { s, alice, bob, carol, dave } = await world(t);
  s.chat.api.userGroups.create(alice.user_id, { name: 'reviewers', description: '', members: [bob.user_id, carol.user_id] });
  expectFlags(t, s, await sendBoth(s, alice, 'ping @*Reviewers*'), { [bob.user_id]: FLAG.mentioned, [carol.user_id]: FLAG.mentioned, [dave.user_id]: 0 }, 'group');
  expectFlags(t, s, await sendBoth(s, alice, 'fyi @_*reviewers*'), { [bob.user_id]: 0, [carol.user_id]: 0 }, 'silent group');
  expectFlags(t, s, await sendBoth(s, alice, '@*no such group*'), { [bob.user_id]: 0 }, 'unknown group');
});

t.test('@**all**, @**everyone**, @**channel**, @**stream** set stream_wildcard_mentioned (and wildcard_mentioned) for every recipient', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  for (const word of ['all', 'everyone', 'channel', 'stream']) {
    const ids = await sendBoth(s, alice, `@**${word}** standup now`);
    expectFlags(t, s, ids, { [alice.user_id]: WILDCARD, [bob.user_id]: WILDCARD, [carol.user_id]: WILDCARD }, `@**${word}**`);
  }
  const [id] = await sendBoth(s, alice, '@**all**');
  t.same(await apiFlags(s, bob, id), ['stream_wildcard_mentioned', 'wildcard_mentioned'], 'the deprecated wildcard_mentioned is reported too');
  expectFlags(t, s, await sendBoth(s, alice, '@_**all** silently'), { [bob.user_id]: 0 }, 'silent wildcard');
});

t.test('@**topic** sets topic_wildcard_mentioned for the topic\'s participants only (its senders and the sender)', async (t) => {
  const { s, alice, bob, carol, dave } = await world(t);
  await sendToStream(s, bob, 'general', 'Release', 'I am in this topic');
  await sendToStream(s, carol, 'general', 'other topic', 'not this one');
  const ids = await sendBoth(s, alice, '@**topic** release in 5', 'release');
  const topicFlag = FLAG.topic_wildcard_mentioned;
  expectFlags(t, s, ids, { [alice.user_id]: topicFlag, [bob.user_id]: topicFlag, [carol.user_id]: 0, [dave.user_id]: 0 }, 'participants (topics match case-insensitively)');
  t.same(await apiFlags(s, bob, ids[0]), ['topic_wildcard_mentioned', 'wildcard_mentioned']);
  const fresh = await sendBoth(s, dave, '@**topic** anyone?', 'brand new topic');
  expectFlags(t, s, [fresh[0]], { [dave.user_id]: topicFlag, [alice.user_id]: 0 }, 'a new topic: the sender alone');
});

t.test('PATCH /messages/{id} recomputes topic_wildcard_mentioned (@**topic**) and a group mention\'s mentioned (@*group*)', async (t) => {
  const { s, alice, bob, carol, dave } = await world(t);
  s.chat.api.userGroups.create(alice.user_id, { name: 'reviewers', description: '', members: [carol.user_id, dave.user_id] });
  await sendToStream(s, bob, 'general', 'release', 'I am in this topic');
  const ids = await sendBoth(s, alice, 'plain', 'release');
  const topicFlag = FLAG.topic_wildcard_mentioned;
  const edits: [string, Record<number, number>, string][] = [
    ['@**topic** ship it', { [alice.user_id]: topicFlag, [bob.user_id]: topicFlag, [carol.user_id]: 0, [dave.user_id]: 0 }, '@**topic**: the participants'],
    ['ping @*reviewers*', { [alice.user_id]: 0, [bob.user_id]: 0, [carol.user_id]: FLAG.mentioned, [dave.user_id]: FLAG.mentioned }, '@*group*: its members'],
    ['nothing special', { [alice.user_id]: 0, [bob.user_id]: 0, [carol.user_id]: 0, [dave.user_id]: 0 }, 'no mention any more'],
  ];
  for (const [content, expected, label] of edits) {
    ok(t, await s.request('PATCH', `/messages/${ids[0]}`, { as: alice, params: { content } }));
    s.chat.api.messages.edit(alice.user_id, { messageId: ids[1], content });
    expectFlags(t, s, ids, expected, label);
  }
  t.same(await apiFlags(s, carol, ids[0]), [], 'the flags GET /messages/{id} reports follow the edit');
});

t.test('mentions in code spans and blocks are not mentions; a mention must follow a space or punctuation', async (t) => {
  const { s, alice, bob } = await world(t);
  expectFlags(t, s, await sendBoth(s, alice, '`@**Bob Brown**`'), { [bob.user_id]: 0 }, 'code span');
  expectFlags(t, s, await sendBoth(s, alice, '```\n@**Bob Brown** @**all**\n```'), { [bob.user_id]: 0 }, 'code block');
  expectFlags(t, s, await sendBoth(s, alice, 'email@**Bob Brown**'), { [bob.user_id]: 0 }, 'after a letter');
  expectFlags(t, s, await sendBoth(s, alice, '(@**Bob Brown**)'), { [bob.user_id]: FLAG.mentioned }, 'after a parenthesis');
});

t.test('a mentioned generic bot gets a row although not subscribed (Zulip), already read (API doc 2.2)', async (t) => {
  const { s, alice } = await world(t);
  const bot = await s.chat.admin.addUser({ email: 'helper-bot@example.com', fullName: 'Helper Bot', bot: true, botOwnerId: alice.user_id });
  const [id] = await sendBoth(s, alice, '@**Helper Bot** do things');
  t.equal(flagBits(s, bot.user_id, id), FLAG.mentioned | FLAG.read, 'no unread message outside its channels');
  const plain = await sendToStream(s, alice, 'general', 't', 'no mention');
  t.equal(flagBits(s, bot.user_id, plain), undefined);
});

t.test('direct messages: a mention sets mentioned for that participant', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  const id = s.chat.api.messages.send(alice.user_id, { type: 'direct', to: [bob.user_id, carol.user_id], content: '@**Carol Clark** see this' }).id;
  t.equal(flagBits(s, carol.user_id, id), FLAG.mentioned | FLAG.is_private);
  t.equal(flagBits(s, bob.user_id, id), FLAG.is_private);
  t.same(await apiFlags(s, carol, id), ['mentioned'], 'is_private is never shown');
});
