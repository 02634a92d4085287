// Messages: POST /messages, GET /messages, GET /messages/{id}, PATCH /messages/{id} over HTTP and
// in-process: addressing and its errors, the sender's read flag, rendering, anchors and narrows,
// access to history, edits that recompute flags, and the message / update_message events.
import t, { type Test } from 'tap';
import { FLAG } from '../lib/domain/flags.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { bad, bothFail, camelize, first, flagBits, isError, ok, poll, sendDirect, sendToStream, starByHand, subscribe, throwsApiError } from './messaging_helpers.js';
import { checkSchemas, eventsApply } from './messaging_events.js';

const START = 1_700_000_000_000;

async function world(t: Test) {
  let now = START;
  const s = await startServer({ clock: () => now });
  t.teardown(() => s.close());
  const alice = await s.user('member', { fullName: 'Alice Anders' });
  const bob = await s.user('member', { fullName: 'Bob Brown' });
  const carol = await s.user('member', { fullName: 'Carol Clark' });
  const guest = await s.user('guest', { fullName: 'Gina Guest' });
  ok(t, await subscribe(s, alice, ['general'], { principals: [alice.user_id, bob.user_id] }));
  ok(t, await subscribe(s, alice, ['secret'], { invite_only: true, principals: [alice.user_id, bob.user_id] }));
  return { s, alice, bob, carol, guest, advance: (seconds: number) => (now += seconds * 1000) };
}

const streamId = (s: TestServer, name: string): number => s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number;
const send = (s: TestServer, user: TestUser, params: Record<string, unknown>, headers?: Record<string, string>) =>
  s.request('POST', '/messages', { as: user, params, headers });

t.test('a channel message: one row per subscriber, rendered once, returned in Zulip\'s shape', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  const id = ok(t, await send(s, alice, { type: 'stream', to: 'general', topic: 'greetings', content: 'Hello **world**' })).id;
  t.type(id, 'number');
  t.ok(flagBits(s, bob.user_id, id) !== undefined, 'subscriber has a row');
  t.equal(flagBits(s, carol.user_id, id), undefined, 'non-subscriber has none');
  const [message] = ok(t, await s.request('GET', '/messages', { as: bob, params: { anchor: 'newest', num_before: 1, num_after: 0 } })).messages;
  t.match(message, {
    id,
    sender_id: alice.user_id,
    sender_full_name: 'Alice Anders',
    sender_email: alice.email,
    type: 'stream',
    stream_id: streamId(s, 'general'),
    display_recipient: 'general',
    subject: 'greetings',
    topic_links: [],
    timestamp: START / 1000,
    content: '<p>Hello <strong>world</strong></p>',
    content_type: 'text/html',
    flags: [],
    is_me_message: false,
    reactions: [],
    submessages: [],
  });
  const viaApi = s.chat.api.messages.send(alice.user_id, { type: 'channel', to: streamId(s, 'general'), topic: 'greetings', content: 'by id' });
  t.equal(viaApi.id, id + 1, 'type channel and a channel id work in-process');
});

