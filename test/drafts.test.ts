// Drafts (API document 2.5, 3, 4.5, 6, 7; Zulip reference section 4): every rule over HTTP and
// in-process, the sync gate, DraftData validation, all-or-nothing batches, drafts events and state.
import t, { type Test } from 'tap';
import { z } from 'zod';
import { ApiError } from '../lib/index.js';
import { editDraft } from '../lib/domain/drafts.js';
import { resolveActor } from '../lib/domain/auth.js';
import { startServer, type Reply, type TestServer, type TestUser } from './helpers.js';


const NOW_MS = 1_700_000_000_250;
const NOW = 1_700_000_000;

const draftSchema = z
  .object({ id: z.int(), type: z.enum(['', 'stream', 'private']), to: z.array(z.int()), topic: z.string(), content: z.string(), timestamp: z.int() })
  .strict();
const addEvent = z.object({ id: z.int(), type: z.literal('drafts'), op: z.literal('add'), drafts: z.array(draftSchema) }).strict();
const updateEvent = z.object({ id: z.int(), type: z.literal('drafts'), op: z.literal('update'), draft: draftSchema }).strict();
const removeEvent = z.object({ id: z.int(), type: z.literal('drafts'), op: z.literal('remove'), draft_id: z.int() }).strict();
const eventSchema = z.union([addEvent, updateEvent, removeEvent]);
type Draft = z.infer<typeof draftSchema>;

interface Expected {
  status: number;
  code: string;
  msg: string;
}

const bad = (msg: string): Expected => ({ status: 400, code: 'BAD_REQUEST', msg });
const NO_DRAFT: Expected = { status: 404, code: 'BAD_REQUEST', msg: 'Draft does not exist' };
const SYNC_OFF = bad('User has disabled synchronizing drafts.');

function isError(t: Test, reply: Reply, expected: Expected): void {
  t.equal(reply.status, expected.status, 'status');
  t.match(reply.body, { result: 'error', code: expected.code, msg: expected.msg });
}

async function throwsApiError(t: Test, call: () => unknown, expected: Expected): Promise<void> {
  try {
    await call();
    t.fail(`expected ${expected.msg}`);
  } catch (error) {
    t.ok(error instanceof ApiError, 'an ApiError');
    const e = error as ApiError;
    t.same({ status: e.status, code: e.code, msg: e.message }, expected, 'in-process error');
  }
}

interface World {
  s: TestServer;
  member: TestUser;
  other: TestUser;
  general: number;
}

let channels = 0;

function channel(s: TestServer, name: string, options: { inviteOnly?: boolean; archived?: boolean; subscribers?: number[] } = {}): number {
  const id = Number(
    s.db
      .prepare('INSERT INTO stream (name, invite_only, is_archived, date_created) VALUES (?, ?, ?, 0)')
      .run(`${name} ${++channels}`, options.inviteOnly ? 1 : 0, options.archived ? 1 : 0).lastInsertRowid,
  );
  for (const userId of options.subscribers ?? []) {
    s.db.prepare('INSERT INTO subscription (user_id, stream_id, date_subscribed) VALUES (?, ?, 0)').run(userId, id);
  }
  return id;
}

// One server for the whole file (starting one costs ~0.4 s); each test works on fresh users.
const server = startServer({ clock: () => NOW_MS });
t.teardown(async () => (await server).close());

async function setup(_t: Test): Promise<World> {
  const s = await server;
  const member = await s.user('member');
  const other = await s.user('member');
  return { s, member, other, general: channel(s, 'general', { subscribers: [member.user_id] }) };
}

const create = (s: TestServer, user: TestUser, drafts: unknown, encoding?: 'multipart') =>
  s.request('POST', '/drafts', { as: user, params: { drafts }, encoding });
const fetchDrafts = async (s: TestServer, user: TestUser): Promise<Draft[]> => (await s.request('GET', '/drafts', { as: user })).body.drafts;

const streamDraft = (to: number[], extra: Record<string, unknown> = {}) => ({ type: 'stream', to, topic: 'sync drafts', content: 'Hello', ...extra });

async function createOk(t: Test, s: TestServer, user: TestUser, drafts: unknown[]): Promise<number[]> {
  const reply = await create(s, user, drafts);
  t.equal(reply.status, 200, 'created');
  return reply.body.ids;
}

