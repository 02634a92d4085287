// POST /messages/flags over HTTP and in-process: parameters and the
// check order of Zulip's errors, the state table row by row, the unread invariant and
// ignored_because_not_subscribed_channels, historical rows, Invalid message(s), the list limit.
import t from 'tap';
import { FLAG } from '../lib/domain/flags.js';
import { MAX_FLAG_MESSAGES } from '../lib/domain/message_flags.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { bad, bothFail, flagBits, memberPair, ok, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

/** Fresh users and a fresh public channel they are both subscribed to. */
const world = () => memberPair(t, s, 'flags');

const streamId = (name: string): number => s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number;

const flagsHttp = (user: TestUser, params: Record<string, unknown>) => s.request('POST', '/messages/flags', { as: user, params });
const flagsApi = (user: TestUser, params: Record<string, unknown>) => s.chat.api.messageFlags.update(user.user_id, params as never);

/** The same request over HTTP and in-process must fail the same way. */
const fails = (user: TestUser, params: Record<string, unknown>, expected: ReturnType<typeof bad>) =>
  bothFail(t, () => flagsHttp(user, params), () => flagsApi(user, params), expected);

type Way = 'HTTP' | 'in-process';

/** The request over HTTP, then in-process (params may differ by way, e.g. a fresh message each), both succeeding. */
async function both(
  user: TestUser,
  params: Record<string, unknown> | ((how: Way) => Record<string, unknown>),
  check: (body: Record<string, any>, how: Way) => void,
): Promise<void> {
  const paramsFor = (how: Way) => (typeof params === 'function' ? params(how) : params);
  check(ok(t, await flagsHttp(user, paramsFor('HTTP')), 'HTTP succeeds'), 'HTTP');
  check({ result: 'success', msg: '', ...flagsApi(user, paramsFor('in-process')) }, 'in-process');
}

/** The API flag list GET /messages/{id} reports. */
async function apiFlags(user: TestUser, id: number): Promise<string[]> {
  return ok(t, await s.request('GET', `/messages/${id}`, { as: user })).message.flags;
}

const missing = (name: string) => ({ status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: `Missing '${name}' argument`, extra: { var_name: name } });

t.test('missing parameters are reported in order flag, messages, op', async (t) => {
  const { alice } = await world();
  await fails(alice, {}, missing('flag'));
  await fails(alice, { op: 'add', messages: [] }, missing('flag'));
  await fails(alice, { flag: 'read', op: 'add' }, missing('messages'));
  await fails(alice, { flag: 'read', messages: [] }, missing('op'));
  t.end();
});

t.test('messages must be a JSON list of integers; an empty list is allowed', async (t) => {
  const { alice } = await world();
  const base = { flag: 'read', op: 'add' };
  t.has(await flagsHttp(alice, { ...base, messages: '[1,' }), { status: 400, body: { code: 'BAD_REQUEST', msg: 'messages is not valid JSON' } });
  await fails(alice, { ...base, messages: 5 }, bad('messages is not a list'));
  await fails(alice, { ...base, messages: [1, 'two'] }, bad('messages[1] is not an integer'));
  await fails(alice, { ...base, messages: [1, 2.5] }, bad('messages[1] is not an integer'));
  await both(alice, { ...base, messages: [] }, (body, how) => t.same(body.messages, [], `${how}: empty list`));
});

t.test(`messages holds at most ${MAX_FLAG_MESSAGES} ids`, async (t) => {
  const { alice } = await world();
  const tooMany = Array.from({ length: MAX_FLAG_MESSAGES + 1 }, (_, i) => i + 1);
  await fails(alice, { flag: 'read', op: 'add', messages: tooMany }, bad(`messages is too long (limit: ${MAX_FLAG_MESSAGES} items)`));
  const atLimit = tooMany.slice(0, MAX_FLAG_MESSAGES);
  t.equal(ok(t, await flagsHttp(alice, { flag: 'read', op: 'add', messages: atLimit })).messages.length, MAX_FLAG_MESSAGES, 'the limit itself is accepted');
});