t.test('POST /messages channel errors: unknown channel (by name or id), private channel, empty content, topic and to', async (t) => {
  const { s, alice, carol, guest } = await world(t);
  const fail = (user: TestUser, params: Record<string, unknown>, expected: ReturnType<typeof bad>) =>
    bothFail(t, () => send(s, user, params), () => s.chat.api.messages.send(user.user_id, params as never), expected);
  await fail(alice, { type: 'stream', to: 'nowhere', topic: 't', content: 'x' }, { status: 400, code: 'STREAM_DOES_NOT_EXIST', msg: "Channel 'nowhere' does not exist", extra: { stream: 'nowhere' } });
  await fail(alice, { type: 'stream', to: 9999, topic: 't', content: 'x' }, { status: 400, code: 'STREAM_DOES_NOT_EXIST', msg: "Channel with ID '9999' does not exist", extra: { stream_id: 9999 } });
  await fail(carol, { type: 'stream', to: 'secret', topic: 't', content: 'x' }, bad("Not authorized to send to channel 'secret'"));
  await fail(guest, { type: 'stream', to: 'general', topic: 't', content: 'x' }, bad("Not authorized to send to channel 'general'"));
  await fail(alice, { type: 'stream', to: 'general', topic: 't', content: '  \n ' }, bad('Message must not be empty'));
  await fail(alice, { type: 'stream', to: 'general', topic: 't', content: 'a\u0000b' }, bad('Message must not contain null bytes'));
  await fail(alice, { type: 'stream', to: 'general', content: 'x' }, bad('Missing topic'));
  await fail(alice, { type: 'stream', topic: 't', content: 'x' }, bad('Missing channel'));
  await fail(alice, { type: 'stream', to: ['general', 'secret'], topic: 't', content: 'x' }, bad('Expected exactly one channel'));
  await fail(alice, { type: 'stream', to: true, topic: 't', content: 'x' }, bad('Invalid data type for channel'));
  await fail(alice, { type: 'stream', to: 'general', topic: 'line\nbreak', content: 'x' }, bad('Invalid character in topic, at position 5!'));
  await fail(alice, { type: 'broadcast', to: 'general', topic: 't', content: 'x' }, bad('Invalid type'));
  isError(t, await send(s, alice, { type: 'stream', to: 'general', topic: 't' }), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'content' argument" });
  t.equal(s.db.prepare('SELECT count(*) FROM message').pluck().get(), 0, 'nothing was sent');
});

t.test('topics: stripped, "(no topic)" is the empty topic, truncated to 60 characters; long content truncated', async (t) => {
  const { s, alice } = await world(t);
  const topicOf = (id: number) => s.db.prepare('SELECT topic FROM message WHERE id = ?').pluck().get(id);
  t.equal(topicOf(await sendToStream(s, alice, 'general', '  padded  ', 'x')), 'padded');
  t.equal(topicOf(await sendToStream(s, alice, 'general', '(no topic)', 'x')), '');
  t.equal(topicOf(await sendToStream(s, alice, 'general', 't'.repeat(70), 'x')), 't'.repeat(57) + '...');
  const long = s.chat.api.messages.send(alice.user_id, { type: 'stream', to: 'general', topic: 'x', content: 'y'.repeat(10_050) }).id;
  const stored = s.db.prepare('SELECT content FROM message WHERE id = ?').pluck().get(long) as string;
  t.equal([...stored].length, 10_000);
  t.ok(stored.endsWith('\n[message truncated]'));
});

t.test('direct messages: user ids, emails, a comma-separated string; Zulip\'s errors for recipients', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  const byIds = ok(t, await send(s, alice, { type: 'direct', to: [bob.user_id, carol.user_id], content: 'group' })).id;
  for (const user of [alice, bob, carol]) t.ok(flagBits(s, user.user_id, byIds)! & FLAG.is_private, `a row with is_private for ${user.user_id}`);
  const byEmails = ok(t, await send(s, alice, { type: 'private', to: [bob.email], content: 'one' })).id;
  const byString = ok(t, await send(s, alice, { type: 'direct', to: `${bob.email}`, content: 'two' })).id;
  const messages = ok(t, await s.request('GET', '/messages', { as: bob, params: { anchor: 'newest', num_before: 3, num_after: 0 } })).messages;
  t.same(messages.map((m: { id: number }) => m.id), [byIds, byEmails, byString]);
  t.equal(messages[1].recipient_id, messages[2].recipient_id, 'the same conversation');
  t.same(messages[1].display_recipient.map((r: { id: number }) => r.id), [alice.user_id, bob.user_id].sort((a, b) => a - b));
  t.match(messages[1], { type: 'private', subject: '', display_recipient: [{ email: alice.email, full_name: 'Alice Anders', is_mirror_dummy: false }] });
  const self = s.chat.api.messages.send(alice.user_id, { type: 'direct', to: [alice.user_id], content: 'note to self' }).id;
  t.same(s.chat.api.messages.get(alice.user_id, { messageId: self }).message.display_recipient, [{ id: alice.user_id, email: alice.email, full_name: 'Alice Anders', is_mirror_dummy: false }]);
  const fail = (params: Record<string, unknown>, expected: ReturnType<typeof bad>) =>
    bothFail(t, () => send(s, alice, params), () => s.chat.api.messages.send(alice.user_id, params as never), expected);
  await fail({ type: 'direct', to: [999], content: 'x' }, bad('Invalid user ID 999'));
  await fail({ type: 'direct', to: ['ghost@example.com'], content: 'x' }, bad("Invalid email 'ghost@example.com'"));
  await fail({ type: 'direct', to: [], content: 'x' }, bad('Message must have recipients'));
  await fail({ type: 'direct', content: 'x' }, bad('Message must have recipients'));
  await fail({ type: 'direct', to: [bob.user_id, bob.email], content: 'x' }, bad('Recipient lists may contain emails or user IDs, but not both.'));
  await fail({ type: 'direct', to: 7, content: 'x' }, bad('Invalid data type for recipients'));
  s.chat.admin.deactivateUser(carol.user_id);
  await fail({ type: 'direct', to: [carol.user_id], content: 'x' }, bad(`'${carol.email}' is no longer using Zulip.`));
});