t.test('GET /drafts returns count and the caller\'s drafts, oldest edit first', async (t) => {
  const { s, member, other, general } = await setup(t);
  t.same((await s.request('GET', '/drafts', { as: member })).body, { result: 'success', msg: '', count: 0, drafts: [] });
  const [newer, older] = await createOk(t, s, member, [
    streamDraft([general], { timestamp: 1595479019.5 }),
    { type: 'private', to: [other.user_id], topic: 'ignored', content: 'Hi', timestamp: 1595479018 },
  ]);
  await createOk(t, s, other, [{ type: '', to: [], topic: '', content: 'not yours' }]);
  const reply = await s.request('GET', '/drafts', { as: member });
  t.same(reply.body, {
    result: 'success',
    msg: '',
    count: 2,
    drafts: [
      { id: older, type: 'private', to: [other.user_id], topic: '', content: 'Hi', timestamp: 1595479018 },
      { id: newer, type: 'stream', to: [general], topic: 'sync drafts', content: 'Hello', timestamp: 1595479019 },
    ],
  });
  t.same(s.chat.api.drafts.list(member.user_id), { count: 2, drafts: reply.body.drafts }, 'in-process');
});

t.test('POST /drafts creates drafts and returns their ids in input order', async (t) => {
  const { s, member, general } = await setup(t);
  const reply = await create(s, member, [streamDraft([general]), { type: '', to: [], topic: '', content: 'Second' }], 'multipart');
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body).sort(), ['ids', 'msg', 'result']);
  const [first, second] = reply.body.ids as number[];
  t.ok(second! > first!);
  const inProcess = s.chat.api.drafts.create(member.user_id, { drafts: [{ type: '', to: [], topic: '', content: 'Third' }] });
  t.equal(inProcess.ids.length, 1);
  t.same((await fetchDrafts(s, member)).map((d) => d.content), ['Hello', 'Second', 'Third']);
});

t.test('the draft object: id, type, to, topic, content and an integer timestamp (now when not given)', async (t) => {
  const { s, member, general } = await setup(t);
  const [a, b] = await createOk(t, s, member, [streamDraft([general]), streamDraft([general], { timestamp: 1595479019.999999 })]);
  const drafts = await fetchDrafts(s, member);
  for (const d of drafts) t.ok(draftSchema.safeParse(d).success, 'schema');
  t.same(drafts.find((d) => d.id === a)?.timestamp, NOW, 'defaults to the server clock, truncated');
  t.same(drafts.find((d) => d.id === b)?.timestamp, 1595479019, 'truncated, not rounded');
});

t.test('unaddressed drafts and direct drafts without recipients have type "", to [] and topic ""', async (t) => {
  const { s, member, other } = await setup(t);
  await createOk(t, s, member, [
    { type: '', to: [other.user_id], topic: 'dropped', content: 'a' },
    { type: 'private', to: [], topic: 'dropped', content: 'b' },
  ]);
  t.same(
    (await fetchDrafts(s, member)).map(({ id: _id, ...d }) => d),
    [
      { type: '', to: [], topic: '', content: 'a', timestamp: NOW },
      { type: '', to: [], topic: '', content: 'b', timestamp: NOW },
    ],
  );
});

t.test('direct drafts: to lists the recipients without the owner, sorted and de-duplicated; the topic is dropped', async (t) => {
  const { s, member, other } = await setup(t);
  const third = await s.user('guest');
  const me = member.user_id;
  const cases: [number[], number[]][] = [
    [[other.user_id], [other.user_id]],
    [[me], [me]],
    [[me, other.user_id], [other.user_id]],
    [[third.user_id, other.user_id, other.user_id], [other.user_id, third.user_id].sort((x, y) => x - y)],
    [[third.user_id, me, other.user_id], [other.user_id, third.user_id].sort((x, y) => x - y)],
  ];
  await createOk(t, s, member, cases.map(([to]) => ({ type: 'private', to, topic: 'gone', content: 'x' })));
  const drafts = await fetchDrafts(s, member);
  t.same(drafts.map((d) => d.to), cases.map(([, expected]) => expected));
  t.ok(drafts.every((d) => d.type === 'private' && d.topic === ''));
});

