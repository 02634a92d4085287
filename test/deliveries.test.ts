// The delivery outbox (lib/deliveries/): a delivery is written in the transaction that decides it,
// sent after the commit and never for a rollback, retried with the kind's back-off, given up when
// the retries run out or the remote refuses, resumed by the next server on the database after a
// stop or a crash, and succeeds at most once however many servers share the database.
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import { createChatServer, type ChatServer } from '../lib/index.js';
import { contextOf, type Ctx } from '../lib/context.js';
import { enqueueDelivery, type DeliveryKind, type DeliveryOutcome, type DeliveryFailure } from '../lib/deliveries/outbox.js';
import { deliveryRunner, type DeliveryRunner } from '../lib/deliveries/runner.js';
import { silentLogger } from '../lib/logger.js';
import { manualTime, type ManualTime } from './manual_time.js';
import { startServer } from './helpers.js';

interface Sent {
  payload: { n: number; [key: string]: unknown };
  attempt: number;
  inTransaction: boolean;
  committed: boolean;
  at: number;
}

interface TestKind {
  kind: DeliveryKind<Sent['payload']>;
  sent: Sent[];
  failures: { payload: Sent['payload']; failure: DeliveryFailure; inTransaction: boolean }[];
  enabled: { value: boolean };
}

type Behaviour = (payload: Sent['payload'], attempt: number, signal: AbortSignal) => DeliveryOutcome<Sent['payload']> | Promise<DeliveryOutcome<Sent['payload']>>;

let kindCounter = 0;

/** A kind that records what it is asked to send and answers as `behave` says. */
function testKind(behave: Behaviour = () => ({ status: 'sent' }), options: { delays?: number[]; timeoutMs?: number } = {}): TestKind {
  const sent: Sent[] = [];
  const failures: TestKind['failures'] = [];
  const enabled = { value: true };
  const kind: DeliveryKind<Sent['payload']> = {
    name: `test_kind_${kindCounter++}`,
    enabled: () => enabled.value,
    timeoutMs: () => options.timeoutMs ?? 1000,
    retryDelaysMs: () => options.delays ?? [100, 200],
    async send(ctx, delivery) {
      const committed = ctx.db.prepare('SELECT count(*) FROM delivery WHERE id = ?').pluck().get(delivery.id) === 1;
      sent.push({ payload: delivery.payload, attempt: delivery.attempt, inTransaction: ctx.db.inTransaction, committed, at: ctx.clock() });
      return behave(delivery.payload, delivery.attempt, delivery.signal);
    },
    failed(ctx, payload, failure) {
      failures.push({ payload, failure, inTransaction: ctx.db.inTransaction });
    },
  };
  return { kind, sent, failures, enabled };
}

interface World {
  chat: ChatServer;
  ctx: Ctx;
  runner: DeliveryRunner;
  time: ManualTime;
}

/** A server on :memory: whose clock and timers the test moves. */
async function world(t: Test, ...kinds: TestKind[]): Promise<World> {
  const time = manualTime();
  const chat = createChatServer(new Database(':memory:'), { logger: silentLogger, clock: time.clock, timers: time.timers });
  t.teardown(() => chat.close());
  const ctx = contextOf(chat);
  const runner = deliveryRunner(ctx)!;
  for (const k of kinds) runner.add(k.kind);
  return { chat, ctx, runner, time };
}

const enqueue = (ctx: Ctx, kind: TestKind, n: number, options = {}) => ctx.tx(() => enqueueDelivery(ctx, kind.kind, { n }, options));
const rows = (ctx: Ctx) => ctx.db.prepare('SELECT count(*) FROM delivery').pluck().get() as number;

t.test('A delivery written in a transaction is sent after the commit, outside any transaction', async (t) => {
  const k = testKind();
  const { ctx, runner } = await world(t, k);
  enqueue(ctx, k, 1);
  t.same(k.sent, [], 'nothing is sent inside the transaction');
  await runner.settled();
  t.equal(k.sent.length, 1);
  t.match(k.sent[0], { payload: { n: 1 }, attempt: 1, inTransaction: false, committed: true });
  t.equal(rows(ctx), 0, 'a sent delivery leaves the outbox');
});