t.test('the sender\'s copy starts read from an interactive client and unread from an API client; read_by_sender overrides', async (t) => {
  const { s, alice, bob } = await world(t);
  const read = (id: number, user: TestUser) => (flagBits(s, user.user_id, id)! & FLAG.read) !== 0;
  const api = await sendToStream(s, alice, 'general', 't', 'from the API');
  t.notOk(read(api, alice), 'API client (User-Agent node): unread for the sender');
  t.notOk(read(api, bob), 'recipients start unread');
  const mobile = ok(t, await send(s, alice, { type: 'stream', to: 'general', topic: 't', content: 'phone' }, { 'user-agent': 'ZulipMobile/27.200 (Android 14)' })).id;
  t.ok(read(mobile, alice), 'ZulipMobile User-Agent: read for the sender');
  const website = ok(t, await send(s, alice, { type: 'stream', to: 'general', topic: 't', content: 'web', client: 'website' })).id;
  t.ok(read(website, alice), 'client=website: read');
  const desktop = ok(t, await send(s, alice, { type: 'stream', to: 'general', topic: 't', content: 'd' }, { 'user-agent': 'ZulipElectron/5.11 Linux' })).id;
  t.ok(read(desktop, alice));
  const spaced = ok(t, await send(s, alice, { type: 'stream', to: 'general', topic: 't', content: 'a' }, { 'user-agent': 'Foo Desktop App/1.0 (Linux)' })).id;
  t.equal(s.chat.api.messages.get(alice.user_id, { messageId: spaced }).message.client, 'Foo Desktop App', "the client is the User-Agent's name, spaces included (Zulip's parse_user_agent)");
  t.ok(read(spaced, alice), 'a name containing "desktop app": read for the sender');
  const suite = ok(t, await send(s, alice, { type: 'stream', to: 'general', topic: 't', content: 's', client: 'test suite' })).id;
  t.notOk(read(suite, alice), 'client "test suite" is an API client (Zulip reads it only under its own test settings)');
  const forcedUnread = ok(t, await send(s, alice, { type: 'stream', to: 'general', topic: 't', content: 'x', read_by_sender: false }, { 'user-agent': 'ZulipMobile/27' })).id;
  t.notOk(read(forcedUnread, alice), 'read_by_sender=false wins over the client');
  const forcedRead = s.chat.api.messages.send(alice.user_id, { type: 'stream', to: 'general', topic: 't', content: 'x', readBySender: true }).id;
  t.ok(read(forcedRead, alice), 'read_by_sender=true in-process');
  const inProcess = s.chat.api.messages.send(alice.user_id, { type: 'stream', to: 'general', topic: 't', content: 'x' }).id;
  t.notOk(read(inProcess, alice), 'in-process calls are an API client');
});

t.test('a bot may post to a private channel its owner is subscribed to; an unsubscribed sender gets no row', async (t) => {
  const { s, alice, carol } = await world(t);
  const bot = await s.chat.admin.addUser({ email: 'poster-bot@example.com', fullName: 'Poster', bot: true, botOwnerId: alice.user_id });
  const id = s.chat.api.messages.send(bot.user_id, { type: 'stream', to: 'secret', topic: 't', content: 'beep' }).id;
  t.equal(flagBits(s, bot.user_id, id), undefined, 'the bot is not subscribed: no row');
  t.ok(flagBits(s, alice.user_id, id) !== undefined);
  const fromOutside = await sendToStream(s, carol, 'general', 't', 'drive-by');
  t.equal(flagBits(s, carol.user_id, fromOutside), undefined, 'Zulip gives rows to subscribers only');
});