t.test('direct drafts: an unknown user id is "Invalid user ID <id>"; a deactivated user is no longer using Zulip', async (t) => {
  const { s, member, other } = await setup(t);
  isError(t, await create(s, member, [{ type: 'private', to: [other.user_id, 9999, 8888], topic: '', content: 'x' }]), bad('Invalid user ID 8888'));
  await throwsApiError(t, () => s.chat.api.drafts.create(member.user_id, { drafts: [{ type: 'private', to: [777], topic: '', content: 'x' }] }), bad('Invalid user ID 777'));
  s.chat.admin.deactivateUser(other.user_id);
  isError(t, await create(s, member, [{ type: 'private', to: [other.user_id], topic: '', content: 'x' }]), bad(`'${other.email}' is no longer using Zulip.`));
  t.same(await fetchDrafts(s, member), []);
});

t.test('channel drafts need exactly one channel id', async (t) => {
  const { s, member, general } = await setup(t);
  const expected = bad('Must specify exactly 1 channel ID for channel messages');
  isError(t, await create(s, member, [streamDraft([])]), expected);
  isError(t, await create(s, member, [streamDraft([general, general])]), expected);
  await throwsApiError(t, () => s.chat.api.drafts.create(member.user_id, { drafts: [streamDraft([]) as never] }), expected);
});

t.test('channel drafts: a missing, archived or inaccessible channel is "Invalid channel ID"', async (t) => {
  const { s, member } = await setup(t);
  const guest = await s.user('guest');
  const archived = channel(s, 'old', { archived: true, subscribers: [member.user_id] });
  const secret = channel(s, 'secret', { inviteOnly: true, subscribers: [s.owner.user_id] });
  const open = channel(s, 'open');
  const expected = bad('Invalid channel ID');
  isError(t, await create(s, member, [streamDraft([99999])]), expected);
  isError(t, await create(s, member, [streamDraft([archived])]), expected);
  isError(t, await create(s, member, [streamDraft([secret])]), expected);
  isError(t, await create(s, s.owner, [streamDraft([secret, 1]), streamDraft([secret])]), bad('Must specify exactly 1 channel ID for channel messages'));
  isError(t, await create(s, guest, [streamDraft([open])]), expected);
  await throwsApiError(t, () => s.chat.api.drafts.create(member.user_id, { drafts: [streamDraft([secret]) as never] }), expected);
  const admin = await s.user('admin');
  isError(t, await create(s, admin, [streamDraft([secret])]), expected);
  t.equal((await create(s, member, [streamDraft([open])])).status, 200, 'a public channel without subscribing');
  t.equal((await create(s, s.owner, [streamDraft([secret])])).status, 200, 'a private channel the user is subscribed to');
});

t.test('channel drafts: the topic is truncated to 60 characters and must not contain null bytes', async (t) => {
  const { s, member, general } = await setup(t);
  const long = 'é'.repeat(70);
  await createOk(t, s, member, [streamDraft([general], { topic: long }), streamDraft([general], { topic: ' spaced ' })]);
  const [first, second] = await fetchDrafts(s, member);
  t.equal(first!.topic, 'é'.repeat(57) + '...');
  t.equal(second!.topic, ' spaced ', 'not stripped');
  isError(t, await create(s, member, [streamDraft([general], { topic: 'a\u0000b' })]), bad('Topic must not contain null bytes'));
  t.equal((await create(s, member, [{ type: 'private', to: [], topic: 'a\u0000b', content: 'x' }])).status, 200, 'ignored outside channels');
});

