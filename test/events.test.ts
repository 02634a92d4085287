// The event system: POST /register, GET /events (long-poll), DELETE /events, the transactional
// outbox, queue expiry and pruning, restarts, several processes, in-process subscription.
import { join } from 'node:path';
import t from 'tap';
import Database from 'better-sqlite3';
import { z } from 'zod';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { sendRequest, startServer, type TestServer, type TestUser } from './helpers.js';
import { runParley, type CliRun } from './cli_process.js';
import { bad, bothFail, isError, type Expected } from './assertions.js';
import { contextOf } from '../lib/context.js';
import { heartbeatEventSchema } from '../lib/domain/queue_dicts.js';
import { deliveredSchema } from './stored_events.js';

const heartbeatSchema = deliveredSchema([heartbeatEventSchema]);
const realmUserUpdate = z
  .object({ type: z.literal('realm_user'), op: z.literal('update'), id: z.int(), person: z.object({ user_id: z.int() }).passthrough() })
  .strict();

async function register(s: TestServer, user: TestUser, params: Record<string, unknown> = {}) {
  const reply = await s.request('POST', '/register', { as: user, params });
  return reply.body as { queue_id: string; last_event_id: number; [key: string]: any };
}

function poll(s: TestServer, user: TestUser, queueId: string, lastEventId: number, extra: Record<string, unknown> = {}, signal?: AbortSignal) {
  return s.request('GET', '/events', { as: user, params: { queue_id: queueId, last_event_id: lastEventId, ...extra }, signal });
}

function rename(s: TestServer, userId: number, fullName: string) {
  return s.request('PATCH', `/users/${userId}`, { as: s.owner, params: { full_name: fullName } });
}

t.test('POST /register returns a queue, last_event_id, versions and the requested state', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const reply = await s.request('POST', '/register', { as: s.owner, params: { event_types: ['realm_user'] } });
  t.equal(reply.status, 200);
  t.match(reply.body, { result: 'success', zulip_feature_level: 478, queue_id: String, last_event_id: Number });
  t.equal(reply.body.msg, '');
  t.ok(Array.isArray(reply.body.realm_users));
  t.notOk('drafts' in reply.body, 'only the requested state');
  const all = await register(s, s.owner, { event_types: null });
  for (const key of ['realm_users', 'subscriptions', 'max_message_id', 'drafts', 'alert_words', 'navigation_views', 'realm_linkifiers', 'user_status', 'realm_emoji']) {
    t.ok(key in all, `event_types=null fetches ${key}`);
  }
  const only = await register(s, s.owner, { event_types: ['realm_user'], fetch_event_types: ['alert_words'] });
  t.ok('alert_words' in only && !('realm_users' in only), 'fetch_event_types chooses the state');
});

t.test('GET /events returns events newer than last_event_id, in order, with ids', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const queue = await register(s, member, { event_types: ['realm_user'] });
  await rename(s, member.user_id, 'First');
  await rename(s, member.user_id, 'Second');
  const reply = await poll(s, member, queue.queue_id, queue.last_event_id, { dont_block: true });
  t.equal(reply.status, 200);
  t.equal(reply.body.queue_id, queue.queue_id);
  const events = reply.body.events as any[];
  t.same(events.map((e) => e.person.full_name), ['First', 'Second']);
  for (const event of events) t.ok(realmUserUpdate.safeParse(event).success, 'realm_user update schema');
  t.ok(events[0].id > queue.last_event_id && events[1].id > events[0].id);
  const after = await poll(s, member, queue.queue_id, events[1].id, { dont_block: true });
  t.same(after.body.events, [], 'acknowledged events are not returned again');
});

t.test('a waiting GET /events long-polls until a change commits', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const queue = await register(s, member);
  const waiting = poll(s, member, queue.queue_id, queue.last_event_id);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await rename(s, member.user_id, 'Woken');
  const reply = await waiting;
  t.equal(reply.body.events.length, 1);
  t.equal(reply.body.events[0].person.full_name, 'Woken');
});

t.test('a heartbeat answers a poll after the configured interval', async (t) => {
  const s = await startServer({ events: { heartbeatSeconds: 0.2 } });
  t.teardown(() => s.close());
  const queue = await register(s, s.owner);
  const reply = await poll(s, s.owner, queue.queue_id, queue.last_event_id);
  t.equal(reply.body.events.length, 1);
  t.ok(heartbeatSchema.safeParse(reply.body.events[0]).success, 'heartbeat schema');
  t.equal(reply.body.events[0].id, queue.last_event_id, 'a heartbeat acknowledges nothing new');
});

