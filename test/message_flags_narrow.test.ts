// Flags on many messages: POST /messages/flags/narrow (Zulip's response fields, its check order,
// the 5000-message clamp that lets a client walk a large backlog in bounded batches) and
// POST /mark_all_as_read (batches of 2000, complete: false after the time limit), over HTTP and
// in-process.
import t from 'tap';
import { FLAG } from '../lib/domain/flags.js';
import { MARK_ALL_BATCH_SIZE, MAX_MESSAGES_PER_UPDATE } from '../lib/domain/message_flags_bulk.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { bad, bothFail, camelize, flagBits, memberPair, ok, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

async function world() {
  const { alice, bob, channel } = await memberPair(t, s, 'bulk');
  const ids: number[] = [];
  for (let i = 0; i < 5; i++) ids.push(await sendToStream(s, alice, channel, 't', `m${i}`));
  return { alice, bob, channel, ids };
}

const streamId = (name: string): number => s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number;

/** Rows written directly: thousands of sends through the API would make the test slow. */
function insertUnread(server: TestServer, senderId: number, channelId: number, userIds: readonly number[], count: number): number[] {
  const message = server.db.prepare(
    "INSERT INTO message (sender_id, stream_id, topic, content, rendered_content, date_sent) VALUES (?, ?, 'bulk', 'x', '<p>x</p>', 0)",
  );
  const row = server.db.prepare('INSERT INTO user_message (user_id, message_id, flags) VALUES (?, ?, 0)');
  const ids: number[] = [];
  server.db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const id = Number(message.run(senderId, channelId).lastInsertRowid);
      for (const userId of userIds) row.run(userId, id);
      ids.push(id);
    }
  })();
  return ids;
}

const narrowHttp = (user: TestUser, params: Record<string, unknown>) => s.request('POST', '/messages/flags/narrow', { as: user, params });
const narrowApi = (user: TestUser, params: Record<string, unknown>) => s.chat.api.messageFlags.updateForNarrow(user.user_id, camelize(params) as never);
const fails = (user: TestUser, params: Record<string, unknown>, expected: ReturnType<typeof bad>) =>
  bothFail(t, () => narrowHttp(user, params), () => narrowApi(user, params), expected);

const base = (channel: string) => ({ anchor: 'oldest', num_before: 0, num_after: 100, narrow: [{ operator: 'channel', operand: channel }], op: 'add', flag: 'read' });

t.test('flags/narrow: missing parameters in alphabetical order; anchor, range and narrow errors come before the flag checks', async (t) => {
  const { bob, channel } = await world();
  const missing = (name: string) => ({ status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: `Missing '${name}' argument`, extra: { var_name: name } });
  await fails(bob, {}, missing('anchor'));
  await fails(bob, { anchor: 'oldest' }, missing('flag'));
  await fails(bob, { anchor: 'oldest', flag: 'read' }, missing('narrow'));
  await fails(bob, { anchor: 'oldest', flag: 'read', narrow: [] }, missing('num_after'));
  await fails(bob, { anchor: 'oldest', flag: 'read', narrow: [], num_after: 1 }, missing('num_before'));
  await fails(bob, { anchor: 'oldest', flag: 'read', narrow: [], num_after: 1, num_before: 1 }, missing('op'));
  await fails(bob, { ...base(channel), num_before: -1 }, bad('num_before is too small'));
  await fails(bob, { ...base(channel), anchor: 'sideways', flag: 'bogus' }, bad('Invalid anchor'));
  await fails(bob, { ...base(channel), num_before: 1, num_after: 1, include_anchor: false, flag: 'bogus' }, bad('The anchor can only be excluded at an end of the range'));
  await fails(bob, { ...base(channel), narrow: [{ operator: 'channel', operand: 'no-such-channel' }], flag: 'bogus' }, {
    status: 400,
    code: 'BAD_NARROW',
    msg: 'Invalid narrow operator: unknown channel no-such-channel',
  } as never);
  await fails(bob, { ...base(channel), flag: 'bogus' }, bad("Invalid flag: 'bogus'"));
  await fails(bob, { ...base(channel), flag: 'mentioned' }, bad("Flag not editable: 'mentioned'"));
  await fails(bob, { ...base(channel), op: 'toggle' }, bad("Invalid message flag operation: 'toggle'"));
});