t.test('content is stripped, must not be blank or hold null bytes, and is truncated to 10000 characters', async (t) => {
  const { s, member } = await setup(t);
  await createOk(t, s, member, [
    { type: '', to: [], topic: '', content: '\n\n  hello world \n ' },
    { type: '', to: [], topic: '', content: 'x'.repeat(10001) },
    { type: '', to: [], topic: '', content: 'y'.repeat(10000) },
  ]);
  const [stripped, truncated, exact] = await fetchDrafts(s, member);
  t.equal(stripped!.content, 'hello world');
  t.equal(truncated!.content, 'x'.repeat(10000 - 20) + '\n[message truncated]');
  t.equal(truncated!.content.length, 10000);
  t.equal(exact!.content, 'y'.repeat(10000));
  isError(t, await create(s, member, [{ type: '', to: [], topic: '', content: ' \n\t ' }]), bad('drafts[0]["content"] cannot be blank'));
  isError(t, await create(s, member, [{ type: '', to: [], topic: '', content: 'a\u0000b' }]), bad('Message must not contain null bytes'));
  await throwsApiError(t, () => s.chat.api.drafts.create(member.user_id, { drafts: [{ type: '', to: [], topic: '', content: '' }] }), bad('drafts[0]["content"] cannot be blank'));
});

t.test('the domain refuses empty content itself ("Message must not be empty"), behind the parameter check', async (t) => {
  const { s, member } = await setup(t);
  const [id] = await createOk(t, s, member, [{ type: '', to: [], topic: '', content: 'x' }]);
  const actor = resolveActor(s.chat.ctx, member.user_id);
  await throwsApiError(t, () => editDraft(s.chat.ctx, actor, { draftId: id!, draft: { type: '', to: [], topic: '', content: '   ' } }), bad('Message must not be empty'));
});

t.test('a negative timestamp is refused; a fractional one is kept for ordering', async (t) => {
  const { s, member } = await setup(t);
  isError(t, await create(s, member, [{ type: '', to: [], topic: '', content: 'x', timestamp: -1 }]), bad('Timestamp must not be negative.'));
  const [late, early] = await createOk(t, s, member, [
    { type: '', to: [], topic: '', content: 'late', timestamp: 100.7 },
    { type: '', to: [], topic: '', content: 'early', timestamp: 100.2 },
  ]);
  t.same((await fetchDrafts(s, member)).map((d) => [d.id, d.timestamp]), [[early, 100], [late, 100]]);
  t.equal((await create(s, member, [{ type: '', to: [], topic: '', content: 'x', timestamp: null }])).status, 200, 'null means now');
});