t.test('event_types filters what a queue receives', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const drafts = await register(s, member, { event_types: ['drafts'] });
  const users = await register(s, member, { event_types: ['realm_user'] });
  await rename(s, member.user_id, 'Filtered');
  const none = await poll(s, member, drafts.queue_id, drafts.last_event_id, { dont_block: true });
  t.same(none.body.events, []);
  const some = await poll(s, member, users.queue_id, users.last_event_id, { dont_block: true });
  t.equal(some.body.events.length, 1);
});

t.test('queue errors: missing, unknown, foreign queue, pruned and unknown event ids', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const queue = await register(s, s.owner);
  const events = s.chat.api.events;
  const get = (user: TestUser, params: { queue_id?: string; last_event_id?: number; dont_block?: boolean }) => ({
    http: () => s.request('GET', '/events', { as: user, params }),
    inProcess: () => events.get(user.user_id, { queueId: params.queue_id, lastEventId: params.last_event_id, dontBlock: params.dont_block }),
  });
  const fails = async (call: ReturnType<typeof get>, expected: Expected) => bothFail(t, call.http, call.inProcess, expected);

  // Zulip's fetch_events raises both as plain JsonableErrors: BAD_REQUEST without var_name.
  const missingQueue = s.request('GET', '/events', { as: s.owner, params: { last_event_id: 1 } });
  t.notOk('var_name' in (await missingQueue).body, 'no var_name');
  await fails(get(s.owner, { last_event_id: 1 }), bad("Missing 'queue_id' argument"));
  await fails(get(s.owner, { queue_id: queue.queue_id }), bad("Missing 'last_event_id' argument"));
  await fails(get(s.owner, { queue_id: 'no-such-queue' }), bad("Missing 'last_event_id' argument"));

  const badQueue = (id: string): Expected => ({ status: 400, code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${id}`, extra: { queue_id: id } });
  await fails(get(s.owner, { queue_id: 'no-such-queue', last_event_id: 0 }), badQueue('no-such-queue'));
  await fails(get(member, { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true }), badQueue(queue.queue_id));

  await rename(s, member.user_id, 'Moved on');
  const first = await poll(s, s.owner, queue.queue_id, queue.last_event_id, { dont_block: true });
  const newest = first.body.events[0].id as number;
  await poll(s, s.owner, queue.queue_id, newest, { dont_block: true });
  await fails(
    get(s.owner, { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true }),
    bad(`An event newer than ${queue.last_event_id} has already been pruned!`),
  );
  await fails(get(s.owner, { queue_id: queue.queue_id, last_event_id: newest + 1000, dont_block: true }), bad(`Event ${newest + 1000} was not in this queue`));

  const notJson = await poll(s, s.owner, queue.queue_id, 'abc' as unknown as number, { dont_block: true });
  isError(t, notJson, bad('last_event_id is not valid JSON'));
});

t.test('GET /events with dont_block and no queue_id creates a queue', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const reply = await s.request('GET', '/events', { as: s.owner, params: { dont_block: true } });
  t.equal(reply.status, 200);
  t.same(reply.body.events, []);
  t.type(reply.body.queue_id, 'string');
  const again = await poll(s, s.owner, reply.body.queue_id, 0, { dont_block: true });
  t.equal(again.status, 200, 'the new queue works');
});

t.test('DELETE /events removes the queue', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const queue = await register(s, s.owner);
  const badQueue: Expected = { status: 400, code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${queue.queue_id}`, extra: { queue_id: queue.queue_id } };
  const drop = (user: TestUser) => ({
    http: () => s.request('DELETE', '/events', { as: user, params: { queue_id: queue.queue_id } }),
    inProcess: () => s.chat.api.events.deleteQueue(user.user_id, { queueId: queue.queue_id }),
  });
  await bothFail(t, drop(member).http, drop(member).inProcess, badQueue);
  const deleted = await s.request('DELETE', '/events', { as: s.owner, params: { queue_id: queue.queue_id }, encoding: 'query' });
  t.same(deleted.body, { result: 'success', msg: '' });
  const gone = await poll(s, s.owner, queue.queue_id, queue.last_event_id, { dont_block: true });
  t.same([gone.status, gone.body.code], [400, 'BAD_EVENT_QUEUE_ID']);
  await bothFail(t, drop(s.owner).http, drop(s.owner).inProcess, badQueue);
  const missing = await s.request('DELETE', '/events', { as: s.owner });
  isError(t, missing, { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'queue_id' argument", extra: { var_name: 'queue_id' } });
});

t.test('transactional outbox: a change that rolls back leaves no event', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const ctx = contextOf(s.chat);
  const before = ctx.events.maxEventId();
  t.throws(() =>
    ctx.tx(() => {
      ctx.events.append([s.owner.user_id], { type: 'realm_user', op: 'update', person: { user_id: 1 } });
      throw new Error('rolled back');
    }),
  );
  t.equal(ctx.events.maxEventId(), before, 'no event id handed out');
  t.equal(ctx.db.prepare('SELECT count(*) FROM event WHERE id > ?').pluck().get(before), 0);
  // A failing request over HTTP changes nothing and emits nothing either.
  const reply = await s.request('PATCH', `/users/${s.owner.user_id}`, { as: s.owner, params: { role: 400 } });
  t.equal(reply.status, 400);
  t.equal(ctx.events.maxEventId(), before);
});

t.test('the snapshot and the first event are consistent: nothing missed or seen twice', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const renames = Array.from({ length: 20 }, (_, i) => rename(s, member.user_id, `Name ${i}`));
  const queues = await Promise.all(Array.from({ length: 5 }, () => register(s, member, { event_types: ['realm_user'] })));
  await Promise.all(renames);
  for (const queue of queues) {
    const reply = await poll(s, member, queue.queue_id, queue.last_event_id, { dont_block: true });
    const snapshotName = (queue.realm_users as any[]).find((u) => u.user_id === member.user_id).full_name;
    const events = reply.body.events as any[];
    const finalName = events.length > 0 ? events[events.length - 1].person.full_name : snapshotName;
    t.equal(finalName, 'Name 19', 'state + events = the final state');
    if (events.length > 0) t.not(events[0].person.full_name, snapshotName, 'the first event is the first change after the snapshot');
  }
});