t.test("unknown flags, wildcard_mentioned and internal flags: Invalid flag: '<flag>' (checked first)", async (t) => {
  const { alice } = await world();
  for (const flag of ['bogus', 'wildcard_mentioned', 'is_private', 'active_mobile_push_notification', 'Read', '']) {
    await fails(alice, { flag, op: 'toggle', messages: [] }, bad(`Invalid flag: '${flag}'`));
  }
});

t.test("flags only edits change: Flag not editable: '<flag>' (before the operation)", async (t) => {
  const { alice } = await world();
  const flags = ['mentioned', 'stream_wildcard_mentioned', 'topic_wildcard_mentioned', 'group_mentioned', 'has_alert_word', 'historical', 'force_expand', 'force_collapse'];
  for (const flag of flags) await fails(alice, { flag, op: 'toggle', messages: [] }, bad(`Flag not editable: '${flag}'`));
});

t.test("op other than add or remove: Invalid message flag operation: '<op>'", async (t) => {
  const { alice } = await world();
  for (const op of ['toggle', 'Add', '']) await fails(alice, { flag: 'starred', op, messages: [] }, bad(`Invalid message flag operation: '${op}'`));
});

t.test('state table: add read marks unread messages read; the response echoes the request list', async (t) => {
  const { alice, bob, channel } = await world();
  const ids = [await sendToStream(s, alice, channel, 't', 'one'), await sendToStream(s, alice, channel, 't', 'two')];
  const dm = await sendDirect(s, alice, [bob.user_id], 'psst');
  t.equal(flagBits(s, bob.user_id, ids[0]!), 0, 'received messages start unread');
  const request = [ids[0]!, dm, 999999, ids[0]!];
  t.same(ok(t, await flagsHttp(bob, { messages: request, op: 'add', flag: 'read' })), { result: 'success', msg: '', messages: request }, 'messages echoes the list as sent; no ignored field');
  t.equal(flagBits(s, bob.user_id, ids[0]!), FLAG.read);
  t.equal(flagBits(s, bob.user_id, dm), FLAG.read | FLAG.is_private);
  t.equal(flagBits(s, bob.user_id, ids[1]!), 0, 'unlisted messages are unchanged');
  t.same(s.chat.api.messageFlags.update(bob.user_id, { messages: [ids[1]!], op: 'add', flag: 'read' }), { messages: [ids[1]!] });
  t.same(await apiFlags(bob, ids[1]!), ['read']);
});

t.test('state table: remove read marks read messages of subscribed channels and direct messages unread', async (t) => {
  const { alice, bob, channel } = await world();
  const id = await sendToStream(s, alice, channel, 't', 'x');
  const dm = await sendDirect(s, alice, [bob.user_id], 'y');
  flagsApi(bob, { messages: [id, dm], op: 'add', flag: 'read' });
  t.same(ok(t, await flagsHttp(bob, { messages: [id, dm], op: 'remove', flag: 'read' })), {
    result: 'success',
    msg: '',
    messages: [id, dm],
    ignored_because_not_subscribed_channels: [],
  });
  t.equal(flagBits(s, bob.user_id, id), 0);
  t.equal(flagBits(s, bob.user_id, dm), FLAG.is_private);
  t.same(await apiFlags(bob, id), []);
});

