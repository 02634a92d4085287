// Other people's events never spend a user's rate limit: a member and three bots of theirs flood a
// user with typing notifications while the user's client long-polls GET /events and sends messages,
// under a low rate limit (a fixed clock: no budget refills during the test). The user's polls and
// sends all succeed, and each flooding sender reaches them once.
import t from 'tap';
import { startServer, withAuth, type TestUser } from './helpers.js';

const RATE = 30;
const NOW = Date.UTC(2026, 0, 1);
const s = await startServer({ rateLimit: { requestsPerMinute: RATE }, clock: () => NOW });
t.teardown(() => s.close());

/** Between two notifications of one sender. */
const PACE_MS = 15;
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const victim = await s.user('member');
const attacker = await s.user('member');

/** A web client's loop: long-polls GET /events and moves last_event_id on, until stopped. */
function pollingClient(user: TestUser, queue: { queue_id: string; last_event_id: number }) {
  const statuses: number[] = [];
  const events: Record<string, any>[] = [];
  const stop = new AbortController();
  let lastEventId = queue.last_event_id;
  const done = (async () => {
    for (;;) {
      const query = new URLSearchParams({ queue_id: queue.queue_id, last_event_id: String(lastEventId) });
      let response: Response;
      try {
        response = await fetch(`${s.url}/api/v1/events?${query}`, { headers: { authorization: user.auth }, signal: stop.signal });
      } catch {
        return;
      }
      statuses.push(response.status);
      const body = (await response.json()) as { events?: Record<string, any>[] };
      // A client told 429 would show "Reconnecting…" and back off: the test stops there.
      if (response.status !== 200) return;
      for (const event of body.events!) {
        events.push(event);
        lastEventId = Math.max(lastEventId, event.id as number);
      }
    }
  })();
  return { statuses, events, stop: () => (stop.abort(), done) };
}

t.test("a typing flood by a member and three of their bots costs the victim's polls and sends nothing", async (t) => {
  const bots: TestUser[] = [];
  for (const name of ['one', 'two', 'three']) {
    const created = await s.request('POST', '/bots', { as: attacker, params: { full_name: `Flood ${name}`, short_name: `flood-${name}` } });
    t.equal(created.status, 200, `bot ${name} created`);
    bots.push(withAuth(created.body as { email: string; api_key: string; user_id: number }));
  }
  const senders = [attacker, ...bots];

  const queue = await s.request('POST', '/register', { as: victim, params: { event_types: ['message', 'typing'] } });
  t.equal(queue.status, 200);
  const client = pollingClient(victim, queue.body as { queue_id: string; last_event_id: number });

  // Every sender spends its whole budget typing at the victim, a notification every few
  // milliseconds each, so that each one could end a poll of the victim's on its own.
  const flood = senders.map(async (sender) => {
    for (let i = 0; i < RATE; i += 1) {
      await s.request('POST', '/typing', { as: sender, params: { op: 'start', to: [victim.user_id] } });
      await pause(PACE_MS);
    }
  });
  const sends: number[] = [];
  const victimSends = (async () => {
    for (let i = 0; i < 5; i += 1) {
      await pause((RATE * PACE_MS) / 5);
      sends.push((await s.request('POST', '/messages', { as: victim, params: { type: 'direct', to: [attacker.user_id], content: `reply ${i}` } })).status);
    }
  })();
  await Promise.all([...flood, victimSends]);
  // Its own five messages come back to the victim's queue, after every typing event it gets.
  for (let waited = 0; client.events.filter((e) => e.type === 'message').length < 5 && waited < 10_000; waited += 10) await pause(10);
  await client.stop();

  t.same(sends, [200, 200, 200, 200, 200], "the victim's sends all succeed");
  t.ok(client.statuses.length > 0, 'the victim polled');
  t.same(client.statuses.filter((status) => status !== 200), [], "none of the victim's polls is refused");
  const typing = client.events.filter((e) => e.type === 'typing');
  t.same(
    typing.map((e) => e.sender.user_id).sort((a: number, b: number) => a - b),
    senders.map((u) => u.user_id).sort((a, b) => a - b),
    `${senders.length * RATE} notifications reach the victim once per sender`,
  );
});
