// Event queue lifetime: a queue that never acknowledges holds back only its own undelivered
// events and expires once they have waited longer than its lifespan, even while it is polled;
// a user holds a bounded number of queues.
import t, { type Test } from 'tap';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { bothFail, type Expected } from './assertions.js';
import { contextOf } from '../lib/context.js';

const MINUTE = 60_000;

async function register(s: TestServer, user: TestUser, params: Record<string, unknown> = {}) {
  const reply = await s.request('POST', '/register', { as: user, params: { fetch_event_types: [], ...params } });
  return reply.body as { queue_id: string; last_event_id: number };
}

function poll(s: TestServer, user: TestUser, queueId: string, lastEventId: number) {
  return s.request('GET', '/events', { as: user, params: { queue_id: queueId, last_event_id: lastEventId, dont_block: true } });
}

/** An event for `user` alone. */
function addAlertWord(s: TestServer, user: TestUser, word: string) {
  return s.request('POST', '/users/me/alert_words', { as: user, params: { alert_words: [word] } });
}

function badQueue(queueId: string): Expected {
  return { status: 400, code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${queueId}`, extra: { queue_id: queueId } };
}

/** The same poll over HTTP and in-process fails with BAD_EVENT_QUEUE_ID. */
function isGone(t: Test, s: TestServer, user: TestUser, queueId: string, lastEventId: number) {
  return bothFail(
    t,
    () => poll(s, user, queueId, lastEventId),
    () => s.chat.api.events.get(user.user_id, { queueId, lastEventId, dontBlock: true }),
    badQueue(queueId),
  );
}

function eventIds(s: TestServer): number[] {
  return s.db.prepare('SELECT id FROM event ORDER BY id').pluck().all() as number[];
}

t.test("a queue that never acknowledges does not keep other users' events from being pruned", async (t) => {
  let now = Math.floor(Date.now() / 1000) * 1000;
  const s = await startServer({ clock: () => now });
  t.teardown(() => s.close());
  const member = await s.user('member');
  const stale = await register(s, s.owner);
  const live = await register(s, member);
  for (const word of ['one', 'two', 'three']) await addAlertWord(s, member, word);
  const events = (await poll(s, member, live.queue_id, live.last_event_id)).body.events as { id: number }[];
  const newest = events[events.length - 1]!.id;
  await poll(s, member, live.queue_id, newest);

  now += 2 * MINUTE;
  contextOf(s.chat).events.collectGarbage();
  t.same(eventIds(s), [newest], "the member's acknowledged events are gone although the owner's queue never acknowledged");
  const reply = await poll(s, s.owner, stale.queue_id, stale.last_event_id);
  t.same([reply.status, reply.body.events], [200, []], 'the quiet queue lost nothing of its own and still works');
});

t.test('a polled queue whose oldest event waits longer than its lifespan expires', async (t) => {
  let now = Math.floor(Date.now() / 1000) * 1000;
  const s = await startServer({ clock: () => now, events: { queueLifespanSeconds: 600 } });
  t.teardown(() => s.close());
  const member = await s.user('member');
  const stuck = await register(s, s.owner);
  const live = await register(s, member);
  await addAlertWord(s, s.owner, 'pending');
  await addAlertWord(s, member, 'later');
  const newest = contextOf(s.chat).events.maxEventId();
  await poll(s, member, live.queue_id, newest);

  // The owner's client polls every 4 minutes but always from its first last_event_id.
  for (let i = 0; i < 2; i++) {
    now += 4 * MINUTE;
    t.equal((await poll(s, s.owner, stuck.queue_id, stuck.last_event_id)).body.events.length, 1, 'the event is delivered again');
    await poll(s, member, live.queue_id, newest);
    t.equal(contextOf(s.chat).events.collectGarbage().queues, 0, 'within its lifespan the queue lives');
    t.equal(eventIds(s).length, 2, 'and holds back its undelivered event and what came after it');
  }
  now += 3 * MINUTE;
  await poll(s, s.owner, stuck.queue_id, stuck.last_event_id);
  await poll(s, member, live.queue_id, newest);
  t.equal(contextOf(s.chat).events.collectGarbage().queues, 1, 'after 11 minutes unacknowledged the polled queue expired');
  await isGone(t, s, s.owner, stuck.queue_id, stuck.last_event_id);
  t.same(eventIds(s), [newest], 'and no longer holds back pruning');
  t.equal((await poll(s, member, live.queue_id, newest)).status, 200, 'the acknowledging queue lives on');
});

t.test('events a queue does not receive (other types) neither expire it nor are kept for it', async (t) => {
  let now = Math.floor(Date.now() / 1000) * 1000;
  const s = await startServer({ clock: () => now, events: { queueLifespanSeconds: 600 } });
  t.teardown(() => s.close());
  const drafts = await register(s, s.owner, { event_types: ['drafts'] });
  await addAlertWord(s, s.owner, 'unseen');
  await addAlertWord(s, s.owner, 'newest');
  const newest = contextOf(s.chat).events.maxEventId();
  for (let i = 0; i < 3; i++) {
    now += 5 * MINUTE;
    t.same((await poll(s, s.owner, drafts.queue_id, drafts.last_event_id)).body.events, [], 'nothing for this queue');
    contextOf(s.chat).events.collectGarbage();
  }
  t.equal((await poll(s, s.owner, drafts.queue_id, drafts.last_event_id)).status, 200, 'the queue is alive after 15 minutes');
  t.same(eventIds(s), [newest], 'the alert_words events it never receives were pruned');
});

t.test('a queue not polled for its lifespan expires, also while its events are unacknowledged', async (t) => {
  let now = Math.floor(Date.now() / 1000) * 1000;
  const s = await startServer({ clock: () => now, events: { queueLifespanSeconds: 600 } });
  t.teardown(() => s.close());
  const queue = await register(s, s.owner);
  await addAlertWord(s, s.owner, 'waiting');
  now += 10 * MINUTE - 1;
  t.equal(contextOf(s.chat).events.collectGarbage().queues, 0, 'alive just before its lifespan');
  now += 1;
  t.equal(contextOf(s.chat).events.collectGarbage().queues, 1, "expired at its lifespan, as Zulip's now - last_connection_time >= queue_timeout");
  await isGone(t, s, s.owner, queue.queue_id, queue.last_event_id);
});

t.test('a user holds at most maxQueuesPerUser queues: registering one more expires the least recently polled', async (t) => {
  let now = Math.floor(Date.now() / 1000) * 1000;
  const s = await startServer({ clock: () => now, events: { maxQueuesPerUser: 3 } });
  t.teardown(() => s.close());
  const member = await s.user('member');
  const queues = [];
  for (let i = 0; i < 3; i++) {
    queues.push(await register(s, s.owner));
    now += 1000;
  }
  const other = await register(s, member);
  await poll(s, s.owner, queues[0]!.queue_id, queues[0]!.last_event_id);
  contextOf(s.chat).events.flushPolls();
  now += 1000;
  const newest = (s.chat.api.events.register(s.owner.user_id, { fetchEventTypes: [] }) as { queue_id: string }).queue_id;
  await isGone(t, s, s.owner, queues[1]!.queue_id, queues[1]!.last_event_id);
  for (const id of [queues[0]!.queue_id, queues[2]!.queue_id, newest]) {
    t.equal((await poll(s, s.owner, id, queues[0]!.last_event_id)).status, 200, `queue ${id} lives`);
  }
  t.equal((await poll(s, member, other.queue_id, other.last_event_id)).status, 200, "another user's queue is untouched");
  const viaEvents = await s.request('GET', '/events', { as: s.owner, params: { dont_block: true } });
  t.equal(viaEvents.status, 200, 'GET /events without a queue_id registers within the same limit');
  t.equal(s.db.prepare('SELECT count(*) FROM event_queue WHERE user_id = ?').pluck().get(s.owner.user_id), 3);
});

t.test('by default a user holds at most 50 queues', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const first = await register(s, s.owner);
  for (let i = 0; i < 50; i++) s.chat.api.events.register(s.owner.user_id, { fetchEventTypes: [] });
  t.equal(s.db.prepare('SELECT count(*) FROM event_queue WHERE user_id = ?').pluck().get(s.owner.user_id), 50);
  await isGone(t, s, s.owner, first.queue_id, first.last_event_id);
});