t.test('A transaction that rolls back delivers nothing', async (t) => {
  const k = testKind();
  const { ctx, runner } = await world(t, k);
  t.throws(() =>
    ctx.tx(() => {
      enqueueDelivery(ctx, k.kind, { n: 1 });
      throw new Error('the change is refused');
    }),
  );
  await runner.settled();
  t.same(k.sent, []);
  t.equal(rows(ctx), 0);
  t.throws(() => enqueueDelivery(ctx, k.kind, { n: 2 }), /inside a transaction/, 'outside a transaction a delivery is refused');
});

t.test('A retry waits for the next of the kind\'s delays; when they run out the delivery fails once', async (t) => {
  const k = testKind(() => ({ status: 'retry', reason: 'bouncer down', code: 'DOWN' }), { delays: [100, 200] });
  const { ctx, runner, time } = await world(t, k);
  const start = time.clock();
  enqueue(ctx, k, 1);
  for (const [ms, attempts, label] of [
    [0, 1, 'first attempt'],
    [99, 1, 'not before the first delay'],
    [1, 2, 'after 100 ms'],
    [199, 2, 'not before the second delay'],
    [1, 3, 'after 200 ms more'],
  ] as const) {
    time.advance(ms);
    await runner.settled();
    t.equal(k.sent.length, attempts, label);
  }
  t.same(k.sent.map((s) => [s.attempt, s.at - start]), [[1, 0], [2, 100], [3, 300]], 'attempts after each delay');
  t.same(k.failures.map((f) => f.failure), [{ reason: 'bouncer down', code: 'DOWN', exhausted: true }]);
  t.equal(k.failures[0]!.inTransaction, true, '`failed` runs in the transaction that removes the row');
  time.advance(10_000);
  await runner.settled();
  t.equal(k.sent.length, 3, 'no attempt after the last');
  t.equal(rows(ctx), 0);
});

t.test('A refusal fails at once; a success after failures ends the retries', async (t) => {
  const refused = testKind(() => ({ status: 'failed', reason: 'no such address' }));
  const flaky = testKind((_p, attempt) => (attempt < 2 ? { status: 'retry', reason: 'timeout' } : { status: 'sent' }));
  const { ctx, runner, time } = await world(t, refused, flaky);
  enqueue(ctx, refused, 1);
  enqueue(ctx, flaky, 2);
  await runner.settled();
  time.advance(100);
  await runner.settled();
  time.advance(1000);
  await runner.settled();
  t.equal(refused.sent.length, 1, 'a refusal is not retried');
  t.same(refused.failures.map((f) => f.failure), [{ reason: 'no such address', code: undefined, exhausted: false }]);
  t.same(flaky.sent.map((s) => s.attempt), [1, 2]);
  t.same(flaky.failures, []);
  t.equal(rows(ctx), 0);
});

t.test('A retry may carry what is left; `later` comes back at its time with the retry count reset', async (t) => {
  const k = testKind((payload) => {
    if (payload.n === 1) return { status: 'retry', reason: 'half sent', payload: { n: 2 } };
    if (payload.n === 2) return { status: 'later', dueAt: 0, payload: { n: 3 } };
    return { status: 'sent' };
  }, { delays: [50] });
  const { ctx, runner, time } = await world(t, k);
  enqueue(ctx, k, 1);
  await runner.settled();
  time.advance(50);
  await runner.settled();
  t.same(k.sent.map((s) => [s.payload.n, s.attempt]), [[1, 1], [2, 2], [3, 1]]);
  t.equal(rows(ctx), 0);
});

t.test('An attempt that outlasts the kind\'s timeout is aborted and retried; other deliveries do not wait for it', async (t) => {
  const aborted: boolean[] = [];
  const k = testKind(
    (payload, attempt, signal) =>
      payload.n === 1 && attempt === 1
        ? new Promise((resolve) => signal.addEventListener('abort', () => (aborted.push(true), resolve({ status: 'sent' }))))
        : { status: 'sent' },
    { timeoutMs: 500, delays: [10] },
  );
  const { ctx, runner, time } = await world(t, k);
  enqueue(ctx, k, 1);
  await new Promise((resolve) => setImmediate(resolve));
  enqueue(ctx, k, 2);
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.same(k.sent.map((s) => s.payload.n), [1, 2], 'the second is sent while the first hangs');
  time.advance(500);
  await runner.settled();
  t.same(aborted, [true], 'the hanging attempt saw its signal aborted');
  time.advance(10);
  await runner.settled();
  t.same(k.sent.map((s) => [s.payload.n, s.attempt]), [[1, 1], [2, 1], [1, 2]], 'retried after its delay');
  t.equal(rows(ctx), 0);
});