t.test('markdown: Zulip-style HTML for paragraphs, emphasis, code, quotes, lists, links; raw HTML escaped', async (t) => {
  const { s, alice } = await world(t);
  const html = (content: string) => {
    const id = s.chat.api.messages.send(alice.user_id, { type: 'stream', to: 'general', topic: 'md', content }).id;
    return s.chat.api.messages.get(alice.user_id, { messageId: id }).message.content;
  };
  t.equal(html('*em* **strong** ~~gone~~ `code`'), '<p><em>em</em> <strong>strong</strong> <del>gone</del> <code>code</code></p>');
  t.equal(html('one\ntwo'), '<p>one<br>\ntwo</p>');
  t.equal(html('> quoted'), '<blockquote>\n<p>quoted</p>\n</blockquote>');
  t.equal(html('- a\n- b'), '<ul>\n<li>a</li>\n<li>b</li>\n</ul>');
  t.equal(html('1. a\n2. b'), '<ol>\n<li>a</li>\n<li>b</li>\n</ol>');
  t.equal(html('[site](https://example.com) https://zulip.com'), '<p><a href="https://example.com">site</a> <a href="https://zulip.com">https://zulip.com</a></p>');
  t.equal(html('```py\nprint(1)\n```'), '<div class="codehilite" data-code-language="py"><pre><span></span><code>print(1)\n</code></pre></div>');
  t.equal(html('<script>alert(1)</script>'), '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  // Zulip's fenced quotes and spoilers hold Markdown (zerver/tests/fixtures/markdown_test_cases.json).
  t.equal(html('```quote\nText in\nmultiple lines.\n```\n\n> Text in a single line.'), '<blockquote>\n<p>Text in<br>\nmultiple lines.</p>\n</blockquote>\n<blockquote>\n<p>Text in a single line.</p>\n</blockquote>');
  t.equal(html('Hamlet said:\n~~~ quote\nTo be or **not** to be.\n\nThat is the question\n~~~'), '<p>Hamlet said:</p>\n<blockquote>\n<p>To be or <strong>not</strong> to be.</p>\n<p>That is the question</p>\n</blockquote>');
  t.equal(html('```spoiler Plot **twist**\nIt was *him*.\n```'), '<div class="spoiler-block"><div class="spoiler-header">\n<p>Plot <strong>twist</strong></p>\n</div><div class="spoiler-content" aria-hidden="true">\n<p>It was <em>him</em>.</p>\n</div></div>');
  t.equal(html('```spoiler\nhidden\n```'), '<div class="spoiler-block"><div class="spoiler-header">\n</div><div class="spoiler-content" aria-hidden="true">\n<p>hidden</p>\n</div></div>');
  const overHttp = ok(t, await send(s, alice, { type: 'stream', to: 'general', topic: 'md', content: '*em* **strong** `code`\n\n> quoted' })).id;
  const fetched = ok(t, await s.request('GET', `/messages/${overHttp}`, { as: alice })).message;
  t.equal(fetched.content, '<p><em>em</em> <strong>strong</strong> <code>code</code></p>\n<blockquote>\n<p>quoted</p>\n</blockquote>', 'sent and fetched over HTTP');
  const [listed] = ok(t, await s.request('GET', '/messages', { as: alice, params: { anchor: overHttp, num_before: 0, num_after: 0 } })).messages;
  t.equal(listed.content, fetched.content, 'GET /messages returns the same HTML');
  const me = s.chat.api.messages.send(alice.user_id, { type: 'stream', to: 'general', topic: 'md', content: '/me waves' }).id;
  t.equal(s.chat.api.messages.get(alice.user_id, { messageId: me }).message.is_me_message, true);
});

t.test("markdown :name: emoji: Zulip's names and aliases become Zulip's emoji span; unknown names and code stay text", async (t) => {
  const { s, alice } = await world(t);
  const span = (name: string, code: string) => {
    const title = name.replaceAll('_', ' ');
    return `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">:${name}:</span>`;
  };
  const cases: [string, string][] = [
    [':thumbs_up:', `<p>${span('thumbs_up', '1f44d')}</p>`],
    ['good :+1: :smile:!', `<p>good ${span('+1', '1f44d')} ${span('smile', '1f642')}!</p>`],
    [':heart::octopus:', `<p>${span('heart', '2764')}${span('octopus', '1f419')}</p>`],
    [':thumbsup: (the emoji-datasource name)', `<p>${span('thumbsup', '1f44d')} (the emoji-datasource name)</p>`],
    [':no_such_emoji: at 10:30:45', '<p>:no_such_emoji: at 10:30:45</p>'],
    ['`:smile:`', '<p><code>:smile:</code></p>'],
    ['**:tada:**', `<p><strong>${span('tada', '1f389')}</strong></p>`],
  ];
  for (const [content, html] of cases) {
    const reply = ok(t, await s.request('POST', '/messages/render', { as: alice, params: { content } }));
    t.equal(reply.rendered, html, content);
    t.same(s.chat.api.messages.render(alice.user_id, { content }), { rendered: html }, `in-process: ${content}`);
  }
  const sent = ok(t, await send(s, alice, { type: 'stream', to: 'general', topic: 'emoji', content: ':like:' })).id;
  t.equal(ok(t, await s.request('GET', `/messages/${sent}`, { as: alice })).message.content, `<p>${span('like', '1f44d')}</p>`, 'sent messages too');
});

async function fiveMessages(s: TestServer, alice: TestUser): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 1; i <= 5; i++) ids.push(await sendToStream(s, alice, 'general', 'counting', `message ${i}`));
  return ids;
}