t.test('queues expire after their lifespan without a poll; acknowledged events are pruned', async (t) => {
  let now = Date.now();
  const s = await startServer({ clock: () => now, events: { queueLifespanSeconds: 600 } });
  t.teardown(() => s.close());
  const queue = await register(s, s.owner);
  const stale = await register(s, s.owner);
  await rename(s, s.owner.user_id, 'Pruned');
  const reply = await poll(s, s.owner, queue.queue_id, queue.last_event_id, { dont_block: true });
  const newest = reply.body.events[0].id as number;
  await poll(s, s.owner, queue.queue_id, newest, { dont_block: true });

  now += 5 * 60_000;
  contextOf(s.chat).events.collectGarbage();
  t.equal((await poll(s, s.owner, stale.queue_id, stale.last_event_id, { dont_block: true })).status, 200, 'alive before its lifespan');
  now += 9 * 60_000;
  await poll(s, s.owner, queue.queue_id, newest, { dont_block: true });
  now += 2 * 60_000;
  const collected = contextOf(s.chat).events.collectGarbage();
  t.equal(collected.queues, 1, 'the queue not polled for over 10 minutes expired');
  const expired = await poll(s, s.owner, stale.queue_id, stale.last_event_id, { dont_block: true });
  t.same([expired.status, expired.body.code], [400, 'BAD_EVENT_QUEUE_ID']);
  t.equal(contextOf(s.chat).db.prepare('SELECT count(*) FROM event WHERE id < ?').pluck().get(newest), 0, 'events every live queue acknowledged are gone');
  t.equal(contextOf(s.chat).db.prepare('SELECT max(id) FROM event').pluck().get(), newest, 'but the newest stays, so ids are never handed out twice');
  t.equal((await poll(s, s.owner, queue.queue_id, newest, { dont_block: true })).status, 200, 'the live queue still works');
});

t.test('a closed client connection frees its waiting long-poll at once', async (t) => {
  const s = await startServer({ socket: true });
  t.teardown(() => s.close());
  const queue = await register(s, s.owner);
  const controller = new AbortController();
  const waiting = poll(s, s.owner, queue.queue_id, queue.last_event_id, {}, controller.signal).catch(() => 'aborted');
  for (let i = 0; i < 100 && contextOf(s.chat).events.waiterCount === 0; i++) await new Promise((r) => setTimeout(r, 5));
  t.equal(contextOf(s.chat).events.waiterCount, 1, 'the poll waits');
  controller.abort();
  t.equal(await waiting, 'aborted');
  for (let i = 0; i < 100 && contextOf(s.chat).events.waiterCount > 0; i++) await new Promise((r) => setTimeout(r, 5));
  t.equal(contextOf(s.chat).events.waiterCount, 0, 'the waiter is gone');
});

