// Drafts: GET and POST /drafts over HTTP
// and in-process: the draft object, DraftData validation, further validation, all-or-nothing batches.
import t from 'tap';
import { editDraft } from '../lib/domain/drafts.js';
import { authenticate } from '../lib/domain/callers.js';
import { NOW, bad, channel, create, createOk, draftSchema, draftServer, fetchDrafts, isError, streamDraft, throwsApiError } from './drafts_helpers.js';
import { contextOf } from '../lib/context.js';

const setup = draftServer(t);

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
  const { actor } = authenticate(contextOf(s.chat), { kind: 'trusted', userId: member.user_id }, {});
  await throwsApiError(t, () => editDraft(contextOf(s.chat), actor, { draftId: id!, draft: { type: '', to: [], topic: '', content: '   ' } }), bad('Message must not be empty'));
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