t.test('POST /messages/render: the HTML without sending anything', async (t) => {
  const { s, alice, bob } = await world(t);
  const body = ok(t, await s.request('POST', '/messages/render', { as: alice, params: { content: '**hi** @**Bob Brown**' } }));
  t.equal(body.rendered, `<p><strong>hi</strong> <span class="user-mention" data-user-id="${bob.user_id}">@Bob Brown</span></p>`);
  t.same(s.chat.api.messages.render(alice.user_id, { content: '`x`' }), { rendered: '<p><code>x</code></p>' });
  t.equal(s.db.prepare('SELECT count(*) FROM message').pluck().get(), 0);
  isError(t, await s.request('POST', '/messages/render', { as: alice }), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'content' argument" });
});

t.test('GET /messages anchors: newest, oldest, an id, first_unread; include_anchor; found_anchor/oldest/newest', async (t) => {
  const { s, alice, bob } = await world(t);
  const ids = await fiveMessages(s, alice);
  const get = async (params: Record<string, unknown>) => ok(t, await s.request('GET', '/messages', { as: bob, params }));
  const idsOf = (body: Record<string, any>) => body.messages.map((m: { id: number }) => m.id);
  let body = await get({ anchor: 'newest', num_before: 2, num_after: 0 });
  t.same(idsOf(body), ids.slice(3));
  t.match(body, { anchor: 10000000000000000, found_anchor: false, found_oldest: false, found_newest: true, history_limited: false });
  body = await get({ anchor: 'oldest', num_before: 0, num_after: 10 });
  t.same(idsOf(body), ids);
  t.match(body, { anchor: 0, found_oldest: true, found_newest: true, found_anchor: false });
  body = await get({ anchor: ids[2], num_before: 1, num_after: 1 });
  t.same(idsOf(body), ids.slice(1, 4));
  t.match(body, { anchor: ids[2], found_anchor: true, found_oldest: false, found_newest: false });
  body = await get({ anchor: ids[2], num_before: 0, num_after: 2, include_anchor: false });
  t.same(idsOf(body), ids.slice(3, 5));
  t.match(body, { found_anchor: false, found_newest: false });
  body = await get({ anchor: ids[2], num_before: 5, num_after: 5 });
  t.match(body, { found_oldest: true, found_newest: true });
  s.db.prepare('UPDATE user_message SET flags = flags | 1 WHERE user_id = ? AND message_id < ?').run(bob.user_id, ids[3]);
  body = await get({ anchor: 'first_unread', num_before: 1, num_after: 1 });
  t.equal(body.anchor, ids[3], 'first_unread: the oldest unread');
  t.same(idsOf(body), ids.slice(2, 5));
  const legacy = s.chat.api.messages.list(bob.user_id, { useFirstUnreadAnchor: true, numBefore: 0, numAfter: 0 });
  t.match(legacy, { anchor: ids[3], found_anchor: true });
  s.db.prepare('UPDATE user_message SET flags = flags | 1 WHERE user_id = ?').run(bob.user_id);
  t.equal((await get({ anchor: 'first_unread', num_before: 1, num_after: 1 })).anchor, 10000000000000000, 'no unread: the newest');
  t.equal(s.chat.api.messages.list(bob.user_id, { anchor: -5, numBefore: 0, numAfter: 1 }).anchor, 0, 'negative anchors mean 0');
});

t.test('first_unread in a channel whose history the user sees: the oldest message the user has an unread row for', async (t) => {
  const { s, alice, carol } = await world(t);
  const general = streamId(s, 'general');
  const before = [];
  for (let i = 0; i < 3; i++) before.push(await sendToStream(s, alice, general, 'old', `before Carol ${i}`));
  // Carol joins: the channel's earlier messages are history to her (no row of hers: read).
  ok(t, await subscribe(s, carol, ['general']));
  const after = [await sendToStream(s, alice, general, 'new', 'after Carol 0'), await sendToStream(s, alice, general, 'new', 'after Carol 1')];
  const get = (params: Record<string, unknown>) => s.request('GET', '/messages', { as: carol, params: { narrow: [{ operator: 'channel', operand: general }], ...params } });
  let body = ok(t, await get({ anchor: 'first_unread', num_before: 5, num_after: 5 }));
  t.equal(body.anchor, after[0], 'the first message she received unread, not the oldest of the history');
  t.same(body.messages.map((m: { id: number }) => m.id), [...before, ...after], 'the history shows before it');
  t.same(body.messages.map((m: { flags: string[] }) => m.flags.includes('read')), [true, true, true, false, false], 'history as read');
  ok(t, await s.request('POST', '/messages/flags', { as: carol, params: { messages: [after[0]], op: 'add', flag: 'read' } }));
  t.equal(ok(t, await get({ anchor: 'first_unread', num_before: 0, num_after: 0 })).anchor, after[1], 'the next unread once it is read');
  t.equal(s.chat.api.messages.list(carol.user_id, { anchor: 'first_unread', numBefore: 0, numAfter: 0, narrow: [{ operator: 'channel', operand: general }] }).anchor, after[1], 'in-process too');
  ok(t, await s.request('POST', '/messages/flags', { as: carol, params: { messages: [after[1]], op: 'add', flag: 'read' } }));
  body = ok(t, await get({ anchor: 'first_unread', num_before: 1, num_after: 0 }));
  t.equal(body.anchor, 10000000000000000, 'none unread: the newest');
  t.same(body.messages.map((m: { id: number }) => m.id), [after[1]]);
});

t.test('GET /messages parameter errors', async (t) => {
  const { s, bob } = await world(t);
  const fail = (params: Record<string, unknown>, expected: ReturnType<typeof bad>) =>
    bothFail(t, () => s.request('GET', '/messages', { as: bob, params }), () => s.chat.api.messages.list(bob.user_id, camelize(params) as never), expected);
  await fail({ num_before: 1, num_after: 1 }, bad("Missing 'anchor' argument."));
  await fail({ anchor: 'soon', num_before: 1, num_after: 1 }, bad('Invalid anchor'));
  await fail({ anchor: 'newest', num_before: 4000, num_after: 1001 }, bad('Too many messages requested (maximum 5000).'));
  await fail({ anchor: 5, num_before: 1, num_after: 1, include_anchor: false }, bad('The anchor can only be excluded at an end of the range'));
  isError(t, await s.request('GET', '/messages', { as: bob, params: { anchor: 'newest', num_after: 0 } }), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'num_before' argument" });
  isError(t, await s.request('GET', '/messages', { as: bob, params: { anchor: 'newest', num_before: -1, num_after: 0 } }), bad('num_before is too small'));
  isError(t, await s.request('GET', '/messages', { as: bob, params: { anchor: 'newest', num_before: 0, num_after: 0, narrow: '{}' } }), bad('narrow is not a list'));
  await fail({ message_ids: [1], anchor: 'newest' }, bad('Unsupported parameter combination: anchor, message_ids'));
  for (const [narrow, error] of [[[[]], 'element is not a string pair'], [[{ operand: 'x' }], 'operator is missing'], [[{ operator: 'is' }], 'operand is missing'], [[null], 'dict or list required']] as const) {
    await fail({ anchor: 'newest', num_before: 1, num_after: 0, narrow }, bad(`Invalid narrow[0]: Value error, ${error}`));
  }
  await fail({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'bogus', operand: 'x' }] }, { status: 400, code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown operator bogus', extra: { desc: 'unknown operator bogus' } });
  await fail({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'channel', operand: 'nowhere' }] }, { status: 400, code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown channel nowhere' });
  await fail({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'is', operand: 'weird' }] }, { status: 400, code: 'BAD_NARROW', msg: "Invalid narrow operator: unknown 'is' operand weird" });
  await fail({ anchor: 'newest', num_before: 1, num_after: 0, narrow: [{ operator: 'sender', operand: 'ghost@example.com' }] }, { status: 400, code: 'BAD_NARROW', msg: 'Invalid narrow operator: unknown user ghost@example.com' });
});

