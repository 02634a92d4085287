// Reading the event log without a per-user index (schema.sql, event): what a queue that is behind
// and queue garbage collection pay for it, next to a raw scan of the same rows. The log holds
// 100,000 events of one busy user after every queue's acknowledgement, the worst case: no queue
// finds an event of its own, so each read goes to the end of the log.
import { contextOf } from '../lib/context.js';
import { openBenchChat } from './chat.js';
import { msPerCall, msPerCallAsync, record } from './harness.js';

const GROUP = 'event log';
const EVENTS = 100_000;
const QUEUES = 1000;

export async function run(): Promise<void> {
  const bench = await openBenchChat();
  const { chat, db, ownerId } = bench;
  const ctx = contextOf(chat);
  const busy = (await chat.admin.addUser({ email: 'busy@example.com', fullName: 'Busy Bot', bot: true })).user_id;
  const users: number[] = [];
  for (let i = 0; i < QUEUES; i++) users.push((await chat.admin.addUser({ email: `q${i}@example.com`, fullName: `Queue ${i}` })).user_id);
  for (const userId of users) chat.api.events.register(userId, { eventTypes: ['message', 'drafts'] });
  const owners = chat.api.events.register(ownerId, { eventTypes: ['drafts'] }) as { queue_id: string; last_event_id: number };
  const since = ctx.events.maxEventId();
  const payload = JSON.stringify({ type: 'drafts', op: 'remove', draft_id: 1 });
  const insertEvent = db.prepare("INSERT INTO event (user_id, type, payload, created_at) VALUES (?, 'drafts', ?, ?)");
  const now = ctx.now();
  db.transaction(() => {
    for (let i = 0; i < EVENTS; i++) insertEvent.run(busy, payload, now);
  })();

  // What any read of the rows after an id costs at least: SQLite visiting each of them.
  const scan = db.prepare('SELECT count(*) FROM event WHERE id > ? AND user_id <> ?').pluck();
  const raw = { name: `raw SQL visiting the ${EVENTS.toLocaleString('en-US')} rows`, value: msPerCall(() => scan.get(since, ownerId), 5, 5) };
  record({ group: GROUP, name: raw.name, value: raw.value, unit: 'ms' });
  const behind = await msPerCallAsync(
    () => chat.api.events.get(ownerId, { queueId: owners.queue_id, lastEventId: owners.last_event_id, dontBlock: true }),
    5,
    5,
  );
  record({ group: GROUP, name: `GET /events of a queue ${EVENTS.toLocaleString('en-US')} other events behind (dont_block)`, value: behind, unit: 'ms', baseline: raw });
  const collect = msPerCall(() => ctx.events.collectGarbage(), 5, 5);
  record({
    group: GROUP,
    name: `queue garbage collection, ${QUEUES.toLocaleString('en-US')} queues, none with an event of its own`,
    value: collect,
    unit: 'ms',
    baseline: raw,
  });
  await bench.close();
}
