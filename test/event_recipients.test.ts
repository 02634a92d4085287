// An event for many users is one row listing them (schema.sql, event.recipients): each listed user,
// and no one else, gets it with their own flags, from a waiting long-poll and from a later poll
// alike, after a restart too, and the row is pruned like any other.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { createChatServer, type ChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { openTestDatabase } from './helpers.js';
import { contextOf } from '../lib/context.js';

type Queue = { queue_id: string; last_event_id: number };
type Polled = { events: { id: number; type: string; flags?: string[]; message?: { id: number } }[] };

const dir = mkdtempSync(join(tmpdir(), 'parley-recipients-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const file = join(dir, 'chat.db');

function open(): ChatServer {
  return createChatServer(openTestDatabase(file), { logger: silentLogger });
}

let chat = open();
const owner = await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' });
const members: number[] = [];
for (const name of ['Ann', 'Ben', 'Cid', 'Dee', 'Eve']) members.push((await chat.admin.addUser({ email: `${name}@example.com`, fullName: name })).user_id);
const outsider = (await chat.admin.addUser({ email: 'out@example.com', fullName: 'Outsider' })).user_id;
chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'crowd' }], principals: [owner.user_id, ...members] });
const queues = new Map<number, Queue>();
for (const userId of [...members, outsider]) queues.set(userId, chat.api.events.register(userId, { eventTypes: ['message'] }) as Queue);
const ben = members[1]!;

const poll = (c: ChatServer, userId: number, dontBlock = true): Promise<Polled> => {
  const q = queues.get(userId)!;
  return c.api.events.get(userId, { queueId: q.queue_id, lastEventId: q.last_event_id, dontBlock }) as Promise<Polled>;
};
const summary = (polled: Polled) => polled.events.map((e) => [e.type, e.message?.id, e.flags]);

t.test('a waiting long-poll and later polls get the one event each recipient is due, with its own flags', async (t) => {
  const waiting = poll(chat, ben, false);
  const id = (chat.api.messages.send(owner.user_id, { type: 'stream', to: 'crowd', topic: 'hi', content: 'hello @**Ben**' }) as { id: number }).id;
  t.same(summary(await waiting), [['message', id, ['mentioned']]], 'the waiting poll: mentioned');
  t.same(summary(await poll(chat, ben)), [['message', id, ['mentioned']]], 'a later poll reads the same');
  for (const userId of members.filter((u) => u !== ben)) t.same(summary(await poll(chat, userId)), [['message', id, []]], `member ${userId}`);
  t.same(summary(await poll(chat, outsider)), [], 'a user outside the channel gets nothing');
  t.equal(contextOf(chat).db.prepare("SELECT count(*) FROM event WHERE type = 'message'").pluck().get(), 2, 'one row per distinct flags');
});

t.test('after a restart the queues read the same events', async (t) => {
  const before = new Map<number, unknown>();
  for (const userId of [...members, outsider]) before.set(userId, summary(await poll(chat, userId)));
  await chat.close();
  contextOf(chat).db.close();
  chat = open();
  for (const userId of [...members, outsider]) t.same(summary(await poll(chat, userId)), before.get(userId), `user ${userId}`);
});

t.test("a listed user's unacknowledged row holds back pruning; an unlisted user's queue does not", async (t) => {
  const ctx = contextOf(chat);
  const before = ctx.events.maxEventId();
  await chat.api.events.get(ben, { queueId: queues.get(ben)!.queue_id, lastEventId: before, dontBlock: true });
  const pending = (chat.api.messages.send(owner.user_id, { type: 'stream', to: 'crowd', topic: 'hi', content: 'for the list' }) as { id: number }).id;
  chat.api.messages.send(owner.user_id, { type: 'stream', to: 'crowd', topic: 'hi', content: 'after it' });
  const newest = ctx.events.maxEventId();
  for (const userId of members.filter((u) => u !== ben)) {
    await chat.api.events.get(userId, { queueId: queues.get(userId)!.queue_id, lastEventId: newest, dontBlock: true });
  }
  ctx.events.flushPolls();
  // Older than the pruning grace, younger than a queue's lifespan.
  ctx.db.prepare('UPDATE event SET created_at = created_at - 120').run();
  t.equal(ctx.events.collectGarbage().queues, 0, 'no queue expires');
  const left = ctx.db.prepare('SELECT id FROM event ORDER BY id').pluck().all() as number[];
  t.ok(left.length > 0 && left[0]! > before, 'every row before the one Ben still has to receive is pruned, the outsider acknowledging nothing');
  t.ok(left.length >= 2, 'that row and the one after it stay');
  const polled = (await chat.api.events.get(ben, { queueId: queues.get(ben)!.queue_id, lastEventId: before, dontBlock: true })) as Polled;
  t.ok(polled.events.some((e) => e.message?.id === pending), 'Ben still receives the listed row');
});

t.test('the row is pruned once every queue has acknowledged it', async (t) => {
  chat.api.messages.send(owner.user_id, { type: 'stream', to: 'crowd', topic: 'hi', content: 'newest' });
  const newest = contextOf(chat).events.maxEventId();
  for (const [userId, q] of queues) await chat.api.events.get(userId, { queueId: q.queue_id, lastEventId: newest, dontBlock: true });
  contextOf(chat).events.flushPolls();
  contextOf(chat).db.prepare('UPDATE event SET created_at = 0').run();
  contextOf(chat).events.collectGarbage();
  t.same(contextOf(chat).db.prepare('SELECT id FROM event').pluck().all(), [newest], 'only the newest row stays');
});

t.teardown(async () => {
  await chat.close();
  contextOf(chat).db.close();
});