t.test('state table: remove read in a channel the user is not subscribed to leaves it read and lists the channel once', async (t) => {
  const { alice, bob, channel } = await world();
  const other = `${channel}-other`;
  ok(t, await subscribe(s, alice, [other], { principals: [alice.user_id, bob.user_id] }));
  const a1 = await sendToStream(s, alice, channel, 't', 'a1');
  const a2 = await sendToStream(s, alice, channel, 'u', 'a2');
  const b1 = await sendToStream(s, alice, other, 't', 'b1');
  const kept = await sendToStream(s, alice, other, 't', 'kept');
  flagsApi(bob, { messages: [a1, a2, b1, kept], op: 'add', flag: 'read' });
  ok(t, await s.request('DELETE', '/users/me/subscriptions', { as: bob, params: { subscriptions: [channel] } }));
  const request = { messages: [b1, a2, a1, a2], op: 'remove', flag: 'read' };
  await both(bob, request, (body, how) => {
    t.same(body.ignored_because_not_subscribed_channels, [streamId(channel)], `${how}: the channel is listed once`);
    t.same(body.messages, request.messages, `${how}: messages echoes the request`);
  });
  t.equal(flagBits(s, bob.user_id, a1), FLAG.read, 'stays read');
  t.equal(flagBits(s, bob.user_id, a2), FLAG.read, 'stays read');
  t.equal(flagBits(s, bob.user_id, b1), 0, 'a subscribed channel: unread');
  t.equal(flagBits(s, bob.user_id, kept), FLAG.read, 'unlisted: unchanged');

  ok(t, await s.request('DELETE', '/users/me/subscriptions', { as: bob, params: { subscriptions: [other] } }));
  const reply = ok(t, await flagsHttp(bob, { messages: [kept, a1, b1], op: 'remove', flag: 'read' }));
  t.same(reply.ignored_because_not_subscribed_channels, [streamId(channel), streamId(other)].sort((x, y) => x - y), 'several channels, ascending');
});

t.test('ignored_because_not_subscribed_channels is present only for op=remove, flag=read', async (t) => {
  const { alice, bob, channel } = await world();
  const id = await sendToStream(s, alice, channel, 't', 'x');
  for (const [op, flag] of [['add', 'read'], ['add', 'starred'], ['remove', 'starred'], ['add', 'collapsed'], ['remove', 'collapsed']] as const) {
    await both(bob, { messages: [id], op, flag }, (body, how) => t.notOk('ignored_because_not_subscribed_channels' in body, `${how}: ${op} ${flag}`));
  }
  await both(bob, { messages: [id], op: 'remove', flag: 'read' }, (body, how) => t.same(body.ignored_because_not_subscribed_channels, [], `${how}: remove read`));
});

t.test('state table: starred and collapsed are added and removed', async (t) => {
  const { alice, bob, channel } = await world();
  const id = await sendToStream(s, alice, channel, 't', 'x');
  for (const flag of ['starred', 'collapsed'] as const) {
    ok(t, await flagsHttp(bob, { messages: [id], op: 'add', flag }));
    t.equal(flagBits(s, bob.user_id, id), FLAG[flag], `add ${flag}`);
    t.same(await apiFlags(bob, id), [flag]);
    flagsApi(bob, { messages: [id], op: 'add', flag });
    t.equal(flagBits(s, bob.user_id, id), FLAG[flag], `add ${flag} again: unchanged`);
    flagsApi(bob, { messages: [id], op: 'remove', flag });
    t.equal(flagBits(s, bob.user_id, id), 0, `remove ${flag}`);
    ok(t, await flagsHttp(bob, { messages: [id], op: 'remove', flag }));
    t.equal(flagBits(s, bob.user_id, id), 0, `remove ${flag} again: unchanged`);
  }
  const other = await sendToStream(s, alice, channel, 't', 'y');
  flagsApi(bob, { messages: [other], op: 'add', flag: 'starred' });
  flagsApi(bob, { messages: [other], op: 'add', flag: 'read' });
  flagsApi(bob, { messages: [other], op: 'remove', flag: 'read' });
  t.equal(flagBits(s, bob.user_id, other), FLAG.starred, 'flags are independent');
});

t.test('starring or collapsing an accessible channel message without a row creates a historical row (read, historical)', async (t) => {
  const { alice, channel } = await world();
  const carol = await s.user('member');
  for (const flag of ['starred', 'collapsed'] as const) {
    // A fresh message for each way, so each creates its own row.
    const ids: Record<Way, number> = {
      HTTP: await sendToStream(s, alice, channel, 't', `${flag} over HTTP`),
      'in-process': await sendToStream(s, alice, channel, 't', `${flag} in-process`),
    };
    for (const id of Object.values(ids)) t.equal(flagBits(s, carol.user_id, id), undefined, 'not subscribed: no row');
    await both(carol, (how) => ({ messages: [ids[how], ids[how]], op: 'add', flag }), (body, how) => {
      t.same(body.messages, [ids[how], ids[how]], `${how}: add ${flag} answers the ids sent`);
      t.equal(flagBits(s, carol.user_id, ids[how]), FLAG.read | FLAG[flag] | FLAG.historical, `${how}: add ${flag} creates a read, historical row`);
    });
    for (const id of Object.values(ids)) t.same(await apiFlags(carol, id), ['read', flag, 'historical']);
  }
});