t.test('narrows: channel, topic, dm, sender, is:starred, is:unread, is:mentioned, negation, the legacy pair form', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  ok(t, await subscribe(s, alice, ['other'], { principals: [alice.user_id, bob.user_id] }));
  const g1 = await sendToStream(s, alice, 'general', 'Lunch', 'where?');
  const g2 = await sendToStream(s, bob, 'general', 'lunch', 'here @**Alice Anders**');
  const o1 = await sendToStream(s, alice, 'other', 'misc', 'elsewhere');
  const dm = await sendDirect(s, alice, [bob.user_id], 'just us');
  const dm3 = await sendDirect(s, carol, [alice.user_id, bob.user_id], 'three of us');
  const ids = async (narrow: unknown[]) =>
    ok(t, await s.request('GET', '/messages', { as: alice, params: { anchor: 'newest', num_before: 20, num_after: 0, narrow } })).messages.map((m: { id: number }) => m.id);
  t.same(await ids([{ operator: 'channel', operand: 'general' }]), [g1, g2]);
  t.same(await ids([{ operator: 'stream', operand: streamId(s, 'other') }]), [o1], 'channel by id, legacy name stream');
  t.same(await ids([{ operator: 'channel', operand: 'general' }, { operator: 'topic', operand: 'LUNCH' }]), [g1, g2], 'topics match case-insensitively');
  t.same(await ids([['channel', 'general'], ['topic', 'lunch']]), [g1, g2], 'legacy [operator, operand] pairs');
  t.same(await ids([{ operator: 'dm', operand: [bob.user_id] }]), [dm]);
  t.same(await ids([{ operator: 'dm', operand: `${bob.email},${carol.email}` }]), [dm3]);
  t.same(await ids([{ operator: 'is', operand: 'dm' }]), [dm, dm3]);
  t.same(await ids([{ operator: 'sender', operand: bob.user_id }]), [g2]);
  t.same(await ids([{ operator: 'channel', operand: 'general', negated: true }]), [o1, dm, dm3]);
  t.same(await ids([{ operator: 'is', operand: 'mentioned' }]), [g2]);
  s.db.prepare('UPDATE user_message SET flags = flags | ? WHERE user_id = ? AND message_id = ?').run(FLAG.read, alice.user_id, o1);
  starByHand(s, alice.user_id, o1);
  t.same(await ids([{ operator: 'is', operand: 'starred' }]), [o1]);
  t.same(await ids([{ operator: 'is', operand: 'unread' }]), [g1, g2, dm, dm3], "alice's own messages (API client) stay unread too");
  t.same(await ids([{ operator: 'is', operand: 'unread', negated: true }]), [o1]);
  const viaApi = s.chat.api.messages.list(alice.user_id, { anchor: 'newest', numBefore: 5, numAfter: 0, narrow: [{ operator: 'sender', operand: carol.email }] });
  t.same(viaApi.messages.map((m) => (m as { id: number }).id), [dm3]);
});

t.test('history: a channel narrow shows a public channel\'s messages from before one joined, as read and historical', async (t) => {
  const { s, alice, carol } = await world(t);
  const before = await sendToStream(s, alice, 'general', 't', 'before carol');
  const hidden = await sendToStream(s, alice, 'secret', 't', 'private');
  const unnarrowed = ok(t, await s.request('GET', '/messages', { as: carol, params: { anchor: 'newest', num_before: 10, num_after: 0 } }));
  t.same(unnarrowed.messages, [], 'without a channel narrow only messages one received');
  const narrowed = ok(t, await s.request('GET', '/messages', { as: carol, params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'general' }] } }));
  t.same(narrowed.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]), [[before, ['read', 'historical']]]);
  const secret = ok(t, await s.request('GET', '/messages', { as: carol, params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'secret' }] } }));
  t.same(secret.messages, [], 'a private channel\'s history stays hidden');
  const unread = ok(t, await s.request('GET', '/messages', { as: carol, params: { anchor: 'newest', num_before: 10, num_after: 0, narrow: [{ operator: 'channel', operand: 'general' }, { operator: 'is', operand: 'unread' }] } }));
  t.same(unread.messages, [], 'is: terms only see one\'s own rows');
  const publicOnes = s.chat.api.messages.list(carol.user_id, { anchor: 'newest', numBefore: 10, numAfter: 0, narrow: [{ operator: 'channels', operand: 'public' }] });
  t.same(publicOnes.messages.map((m) => (m as { id: number }).id), [before]);
  t.notOk(hidden === before);
});