t.test('in-process: chat.events.subscribe delivers a user\'s events after commit', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const seen: any[] = [];
  const unsubscribe = s.chat.events.subscribe(member.user_id, (event) => seen.push(event), { eventTypes: ['realm_user'] });
  s.chat.api.users.update(s.owner.user_id, { userId: member.user_id, fullName: 'In Process' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(seen.length, 1);
  t.equal(seen[0].person.full_name, 'In Process');
  unsubscribe();
  s.chat.api.users.update(s.owner.user_id, { userId: member.user_id, fullName: 'Unheard' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(seen.length, 1, 'no events after unsubscribing');
  const messages: any[] = [];
  const raw: any[] = [];
  s.chat.events.subscribe(member.user_id, (event) => messages.push(event), { eventTypes: ['message'] });
  s.chat.events.subscribe(member.user_id, (event) => raw.push(event), { eventTypes: ['message'], applyMarkdown: false });
  s.chat.api.messages.send(s.owner.user_id, { type: 'direct', to: [member.user_id], content: 'hello **there**' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(messages[0].message.content, '<p>hello <strong>there</strong></p>', 'rendered by default');
  t.notOk('_markdown' in messages[0].message, 'no internal fields');
  t.equal(raw[0].message.content, 'hello **there**', 'Markdown with applyMarkdown: false');
  const queue = s.chat.api.events.register(member.user_id, { eventTypes: ['realm_user'] }) as any;
  const polled = await (s.chat.api.events.get(member.user_id, { queueId: queue.queue_id, lastEventId: queue.last_event_id, dontBlock: true }) as Promise<any>);
  t.same(polled.events, []);
});

async function runCli(args: string[]): Promise<CliRun> {
  const result = await runParley(args);
  if (result.code !== 0) console.error(result.stderr);
  return result;
}

t.test('queues and undelivered events survive a restart; another process\'s changes are there', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const file = join(s.dir, 'chat.db');
  const queue = await register(s, s.owner, { event_types: ['realm_user'] });
  await s.chat.close();
  s.db.close();

  const added = await runCli(['user', 'add', '--db', file, '--email', 'late@example.com', '--full-name', 'Late Comer']);
  t.equal(added.code, 0, 'another process changed the database meanwhile');

  const db = new Database(file);
  const chat = createChatServer(db, { logger: silentLogger });
  const address = await chat.listen(0, '127.0.0.1');
  t.teardown(async () => {
    await chat.close();
    db.close();
  });
  const reply = await sendRequest(`http://127.0.0.1:${address.port}`, 'GET', '/events', {
    as: s.owner,
    params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true },
  });
  t.equal(reply.status, 200, 'the old queue id still works');
  t.match(reply.body.events, [{ type: 'realm_user', op: 'add', person: { email: 'late@example.com' } }]);
});

t.test('a waiting long-poll wakes when another process commits', async (t) => {
  const s = await startServer({ events: { crossProcessPollMs: 20 } });
  t.teardown(() => s.close());
  const queue = await register(s, s.owner, { event_types: ['realm_user'] });
  let repliedAt = Infinity;
  const waiting = poll(s, s.owner, queue.queue_id, queue.last_event_id).then((reply) => {
    repliedAt = performance.now();
    return reply;
  });
  // When the other process's commit becomes visible here (checked every 5 ms on the test's own reads).
  let committedAt = Infinity;
  const newestEvent = s.db.prepare('SELECT max(id) FROM event').pluck();
  const before = newestEvent.get();
  const watch = setInterval(() => {
    if (committedAt === Infinity && newestEvent.get() !== before) committedAt = performance.now();
  }, 5);
  t.teardown(() => clearInterval(watch));
  const added = await runCli(['user', 'add', '--db', join(s.dir, 'chat.db'), '--email', 'other@example.com', '--full-name', 'Other Process']);
  const exitedAt = performance.now();
  t.equal(added.code, 0);
  const reply = await waiting;
  clearInterval(watch);
  t.match(reply.body.events, [{ type: 'realm_user', op: 'add', person: { email: 'other@example.com' } }]);
  // crossProcessPollMs is 20: the reply follows the commit within a few intervals; 2 s leaves room
  // for a loaded 2-CPU machine while a missed wake-up (heartbeat, 45 s) would fail.
  const since = Math.min(committedAt, exitedAt);
  t.ok(repliedAt - since < 2000, `the poll answered ${Math.round(repliedAt - since)} ms after the other process committed`);
});

t.test('apply_markdown and client_capabilities are kept per queue', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const queue = await register(s, s.owner, { apply_markdown: true, client_capabilities: { linkifier_url_template: true } });
  const row = contextOf(s.chat).db.prepare('SELECT apply_markdown, client_capabilities FROM event_queue WHERE id = ?').get(queue.queue_id) as any;
  t.equal(row.apply_markdown, 1);
  t.same(JSON.parse(row.client_capabilities), { linkifier_url_template: true });
  const bad = await s.request('POST', '/register', { as: s.owner, params: { event_types: 'realm_user' } });
  t.same([bad.status, bad.body.msg], [400, 'event_types is not valid JSON']);
  const notList = await s.request('POST', '/register', { as: s.owner, params: { event_types: '{"a":1}' } });
  t.same([notList.status, notList.body.msg], [400, 'event_types is not a list']);
});