t.test('a message without a row counts as read: add read, remove starred and remove collapsed create nothing', async (t) => {
  const { alice, channel } = await world();
  const carol = await s.user('member');
  const id = await sendToStream(s, alice, channel, 't', 'x');
  for (const [op, flag] of [['add', 'read'], ['remove', 'starred'], ['remove', 'collapsed']] as const) {
    ok(t, await flagsHttp(carol, { messages: [id], op, flag }));
    flagsApi(carol, { messages: [id], op, flag });
    t.equal(flagBits(s, carol.user_id, id), undefined, `${op} ${flag}: no row`);
  }
});

t.test('remove read on a message of a subscribed channel without a row creates an unread historical row', async (t) => {
  const { alice, channel } = await world();
  const id = await sendToStream(s, alice, channel, 't', 'before carol joined');
  const carol = await s.user('member');
  ok(t, await subscribe(s, carol, [channel]));
  t.same(ok(t, await flagsHttp(carol, { messages: [id], op: 'remove', flag: 'read' })).ignored_because_not_subscribed_channels, []);
  t.equal(flagBits(s, carol.user_id, id), FLAG.historical, 'unread, historical');
  t.same(await apiFlags(carol, id), ['historical']);
});

t.test('remove read on a message without a row in a channel one is not subscribed to: skipped and reported, no row', async (t) => {
  const { alice, channel } = await world();
  const carol = await s.user('member');
  const id = await sendToStream(s, alice, channel, 't', 'x');
  await both(carol, { messages: [id], op: 'remove', flag: 'read' }, (body, how) => t.same(body.ignored_because_not_subscribed_channels, [streamId(channel)], how));
  t.equal(flagBits(s, carol.user_id, id), undefined);
});

t.test('Invalid message(s) where a row would be created for an inaccessible or missing message', async (t) => {
  const { alice, bob, channel } = await world();
  const carol = await s.user('member');
  const guest = await s.user('guest');
  const secret = `${channel}-secret`;
  const shared = `${channel}-shared`;
  ok(t, await subscribe(s, alice, [secret], { invite_only: true }));
  ok(t, await subscribe(s, alice, [shared], { invite_only: true, history_public_to_subscribers: true }));
  const publicId = await sendToStream(s, alice, channel, 't', 'public');
  const secretId = await sendToStream(s, alice, secret, 't', 'protected history');
  const sharedId = await sendToStream(s, alice, shared, 't', 'shared history');
  const dm = await sendDirect(s, alice, [bob.user_id], 'not for carol');
  const invalid = bad('Invalid message(s)');
  for (const flag of ['starred', 'collapsed']) {
    await fails(carol, { messages: [999999], op: 'add', flag }, invalid);
    await fails(carol, { messages: [dm], op: 'add', flag }, invalid);
    await fails(carol, { messages: [secretId], op: 'add', flag }, invalid);
    await fails(carol, { messages: [sharedId], op: 'add', flag }, invalid);
    await fails(guest, { messages: [publicId], op: 'add', flag }, invalid);
  }
  await fails(carol, { messages: [999999], op: 'remove', flag: 'read' }, invalid);
  await fails(carol, { messages: [dm], op: 'remove', flag: 'read' }, invalid);

  // Subscribed to a channel with protected history, messages from before one joined stay out of reach.
  ok(t, await subscribe(s, s.owner, [secret], { principals: [carol.user_id] }));
  ok(t, await subscribe(s, s.owner, [shared], { principals: [carol.user_id] }));
  await fails(carol, { messages: [secretId], op: 'add', flag: 'starred' }, invalid);
  await fails(carol, { messages: [secretId], op: 'remove', flag: 'read' }, invalid);
  ok(t, await flagsHttp(carol, { messages: [sharedId], op: 'add', flag: 'starred' }), 'shared history: readable once subscribed');
  t.equal(flagBits(s, carol.user_id, sharedId), FLAG.read | FLAG.starred | FLAG.historical);
});