t.test('Moving the clock past the lease of an attempt still under way does not spin: the attempt ends and is retried once', async (t) => {
  const k = testKind((_payload, attempt) => (attempt === 1 ? new Promise(() => {}) : { status: 'sent' }), { timeoutMs: 500, delays: [10] });
  const { ctx, runner, time } = await world(t, k);
  enqueue(ctx, k, 1);
  await new Promise((resolve) => setTimeout(resolve, 20));
  t.equal(k.sent.length, 1, 'the first attempt hangs');
  // In one synchronous step: past the attempt's deadline and its lease (deadline + 1 s), before the
  // aborted attempt's outcome is recorded. A 0 ms wait for the row it still holds would never return.
  time.advance(5_000);
  await runner.settled();
  time.advance(10);
  await runner.settled();
  t.same(k.sent.map((s) => s.attempt), [1, 2], 'retried once, after its delay');
  t.equal(rows(ctx), 0);
});

t.test('With a key, one delivery is pending: a later one joins it, or replaces it', async (t) => {
  const joining = testKind();
  const replacing = testKind();
  const { ctx, runner } = await world(t, joining, replacing);
  ctx.tx(() => {
    t.equal(enqueueDelivery(ctx, joining.kind, { n: 1 }, { key: 'user:5' }), true);
    t.equal(enqueueDelivery(ctx, joining.kind, { n: 2 }, { key: 'user:5' }), false, 'joins the pending one');
    t.equal(enqueueDelivery(ctx, joining.kind, { n: 3 }, { key: 'user:6' }), true, 'another key');
    enqueueDelivery(ctx, replacing.kind, { n: 1 }, { key: 'device:1', onPending: 'replace' });
    enqueueDelivery(ctx, replacing.kind, { n: 2 }, { key: 'device:1', onPending: 'replace' });
  });
  await runner.settled();
  t.same(joining.sent.map((s) => s.payload.n).sort(), [1, 3]);
  t.same(replacing.sent.map((s) => s.payload.n), [2]);
  enqueue(ctx, joining, 4, { key: 'user:5' });
  await runner.settled();
  t.same(joining.sent.map((s) => s.payload.n).sort(), [1, 3, 4], 'once sent, the key is free again');
});

t.test('A replaced delivery\'s attempt under way loses the row: only the new one is recorded', async (t) => {
  let release: () => void = () => {};
  const k = testKind((payload) => (payload.n === 1 ? new Promise((resolve) => (release = () => resolve({ status: 'sent' }))) : { status: 'sent' }));
  const { ctx, runner } = await world(t, k);
  enqueue(ctx, k, 1, { key: 'd', onPending: 'replace' });
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(k.sent.length, 1, 'the first attempt is under way');
  enqueue(ctx, k, 2, { key: 'd', onPending: 'replace' });
  release();
  await runner.settled();
  t.same(k.sent.map((s) => s.payload.n), [1, 2], 'the replacement is still sent');
  t.equal(rows(ctx), 0);
});

t.test('Rows of a kind this server does not send wait; they go once it does', async (t) => {
  const k = testKind();
  k.enabled.value = false;
  const { ctx, runner } = await world(t, k);
  enqueue(ctx, k, 1);
  await runner.settled();
  t.same(k.sent, []);
  t.equal(rows(ctx), 1);
  k.enabled.value = true;
  runner.wake();
  await runner.settled();
  t.equal(k.sent.length, 1);
});

t.test('Deliveries are resumed by the next server on the database: a stop releases the attempt under way', async (t) => {
  const s = await startServer();
  const hanging = testKind((_p, _a, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve({ status: 'sent' }))), {
    timeoutMs: 60_000,
  });
  const ctx = contextOf(s.chat);
  deliveryRunner(ctx)!.add(hanging.kind);
  enqueue(ctx, hanging, 1);
  while (hanging.sent.length === 0) await new Promise((resolve) => setImmediate(resolve));
  await s.chat.close();
  t.match(s.db.prepare('SELECT claim, attempts FROM delivery').get(), { claim: null, attempts: 0 }, 'released, the attempt not counted');

  const next = testKind();
  next.kind = { ...next.kind, name: hanging.kind.name };
  const again = createChatServer(s.db, { logger: silentLogger });
  deliveryRunner(contextOf(again))!.add(next.kind);
  await deliveryRunner(contextOf(again))!.settled();
  t.same(next.sent.map((x) => [x.payload.n, x.attempt]), [[1, 1]]);
  await again.close();
  s.db.close();
});