t.test("flags/narrow: a malformed narrow term gets pydantic's wording, as Zulip's test_message_flags pins it", async (t) => {
  const { bob, channel } = await world();
  const cases: [unknown[], string][] = [
    [[[], []], 'element is not a string pair'],
    [[['channel']], 'element is not a string pair'],
    [[['channel', 5]], 'element is not a string pair'],
    [[{ operator: null, operand: channel }, { operator: 'topic', operand: 'topic 1' }], 'operator is missing'],
    [[{ operand: channel }], 'operator is missing'],
    [[{ operator: 'channel', operand: null }, { operator: 'topic', operand: 'topic 1' }], 'operand is missing'],
    [[{ operator: null, operand: null }], 'operand is missing'],
    [['x'], 'dict or list required'],
    [[5], 'dict or list required'],
  ];
  for (const [narrow, error] of cases) {
    await fails(bob, { ...base(channel), narrow, flag: 'bogus' }, bad(`Invalid narrow[0]: Value error, ${error}`));
  }
  await fails(bob, { ...base(channel), narrow: [{ operator: 'channel', operand: channel }, ['x']] }, bad('Invalid narrow[1]: Value error, element is not a string pair'));
});

t.test('flags/narrow: the range around the anchor is updated and described with Zulip\'s fields', async (t) => {
  const { bob, channel, ids } = await world();
  const first = ok(t, await narrowHttp(bob, { ...base(channel), num_after: 3 }));
  t.same(first, {
    result: 'success',
    msg: '',
    processed_count: 3,
    updated_count: 3,
    first_processed_id: ids[0],
    last_processed_id: ids[2],
    found_oldest: true,
    found_newest: false,
  }, 'anchor oldest: the first three messages');
  t.same(ids.map((id) => flagBits(s, bob.user_id, id)), [FLAG.read, FLAG.read, FLAG.read, 0, 0]);
  const next = narrowApi(bob, { ...base(channel), anchor: String(ids[2]), include_anchor: false, num_after: 10 });
  t.same(next, { processed_count: 2, updated_count: 2, first_processed_id: ids[3], last_processed_id: ids[4], found_oldest: false, found_newest: true }, 'continue after last_processed_id');
  const again = narrowApi(bob, { ...base(channel), num_after: 10 });
  t.same([again.processed_count, again.updated_count], [5, 0], 'updated_count counts only changed messages');
  const newest = ok(t, await narrowHttp(bob, { ...base(channel), anchor: 'newest', num_before: 2, num_after: 0, op: 'remove' }));
  t.same([newest.processed_count, newest.first_processed_id, newest.found_newest, newest.found_oldest], [2, ids[3], true, false], 'anchor newest');
  t.same(newest.ignored_because_not_subscribed_channels, [], 'remove read: the ignored list is present');
  t.same(ids.map((id) => flagBits(s, bob.user_id, id)), [FLAG.read, FLAG.read, FLAG.read, 0, 0]);
  const unread = narrowApi(bob, { ...base(channel), anchor: 'first_unread', num_after: 0, narrow: [{ operator: 'is', operand: 'unread' }] });
  t.same([unread.processed_count, unread.first_processed_id], [1, ids[3]], 'anchor first_unread with is:unread');
  const empty = ok(t, await narrowHttp(bob, { ...base(channel), narrow: [{ operator: 'channel', operand: channel }, { operator: 'topic', operand: 'nothing here' }] }));
  t.same([empty.processed_count, empty.first_processed_id, empty.last_processed_id, empty.found_oldest, empty.found_newest], [0, null, null, true, true], 'empty range');
  const starred = ok(t, await narrowHttp(bob, { anchor: String(ids[1]), num_before: 1, num_after: 1, narrow: null, op: 'add', flag: 'starred' }));
  t.same([starred.processed_count, starred.updated_count], [3, 3], 'narrow null is every message');
  t.notOk('ignored_because_not_subscribed_channels' in starred);
});

t.test('flags/narrow: channel history one never received gets historical rows; unsubscribed channels are reported', async (t) => {
  const { alice, channel, ids } = await world();
  const carol = await s.user('member');
  const starred = narrowApi(carol, { ...base(channel), flag: 'starred' });
  t.same([starred.processed_count, starred.updated_count], [5, 5]);
  t.equal(flagBits(s, carol.user_id, ids[0]!), FLAG.read | FLAG.starred | FLAG.historical);
  const reply = ok(t, await narrowHttp(carol, { ...base(channel), op: 'remove' }));
  t.same([reply.processed_count, reply.updated_count, reply.ignored_because_not_subscribed_channels], [5, 0, [streamId(channel)]]);
  t.equal(flagBits(s, carol.user_id, ids[0]!), FLAG.read | FLAG.starred | FLAG.historical, 'stays read');
  t.ok(alice);
});