t.test('DraftData: extra keys, missing fields and wrong types are refused with Zulip\'s messages', async (t) => {
  const { s, member, general } = await setup(t);
  const ok = { type: '', to: [], topic: '', content: 'x' };
  const cases: [unknown, string][] = [
    [[ok, { ...ok, x: 1 }], 'Argument "x" at drafts[1] is unexpected'],
    [[{ ...ok, id: 5 }], 'Argument "id" at drafts[0] is unexpected'],
    [[{ type: '', to: [], content: 'x' }], 'drafts[0]["topic"] field is missing: Field required'],
    [[{ to: [], topic: '', content: 'x' }], 'drafts[0]["type"] field is missing: Field required'],
    [[{ ...ok, type: 'channel' }], 'Invalid drafts[0]["type"]'],
    [[{ ...ok, to: general }], 'drafts[0]["to"] is not a list'],
    [[{ ...ok, to: ['a'] }], 'drafts[0]["to"][0] is not an integer'],
    [[{ ...ok, topic: 5 }], 'drafts[0]["topic"] is not a string'],
    [[{ ...ok, content: 5 }], 'drafts[0]["content"] is not a string'],
    [{ ...ok }, 'drafts is not a list'],
    ['[{"type": ""', 'drafts is not valid JSON'],
  ];
  for (const [drafts, msg] of cases) isError(t, await create(s, member, drafts), bad(msg));
  const missing = await s.request('POST', '/drafts', { as: member });
  t.same(missing.body, { result: 'error', msg: "Missing 'drafts' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'drafts' });
  await throwsApiError(t, () => s.chat.api.drafts.create(member.user_id, { drafts: [{ ...ok, x: 1 }] as never }), bad('Argument "x" at drafts[0] is unexpected'));
  t.same(await fetchDrafts(s, member), []);
});

t.test('a batch is all or nothing: one bad draft creates none and sends no event', async (t) => {
  const { s, member, general } = await setup(t);
  const queue = await s.request('POST', '/register', { as: member, params: { event_types: ['drafts'] } });
  isError(t, await create(s, member, [streamDraft([general]), streamDraft([general]), streamDraft([12345])]), bad('Invalid channel ID'));
  isError(t, await create(s, member, [streamDraft([general]), { type: 'private', to: [424242], topic: '', content: 'x' }]), bad('Invalid user ID 424242'));
  t.same(await fetchDrafts(s, member), []);
  const events = await s.request('GET', '/events', { as: member, params: { queue_id: queue.body.queue_id, last_event_id: queue.body.last_event_id, dont_block: true } });
  t.same(events.body.events, []);
  const [id] = await createOk(t, s, member, [streamDraft([general])]);
  t.equal(id, Math.max(id!, 1), 'ids keep counting after the rollback');
});

t.test('POST /drafts with an empty list creates nothing and still sends an add event', async (t) => {
  const { s, member } = await setup(t);
  const queue = await s.request('POST', '/register', { as: member, params: { event_types: ['drafts'] } });
  t.same((await create(s, member, [])).body, { result: 'success', msg: '', ids: [] });
  const events = await s.request('GET', '/events', { as: member, params: { queue_id: queue.body.queue_id, last_event_id: queue.body.last_event_id, dont_block: true } });
  t.match(events.body.events, [{ type: 'drafts', op: 'add', drafts: [] }]);
});

t.test('PATCH /drafts/{draft_id} replaces the draft whole', async (t) => {
  const { s, member, other, general } = await setup(t);
  const [id] = await createOk(t, s, member, [streamDraft([general], { timestamp: 1000 })]);
  const reply = await s.request('PATCH', `/drafts/${id}`, { as: member, params: { draft: { type: 'private', to: [other.user_id], topic: 'x', content: 'DM now' } } });
  t.same(reply.body, { result: 'success', msg: '' });
  t.same(await fetchDrafts(s, member), [{ id, type: 'private', to: [other.user_id], topic: '', content: 'DM now', timestamp: NOW }]);
  t.same(s.chat.api.drafts.edit(member.user_id, { draftId: id!, draft: { type: '', to: [], topic: '', content: 'plain', timestamp: 5 } }), {});
  t.same(await fetchDrafts(s, member), [{ id, type: '', to: [], topic: '', content: 'plain', timestamp: 5 }]);
});

t.test('PATCH: the draft goes in the query string (zulip-js) or a multipart body too', async (t) => {
  const { s, member, general } = await setup(t);
  const [id] = await createOk(t, s, member, [streamDraft([general])]);
  const query = await s.request('PATCH', `/drafts/${id}`, { as: member, encoding: 'query', params: { draft: streamDraft([general], { content: 'from the query' }) } });
  t.same(query.body, { result: 'success', msg: '' });
  const multipart = await s.request('PATCH', `/drafts/${id}`, { as: member, encoding: 'multipart', params: { draft: streamDraft([general], { content: 'multipart' }), extra: 1 } });
  t.same(multipart.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['extra'] });
  t.equal((await fetchDrafts(s, member))[0]!.content, 'multipart');
});

t.test('PATCH: a missing draft, or another user\'s, is "Draft does not exist" with HTTP 404', async (t) => {
  const { s, member, other, general } = await setup(t);
  const [theirs] = await createOk(t, s, other, [{ type: '', to: [], topic: '', content: 'theirs' }]);
  isError(t, await s.request('PATCH', '/drafts/9999', { as: member, params: { draft: streamDraft([general]) } }), NO_DRAFT);
  isError(t, await s.request('PATCH', `/drafts/${theirs}`, { as: member, params: { draft: streamDraft([general]) } }), NO_DRAFT);
  await throwsApiError(t, () => s.chat.api.drafts.edit(member.user_id, { draftId: theirs!, draft: streamDraft([general]) as never }), NO_DRAFT);
  t.equal((await fetchDrafts(s, other))[0]!.content, 'theirs');
});

t.test('PATCH check order: parameters, then existence, then the draft\'s further validation', async (t) => {
  const { s, member, general } = await setup(t);
  const [id] = await createOk(t, s, member, [streamDraft([general])]);
  isError(t, await s.request('PATCH', '/drafts/9999', { as: member, params: { draft: { ...streamDraft([general]), x: 1 } } }), bad('Argument "x" at draft is unexpected'));
  isError(t, await s.request('PATCH', '/drafts/9999', { as: member, params: { draft: streamDraft([424242]) } }), NO_DRAFT);
  isError(t, await s.request('PATCH', `/drafts/${id}`, { as: member, params: { draft: streamDraft([424242]) } }), bad('Invalid channel ID'));
  isError(t, await s.request('PATCH', `/drafts/${id}`, { as: member, params: { draft: { ...streamDraft([general]), content: '' } } }), bad('draft["content"] cannot be blank'));
  isError(t, await s.request('PATCH', `/drafts/${id}`, { as: member }), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'draft' argument" });
  t.equal((await fetchDrafts(s, member))[0]!.content, 'Hello', 'unchanged');
  t.equal((await s.request('PATCH', '/drafts/abc', { as: member, params: { draft: streamDraft([general]) } })).status, 404, 'a non-integer id matches no route');
});

t.test('DELETE /drafts/{draft_id} deletes the draft (API document 4.5)', async (t) => {
  const { s, member, general } = await setup(t);
  const [a, b] = await createOk(t, s, member, [streamDraft([general]), streamDraft([general])]);
  t.same((await s.request('DELETE', `/drafts/${a}`, { as: member })).body, { result: 'success', msg: '' });
  t.same(s.chat.api.drafts.delete(member.user_id, { draftId: b! }), {});
  t.same(await fetchDrafts(s, member), []);
});

t.test('DELETE: a missing draft, or another user\'s, is "Draft does not exist" (BAD_REQUEST, HTTP 404)', async (t) => {
  const { s, member, other } = await setup(t);
  const [theirs] = await createOk(t, s, other, [{ type: '', to: [], topic: '', content: 'theirs' }]);
  isError(t, await s.request('DELETE', '/drafts/9999', { as: member }), NO_DRAFT);
  isError(t, await s.request('DELETE', `/drafts/${theirs}`, { as: member, encoding: 'query', params: { note: 'x' } }), NO_DRAFT);
  await throwsApiError(t, () => s.chat.api.drafts.delete(member.user_id, { draftId: theirs! }), NO_DRAFT);
  await throwsApiError(t, () => s.chat.api.drafts.delete(member.user_id, { draftId: 9999 }), NO_DRAFT);
  t.equal((await fetchDrafts(s, other)).length, 1);
});

t.test('deleting a draft reaches every one of the user\'s registered clients and none of another user\'s', async (t) => {
  const { s, member, other, general } = await setup(t);
  const [id] = await createOk(t, s, member, [streamDraft([general])]);
  const phone = (await s.request('POST', '/register', { as: member, params: { event_types: ['drafts'] } })).body;
  const laptop = (await s.request('POST', '/register', { as: member })).body;
  const stranger = (await s.request('POST', '/register', { as: other, params: { event_types: ['drafts'] } })).body;
  const waiting = s.request('GET', '/events', { as: member, params: { queue_id: phone.queue_id, last_event_id: phone.last_event_id } });
  await s.request('DELETE', `/drafts/${id}`, { as: member });
  const pushed = await waiting;
  t.same(pushed.body.events.map(({ id: _id, ...e }: Record<string, unknown>) => e), [{ type: 'drafts', op: 'remove', draft_id: id }], 'a waiting long-poll is woken');
  const polled = await s.request('GET', '/events', { as: member, params: { queue_id: laptop.queue_id, last_event_id: laptop.last_event_id, dont_block: true } });
  t.same(polled.body.events.map(({ id: _id, ...e }: Record<string, unknown>) => e), [{ type: 'drafts', op: 'remove', draft_id: id }], 'the second queue');
  for (const event of [...pushed.body.events, ...polled.body.events]) t.ok(removeEvent.safeParse(event).success, 'remove event schema');
  const none = await s.request('GET', '/events', { as: other, params: { queue_id: stranger.queue_id, last_event_id: stranger.last_event_id, dont_block: true } });
  t.same(none.body.events, [], "another user's queue gets nothing");
});

t.test('with enable_drafts_synchronization off every draft endpoint is refused, before its parameters are read', async (t) => {
  const { s, member, general } = await setup(t);
  const [id] = await createOk(t, s, member, [streamDraft([general])]);
  s.db.prepare('UPDATE user SET enable_drafts_synchronization = 0 WHERE id = ?').run(member.user_id);
  isError(t, await s.request('GET', '/drafts', { as: member }), SYNC_OFF);
  isError(t, await create(s, member, [streamDraft([general])]), SYNC_OFF);
  isError(t, await create(s, member, 'not json'), SYNC_OFF);
  isError(t, await s.request('POST', '/drafts', { as: member }), SYNC_OFF);
  isError(t, await s.request('PATCH', `/drafts/${id}`, { as: member, params: { draft: streamDraft([general]) } }), SYNC_OFF);
  isError(t, await s.request('PATCH', '/drafts/9999', { as: member, params: { draft: '{' } }), SYNC_OFF);
  isError(t, await s.request('DELETE', `/drafts/${id}`, { as: member }), SYNC_OFF);
  isError(t, await s.request('DELETE', '/drafts/9999', { as: member, encoding: 'multipart', params: { x: 1 } }), SYNC_OFF);
  await throwsApiError(t, () => s.chat.api.drafts.list(member.user_id), SYNC_OFF);
  await throwsApiError(t, () => s.chat.api.drafts.create(member.user_id, { drafts: 5 as never }), SYNC_OFF);
  await throwsApiError(t, () => s.chat.api.drafts.delete(member.user_id, { draftId: id! }), SYNC_OFF);
  const state = await s.request('POST', '/register', { as: member, params: { fetch_event_types: ['drafts'] } });
  t.same(state.body.drafts, [], 'the register state is empty');
  s.db.prepare('UPDATE user SET enable_drafts_synchronization = 1 WHERE id = ?').run(member.user_id);
  t.equal((await fetchDrafts(s, member)).length, 1, 'nothing was changed meanwhile');
});

interface DraftState {
  drafts: Draft[];
}

/** Zulip's apply_event for drafts events: the state is kept newest first. */
function apply(state: DraftState, events: unknown[]): DraftState {
  let drafts = structuredClone(state.drafts);
  for (const raw of events) {
    const event = eventSchema.parse(raw);
    if (event.op === 'add') drafts.push(...event.drafts);
    else if (event.op === 'update') drafts = drafts.map((d) => (d.id === event.draft.id ? event.draft : d));
    else drafts = drafts.filter((d) => d.id !== event.draft_id);
  }
  return { drafts: drafts.sort((a, b) => b.timestamp - a.timestamp || b.id - a.id) };
}

t.test('drafts events match their schemas and applied to the registered state equal a refetch (newest first)', async (t) => {
  const { s, member, other, general } = await setup(t);
  const [kept, edited, removed] = await createOk(t, s, member, [
    streamDraft([general], { timestamp: 10 }),
    streamDraft([general], { timestamp: 20 }),
    streamDraft([general], { timestamp: 30 }),
  ]);
  const reg = (await s.request('POST', '/register', { as: member, params: { event_types: ['drafts'] } })).body;
  t.same(reg.drafts.map((d: Draft) => d.id), [removed, edited, kept], 'register state: newest first');

  await create(s, member, [{ type: 'private', to: [other.user_id], topic: '', content: 'new', timestamp: 25 }, { type: '', to: [], topic: '', content: 'newest' }]);
  await s.request('PATCH', `/drafts/${edited}`, { as: member, params: { draft: { type: '', to: [], topic: '', content: 'edited', timestamp: 5 } } });
  await s.request('DELETE', `/drafts/${removed}`, { as: member });
  s.chat.api.drafts.create(member.user_id, { drafts: [] });
  await s.request('DELETE', `/drafts/${removed}`, { as: member });

  const polled = await s.request('GET', '/events', { as: member, params: { queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true } });
  const events = polled.body.events as unknown[];
  t.same(events.map((e) => (e as { op: string }).op), ['add', 'update', 'remove', 'add'], 'one event per change, none for the failed delete');
  for (const event of events) t.ok(eventSchema.safeParse(event).success, `schema of ${(event as { op: string }).op}`);
  t.match(events[1], { draft: { id: edited, type: '', to: [], topic: '', content: 'edited', timestamp: 5 } });
  const refetched = (await s.request('POST', '/register', { as: member, params: { event_types: ['drafts'] } })).body;
  t.same(apply(reg as DraftState, events), { drafts: refetched.drafts });
});