t.test('GET /messages with message_ids returns the accessible ones', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  const pub = await sendToStream(s, alice, 'general', 't', 'public');
  const priv = await sendToStream(s, alice, 'secret', 't', 'private');
  const dm = await sendDirect(s, alice, [bob.user_id], 'dm');
  const body = ok(t, await s.request('GET', '/messages', { as: carol, params: { message_ids: [pub, priv, dm, 9999] } }));
  t.same(body.messages.map((m: { id: number; flags: string[] }) => [m.id, m.flags]), [[pub, ['read', 'historical']]]);
  t.notOk('anchor' in body);
  const forBob = s.chat.api.messages.list(bob.user_id, { messageIds: [dm, pub], narrow: [{ operator: 'is', operand: 'dm' }] });
  t.same(forBob.messages.map((m) => (m as { id: number }).id), [dm], 'filtered by the narrow');
});

t.test('GET /messages/{id}: raw_content and the message; Invalid message(s) when it is not accessible', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  const pub = await sendToStream(s, alice, 'general', 't', 'Hi *there*');
  const body = ok(t, await s.request('GET', `/messages/${pub}`, { as: bob }));
  t.equal(body.raw_content, 'Hi *there*');
  t.match(body.message, { id: pub, content: '<p>Hi <em>there</em></p>', content_type: 'text/html', flags: [] });
  const raw = s.chat.api.messages.get(bob.user_id, { messageId: pub, applyMarkdown: false });
  t.match(raw.message, { content: 'Hi *there*', content_type: 'text/x-markdown' });
  t.same(ok(t, await s.request('GET', `/messages/${pub}`, { as: carol })).message.flags, ['read', 'historical'], 'a public channel message without a row');
  const priv = await sendToStream(s, alice, 'secret', 't', 'x');
  const dm = await sendDirect(s, alice, [bob.user_id], 'x');
  for (const id of [priv, dm, 9999]) {
    await bothFail(t, () => s.request('GET', `/messages/${id}`, { as: carol }), () => s.chat.api.messages.get(carol.user_id, { messageId: id }), bad('Invalid message(s)'));
  }
});

t.test('PATCH /messages/{id}: the sender edits content; others may not; Zulip\'s payload checks and time limit', async (t) => {
  const { s, alice, bob, advance } = await world(t);
  const id = await sendToStream(s, alice, 'general', 'plans', 'first draft');
  t.same(ok(t, await s.request('PATCH', `/messages/${id}`, { as: alice, params: { content: 'second **draft**' } })), { result: 'success', msg: '', detached_uploads: [] });
  const edited = s.chat.api.messages.get(alice.user_id, { messageId: id });
  t.match(edited, { raw_content: 'second **draft**', message: { content: '<p>second <strong>draft</strong></p>', last_edit_timestamp: START / 1000 } });
  const fail = (user: TestUser, params: Record<string, unknown>, expected: ReturnType<typeof bad>) =>
    bothFail(t, () => s.request('PATCH', `/messages/${id}`, { as: user, params }), () => s.chat.api.messages.edit(user.user_id, { messageId: id, ...camelize(params) } as never), expected);
  await fail(bob, { content: 'hijack' }, bad("You don't have permission to edit this message"));
  await fail(alice, {}, bad('Nothing to change'));
  await fail(alice, { content: 'x', propagate_mode: 'change_all' }, bad('Invalid propagate_mode without topic edit'));
  await fail(alice, { topic: 'bad\u0001topic' }, bad('Invalid character in topic, at position 4!'));
  const dm = await sendDirect(s, alice, [bob.user_id], 'dm');
  await bothFail(t, () => s.request('PATCH', `/messages/${dm}`, { as: alice, params: { topic: 'x' } }), () => s.chat.api.messages.edit(alice.user_id, { messageId: dm, topic: 'x' }), bad('Direct messages cannot have topics.'));
  await bothFail(t, () => s.request('PATCH', '/messages/9999', { as: alice, params: { content: 'x' } }), () => s.chat.api.messages.edit(alice.user_id, { messageId: 9999, content: 'x' }), bad('Invalid message(s)'));
  t.same(s.chat.api.messages.edit(alice.user_id, { messageId: id, content: '   ' }), { detached_uploads: [] });
  t.equal(s.chat.api.messages.get(alice.user_id, { messageId: id }).raw_content, '(deleted)', 'blank content becomes (deleted)');
  advance(621);
  await fail(alice, { content: 'too late' }, bad('The time limit for editing this message has passed'));
});