t.test(`flags/narrow: at most ${MAX_MESSAGES_PER_UPDATE} messages per request; a client walks a large backlog in batches`, async (t) => {
  const { alice, bob, channel } = await world();
  const backlog = insertUnread(s, alice.user_id, streamId(channel), [bob.user_id], MAX_MESSAGES_PER_UPDATE + 100);
  const unreadNarrow = [{ operator: 'channel', operand: channel }, { operator: 'is', operand: 'unread' }];
  const first = ok(t, await narrowHttp(bob, { anchor: 'oldest', num_before: 0, num_after: 100_000, narrow: unreadNarrow, op: 'add', flag: 'read' }));
  t.same([first.processed_count, first.found_newest], [MAX_MESSAGES_PER_UPDATE, false], 'num_after clamped');
  const both = narrowApi(bob, { anchor: 'newest', num_before: 100_000, num_after: 100_000, narrow: [{ operator: 'channel', operand: channel }], op: 'add', flag: 'starred' });
  t.equal(both.processed_count, MAX_MESSAGES_PER_UPDATE / 2, 'both sides clamped: half before the anchor');
  let anchor = String(first.last_processed_id);
  let batches = 1;
  for (;;) {
    const page = narrowApi(bob, { anchor, include_anchor: false, num_before: 0, num_after: 1000, narrow: unreadNarrow, op: 'add', flag: 'read' });
    batches += 1;
    if (page.found_newest) break;
    anchor = String(page.last_processed_id);
  }
  t.equal(batches, 2);
  t.equal(s.db.prepare('SELECT count(*) FROM user_message WHERE user_id = ? AND (flags & 1) = 0').pluck().get(bob.user_id), 0, 'nothing is left unread');
  t.equal(flagBits(s, bob.user_id, backlog.at(-1)!)! & FLAG.read, FLAG.read);
});

t.test('mark_all_as_read: every unread message becomes read; complete: true', async (t) => {
  const { alice, bob } = await world();
  const dm = await sendDirect(s, alice, [bob.user_id], 'hi');
  t.same(ok(t, await s.request('POST', '/mark_all_as_read', { as: bob })), { result: 'success', msg: '', complete: true });
  t.equal(flagBits(s, bob.user_id, dm), FLAG.read | FLAG.is_private);
  t.equal(s.db.prepare('SELECT count(*) FROM user_message WHERE user_id = ? AND (flags & 1) = 0').pluck().get(bob.user_id), 0);
  t.same(await s.chat.api.messageFlags.markAllAsRead(alice.user_id), { complete: true }, 'in-process, nothing left to do');
  t.same(ok(t, await s.request('POST', '/mark_all_as_read', { as: bob, params: { stream_id: 1 } })).ignored_parameters_unsupported, ['stream_id']);
});

t.test(`mark_all_as_read: batches of ${MARK_ALL_BATCH_SIZE} and complete: false after the time limit, so the client repeats`, async (t) => {
  let now = 1_700_000_000_000;
  let step = 0;
  const server = await startServer({ clock: () => (now += step) });
  t.teardown(() => server.close());
  const bob = await server.user('member');
  ok(t, await subscribe(server, server.owner, ['backlog'], { principals: [bob.user_id] }));
  const channelId = server.db.prepare("SELECT id FROM stream WHERE name = 'backlog'").pluck().get() as number;
  const ids = insertUnread(server, server.owner.user_id, channelId, [bob.user_id], MARK_ALL_BATCH_SIZE + 500);
  const unread = () => server.db.prepare('SELECT count(*) FROM user_message WHERE user_id = ? AND (flags & 1) = 0').pluck().get(bob.user_id);
  step = 30_000;
  t.same(await server.chat.api.messageFlags.markAllAsRead(bob.user_id), { complete: false }, 'the time limit passed after one batch');
  step = 0;
  t.equal(unread(), 500, 'one batch of the newest messages was marked');
  t.equal(flagBits(server, bob.user_id, ids.at(-1)!), FLAG.read, 'newest first');
  t.equal(flagBits(server, bob.user_id, ids[0]!), 0);
  t.same(ok(t, await server.request('POST', '/mark_all_as_read', { as: bob })).complete, true);
  t.equal(unread(), 0);
});
