// parley's background work waits on ChatOptions.timers (lib/timers.ts): with the test kit's clock
// the long-poll heartbeat, queue expiry, cross-process polling and push registration retries
// happen when the clock passes their time, and never before; a closed server leaves none waiting.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import t from 'tap';
import { createChatServer, type DeliveredEvent } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { createTestClock, type TestClock } from '../lib/testing/clock.js';
import { keyParams, newPhone, tokenParams, type StandInBouncer } from './bouncer.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { pushWorld, registrationSettled } from './push_helpers.js';

/** Whether `promise` settles within a short real wait (the clock standing still). */
async function settlesSoon(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  void promise.then(
    () => (settled = true),
    () => (settled = true),
  );
  await new Promise((resolve) => setTimeout(resolve, 50));
  return settled;
}

async function newDevice(s: TestServer, user: TestUser): Promise<number> {
  return (await s.request('POST', '/register_client_device', { as: user })).body.device_id as number;
}

/** Registers a new phone on the device: parley forwards the registration to the stand-in after commit. */
async function registerPhone(s: TestServer, user: TestUser, bouncer: StandInBouncer, deviceId: number): Promise<void> {
  const phone = newPhone();
  const params = { device_id: deviceId, ...keyParams(bouncer, phone), ...tokenParams(bouncer, phone) };
  if ((await s.request('POST', '/mobile_push/register', { as: user, params })).status !== 200) throw new Error('registration refused');
}

function clocked(clock: TestClock) {
  return { clock: clock.now, timers: clock.timers };
}

t.test('a waiting GET /events answers with a heartbeat when the clock reaches heartbeatSeconds, not before', async (t) => {
  const clock = createTestClock();
  const s = await startServer({ ...clocked(clock), events: { heartbeatSeconds: 45 } });
  t.teardown(() => s.close());
  const queue = (await s.request('POST', '/register', { as: s.owner, params: { event_types: ['message'] } })).body;
  const poll = s.request('GET', '/events', { as: s.owner, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id } });
  await clock.advance(44_999);
  t.notOk(await settlesSoon(poll), 'still waiting 1 ms before the heartbeat');
  await clock.advance(1);
  const reply = await poll;
  t.equal(reply.status, 200);
  t.same(reply.body.events, [{ type: 'heartbeat', id: queue.last_event_id }]);
});

t.test('an idle queue expires when the clock passes its lifespan and the next garbage collection', async (t) => {
  const clock = createTestClock();
  const s = await startServer({ ...clocked(clock), events: { queueLifespanSeconds: 600, gcIntervalMs: 60_000 } });
  t.teardown(() => s.close());
  const { queue_id, last_event_id } = (await s.request('POST', '/register', { as: s.owner })).body;
  const poll = () => s.request('GET', '/events', { as: s.owner, params: { queue_id, last_event_id, dont_block: true } });
  await clock.advance(540_000);
  t.equal((await poll()).status, 200, 'polled 9 minutes after it was made: alive');
  await clock.advance(540_000);
  t.equal((await poll()).status, 200, 'polled 9 minutes after the last poll: alive');
  await clock.advance(600_000);
  const gone = await poll();
  t.equal(gone.status, 400);
  t.match(gone.body, { code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${queue_id}` });
});

t.test("another process's commit reaches a waiting subscriber when the clock passes crossProcessPollMs", async (t) => {
  const file = join(t.testdir(), 'chat.db');
  const clock = createTestClock();
  const here = createChatServer(new Database(file), { ...clocked(clock), logger: silentLogger, events: { crossProcessPollMs: 100 } });
  const elsewhere = createChatServer(new Database(file), { logger: silentLogger });
  t.teardown(async () => {
    await here.close();
    await elsewhere.close();
  });
  const owner = await here.admin.initOrganization({ email: 'owner@example.com' });
  const received: DeliveredEvent[] = [];
  here.events.subscribe(owner.user_id, (event) => received.push(event), { eventTypes: ['message'] });
  elsewhere.api.messages.send(owner.user_id, { type: 'stream', to: 'general', topic: 'hi', content: 'from elsewhere' });
  await new Promise((resolve) => setTimeout(resolve, 50));
  await clock.advance(99);
  t.equal(received.length, 0, 'not noticed before the poll interval');
  await clock.advance(1);
  t.equal(received.length, 1, 'noticed at the poll');
  t.match(received[0], { type: 'message', message: { content: '<p>from elsewhere</p>' } });
});

t.test('a failed push registration is retried when the clock passes the retry delay, not before', async (t) => {
  const clock = createTestClock();
  const { s, bouncer, member } = await pushWorld(t, { push: { retryDelaysMs: [90_000] }, chat: clocked(clock) });
  bouncer.script.register.push('server_error');
  const deviceId = await newDevice(s, member);
  const settled = registrationSettled(s, member.user_id, deviceId);
  await registerPhone(s, member, bouncer, deviceId);
  const attempts = () => bouncer.requests.filter((r) => r.endpoint === 'register').length;
  // The first attempt runs after the commit; its retry then waits on the clock.
  while (attempts() < 1) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(attempts(), 1, 'the first attempt failed');
  await clock.advance(89_999);
  t.notOk(await settlesSoon(settled), 'no retry 1 ms before the delay');
  t.equal(attempts(), 1);
  await clock.advance(1);
  t.match(await settled, { device_id: deviceId, push_token_id: String, pending_push_token_id: null });
  t.equal(attempts(), 2);
});

t.test('a closed server leaves no timer waiting: garbage collection, heartbeats, polling, retries', async (t) => {
  const clock = createTestClock();
  const { s, bouncer, member } = await pushWorld(t, { push: { retryDelaysMs: [90_000] }, chat: clocked(clock) });
  bouncer.script.register.push('server_error');
  await registerPhone(s, member, bouncer, await newDevice(s, member));
  const queue = (await s.request('POST', '/register', { as: s.owner, params: { event_types: ['message'] } })).body;
  const poll = s.request('GET', '/events', { as: s.owner, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id } });
  s.chat.events.subscribe(member.user_id, () => {});
  while (bouncer.requests.length < 1) await new Promise((resolve) => setTimeout(resolve, 5));
  await new Promise((resolve) => setTimeout(resolve, 50));
  // Garbage collection, the heartbeat, cross-process polling and the delivery runner's wait for the retry.
  t.ok(clock.pending() >= 4, 'garbage collection, a retry, a heartbeat and cross-process polling are waiting');
  await s.chat.close();
  t.equal(clock.pending(), 0);
  t.same((await poll).body.events, [], 'the waiting poll was answered when the server closed');
});