t.test('PATCH topics: change_one, change_later, change_all move the topic; update_message events', async (t) => {
  const { s, alice, bob } = await world(t);
  const [a, b, c] = [await sendToStream(s, alice, 'general', 'old', 'a'), await sendToStream(s, bob, 'general', 'old', 'b'), await sendToStream(s, alice, 'general', 'old', 'c')];
  const topicOf = (id: number) => s.db.prepare('SELECT topic FROM message WHERE id = ?').pluck().get(id);
  const reg = (await s.request('POST', '/register', { as: bob, params: { event_types: ['update_message'] } })).body;
  ok(t, await s.request('PATCH', `/messages/${c}`, { as: alice, params: { topic: 'one' } }));
  t.same([topicOf(a), topicOf(b), topicOf(c)], ['old', 'old', 'one']);
  ok(t, await s.request('PATCH', `/messages/${b}`, { as: bob, params: { topic: 'later', propagate_mode: 'change_later' } }));
  t.same([topicOf(a), topicOf(b), topicOf(c)], ['old', 'later', 'one']);
  s.chat.api.messages.edit(bob.user_id, { messageId: b, topic: 'all', propagateMode: 'change_all' });
  t.same([topicOf(a), topicOf(b)], ['old', 'all'], 'change_all moves the whole topic the message is in');
  ok(t, await s.request('PATCH', `/messages/${a}`, { as: bob, params: { topic: 'all', propagate_mode: 'change_all' } }));
  t.same([topicOf(a), topicOf(b)], ['all', 'all']);
  const events = await poll(s, bob, reg);
  checkSchemas(t, events);
  t.match(events[0], { type: 'update_message', user_id: alice.user_id, message_id: c, message_ids: [c], propagate_mode: 'change_one', orig_subject: 'old', subject: 'one', topic_links: [], stream_id: streamId(s, 'general'), stream_name: 'general', rendering_only: false });
  t.notOk('content' in first(events), 'no content fields for a topic edit');
});

t.test('message and update_message events: one per recipient with its flags; content per apply_markdown', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  const html = (await s.request('POST', '/register', { as: bob, params: { event_types: ['message', 'update_message'], apply_markdown: true } })).body;
  const markdown = (await s.request('POST', '/register', { as: bob, params: { event_types: ['message'], apply_markdown: false } })).body;
  const outsider = (await s.request('POST', '/register', { as: carol, params: { event_types: ['message'] } })).body;
  const id = await sendToStream(s, alice, 'general', 't', 'hi @**Bob Brown**');
  ok(t, await s.request('PATCH', `/messages/${id}`, { as: alice, params: { content: 'hi all' } }));
  const events = await poll(s, bob, html);
  checkSchemas(t, events);
  t.match(events[0], { type: 'message', flags: ['mentioned'], message: { id, content_type: 'text/html', content: '<p>hi <span class="user-mention" data-user-id="' + bob.user_id + '">@Bob Brown</span></p>' } });
  t.notOk('_markdown' in events[0]!.message, 'the raw Markdown never reaches clients');
  t.match(events[1], { type: 'update_message', message_id: id, flags: [], orig_content: 'hi @**Bob Brown**', content: 'hi all', rendered_content: '<p>hi all</p>', is_me_message: false });
  const raw = await poll(s, bob, markdown);
  t.match(raw[0], { type: 'message', message: { content: 'hi @**Bob Brown**', content_type: 'text/x-markdown' } });
  t.same(await poll(s, carol, outsider), [], 'non-recipients get nothing');
  await eventsApply(t, s, [alice, bob, carol], async () => {
    await sendToStream(s, bob, 'general', 't', 'max_message_id follows');
    await sendDirect(s, alice, [carol.user_id], 'and a direct message');
  });
});

t.test('edits recompute mentioned, the wildcard flags and has_alert_word; read and starred stay', async (t) => {
  const { s, alice, bob } = await world(t);
  const id = await sendToStream(s, alice, 'general', 't', 'plain');
  s.db.prepare('UPDATE user_message SET flags = flags | ? WHERE user_id = ? AND message_id = ?').run(FLAG.read, bob.user_id, id);
  starByHand(s, bob.user_id, id);
  s.db.prepare('INSERT INTO alert_word (user_id, word) VALUES (?, ?)').run(bob.user_id, 'deploy');
  s.chat.api.messages.edit(alice.user_id, { messageId: id, content: '@**Bob Brown** @**all** deploy now' });
  t.equal(flagBits(s, bob.user_id, id), FLAG.read | FLAG.starred | FLAG.mentioned | FLAG.stream_wildcard_mentioned | FLAG.has_alert_word);
  t.equal(flagBits(s, alice.user_id, id), FLAG.stream_wildcard_mentioned);
  ok(t, await s.request('PATCH', `/messages/${id}`, { as: alice, params: { content: 'nothing special' } }));
  t.equal(flagBits(s, bob.user_id, id), FLAG.read | FLAG.starred, 'only the personal flags remain');
  await throwsApiError(t, () => s.chat.api.messages.edit(bob.user_id, { messageId: id, content: 'x' }), bad("You don't have permission to edit this message"));
});