t.test('A crashed sender\'s rows come due again when its lease ends, and are sent once', async (t) => {
  const k = testKind(() => ({ status: 'sent' }), { timeoutMs: 2000 });
  const { ctx, runner, time } = await world(t, k);
  k.enabled.value = false;
  enqueue(ctx, k, 1);
  // What a process that claimed the row and died leaves behind: a claim and a lease end.
  ctx.db.prepare('UPDATE delivery SET claim = 42, attempts = 1, due_at = ?').run(time.clock() + 3000);
  k.enabled.value = true;
  runner.wake();
  await runner.settled();
  t.same(k.sent, [], 'not while the lease lasts');
  time.advance(3000);
  await runner.settled();
  t.same(k.sent.map((s) => [s.payload.n, s.attempt]), [[1, 2]]);
  t.equal(rows(ctx), 0);
});

t.test('Two servers on one database file: every delivery succeeds exactly once', async (t) => {
  const s = await startServer();
  const other = createChatServer(new Database(contextOf(s.chat).db.name), { logger: silentLogger });
  t.teardown(() => other.close());
  const sent: number[] = [];
  const shared = testKind(async (payload) => {
    await new Promise((resolve) => setTimeout(resolve, payload.n % 3));
    sent.push(payload.n);
    return { status: 'sent' };
  });
  const runners = [deliveryRunner(contextOf(s.chat))!, deliveryRunner(contextOf(other))!];
  for (const runner of runners) runner.add(shared.kind);
  const ctx = contextOf(s.chat);
  ctx.tx(() => {
    for (let n = 0; n < 200; n++) enqueueDelivery(ctx, shared.kind, { n });
  });
  runners[1]!.wake();
  await Promise.all(runners.map((runner) => runner.settled()));
  await Promise.all(runners.map((runner) => runner.settled()));
  t.equal(sent.length, 200);
  t.same([...new Set(sent)].length, 200, 'no delivery twice');
  t.equal(rows(ctx), 0);
  await s.close();
});

t.test('`busy` is not an attempt: the delivery comes back at its time with its retries intact', async (t) => {
  const answers: DeliveryOutcome<Sent['payload']>[] = [
    { status: 'retry', reason: 'down' },
    { status: 'busy', dueAt: 0 },
    { status: 'busy', dueAt: 0 },
    { status: 'retry', reason: 'down' },
    { status: 'sent' },
  ];
  let time: ManualTime | undefined;
  const k = testKind(() => {
    const next = answers.shift()!;
    return next.status === 'busy' ? { ...next, dueAt: time!.clock() + 50 } : next;
  }, { delays: [100, 100] });
  const w = await world(t, k);
  time = w.time;
  enqueue(w.ctx, k, 1);
  for (const ms of [0, 100, 50, 50, 100]) {
    w.time.advance(ms);
    await w.runner.settled();
  }
  t.same(k.sent.map((s) => s.attempt), [1, 2, 2, 2, 3], 'the busy rounds leave the count where it was');
  t.same(k.failures, [], 'two retries of two: not exhausted');
  t.equal(rows(w.ctx), 0);
});

t.test('`sent` and `failed` may hand their hooks a payload of what the attempt learned', async (t) => {
  const seen: unknown[] = [];
  const kind: DeliveryKind<{ n: number; learned?: string }> = {
    name: 'test_kind_learns',
    enabled: () => true,
    timeoutMs: () => 1000,
    retryDelaysMs: () => [],
    send: async (_ctx, { payload }) => (payload.n === 1 ? { status: 'sent', payload: { ...payload, learned: 'reply' } } : { status: 'failed', reason: 'no', payload: { ...payload, learned: 'why' } }),
    succeeded: (ctx, payload) => void seen.push(['succeeded', payload, ctx.db.inTransaction]),
    failed: (ctx, payload) => void seen.push(['failed', payload, ctx.db.inTransaction]),
  };
  const { ctx, runner } = await world(t);
  runner.add(kind as DeliveryKind<unknown>);
  ctx.tx(() => {
    enqueueDelivery(ctx, kind, { n: 1 });
    enqueueDelivery(ctx, kind, { n: 2 });
  });
  await runner.settled();
  t.same(seen, [
    ['succeeded', { n: 1, learned: 'reply' }, true],
    ['failed', { n: 2, learned: 'why' }, true],
  ]);
});