t.test('Invalid message(s) is all or nothing: no row changes and no event', async (t) => {
  const { alice, bob, channel } = await world();
  const id = await sendToStream(s, alice, channel, 't', 'x');
  const queue = ok(t, await s.request('POST', '/register', { as: bob, params: { event_types: ['update_message_flags'] } }));
  await fails(bob, { messages: [id, 999999], op: 'add', flag: 'starred' }, bad('Invalid message(s)'));
  t.equal(flagBits(s, bob.user_id, id), 0, 'the valid id was not starred');
  const carol = await s.user('member');
  await fails(carol, { messages: [id, 999999], op: 'add', flag: 'starred' }, bad('Invalid message(s)'));
  t.equal(flagBits(s, carol.user_id, id), undefined, 'no historical row either');
  flagsApi(bob, { messages: [id], op: 'add', flag: 'read' });
  await fails(bob, { messages: [id, 999999], op: 'remove', flag: 'read' }, bad('Invalid message(s)'));
  t.equal(flagBits(s, bob.user_id, id), FLAG.read, 'still read');
  const events = ok(t, await s.request('GET', '/events', { as: bob, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true } })).events;
  t.same(events.map((e: any) => [e.op, e.flag]), [['add', 'read']], 'only the successful request sent an event');
});

t.test('missing or inaccessible ids are skipped without error where no row would be created', async (t) => {
  const { alice, bob } = await world();
  const carol = await s.user('member');
  const dm = await sendDirect(s, alice, [bob.user_id], 'not for carol');
  for (const [op, flag] of [['add', 'read'], ['remove', 'starred'], ['remove', 'collapsed']] as const) {
    await both(carol, { messages: [dm, 999999, -1], op, flag }, (body, how) => t.same(body.messages, [dm, 999999, -1], `${how}: ${op} ${flag}`));
  }
  t.equal(flagBits(s, carol.user_id, dm), undefined);
});

t.test('bots change their own flags', async (t) => {
  const { alice, channel } = await world();
  const bot = await s.user('member', { bot: true });
  ok(t, await subscribe(s, bot, [channel]));
  const id = await sendToStream(s, alice, channel, 't', 'x');
  ok(t, await flagsHttp(bot, { messages: [id], op: 'add', flag: 'read' }));
  t.equal(flagBits(s, bot.user_id, id), FLAG.read);
});

t.test('unsupported parameters are reported, the request still succeeds', async (t) => {
  const { bob } = await world();
  const reply = ok(t, await flagsHttp(bob, { messages: [], op: 'add', flag: 'read', all: true }));
  t.same(reply.ignored_parameters_unsupported, ['all']);
});

t.test('the zulip-js client: messages.flags.add and remove (multipart bodies)', async (t) => {
  const { alice, bob, channel } = await world();
  const id = await sendToStream(s, alice, channel, 't', 'x');
  // zulip-js ships no types; a computed specifier keeps TypeScript from asking for them.
  const { default: zulipInit } = (await import('zulip-js' as string)) as { default: (config: object) => Promise<any> };
  const client = await zulipInit({ username: bob.email, apiKey: bob.api_key, realm: s.url });
  t.same(await client.messages.flags.add({ flag: 'starred', messages: [id] }), { result: 'success', msg: '', messages: [id] });
  t.equal(flagBits(s, bob.user_id, id), FLAG.starred);
  const reply = await client.messages.flags.remove({ flag: 'read', messages: [id] });
  t.same(reply, { result: 'success', msg: '', messages: [id], ignored_because_not_subscribed_channels: [] });
  t.same(await client.messages.flags.add({ flag: 'wildcard_mentioned', messages: [id] }), { result: 'error', msg: "Invalid flag: 'wildcard_mentioned'", code: 'BAD_REQUEST' });
});
