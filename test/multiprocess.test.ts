// Several processes on one database file (DESIGN "Durability"): two `parley serve` children take
// concurrent writes from many clients; no client sees SQLITE_BUSY or any 5xx, no acknowledged
// write is lost, and events committed by one process reach long-polls held by the other.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { attempt, seedDatabase, startServe, stop, type ServeChild } from './serve_process.js';
import type { TestUser } from './helpers.js';

t.setTimeout(180_000);

const CLIENTS = Number(process.env.MP_CLIENTS ?? 12);
const WRITES_PER_CLIENT = Number(process.env.MP_WRITES ?? 30);

/** Long-polls `url` for `user`'s drafts events, adding the draft ids to `seen`, until `stop` is aborted. */
async function collectDraftEvents(url: string, user: TestUser, queue: { queue_id: string; last_event_id: number }, seen: Set<number>, stop: AbortSignal): Promise<void> {
  let last = queue.last_event_id;
  while (!stop.aborted) {
    const reply = await attempt(url, user, 'GET', `/events?queue_id=${encodeURIComponent(queue.queue_id)}&last_event_id=${last}`, {}, stop);
    if (reply.status === 'failed' && stop.aborted) return;
    if (reply.status !== 200) throw new Error(`long-poll: ${reply.status} ${JSON.stringify(reply.body)}`);
    for (const event of reply.body.events as { id: number; type: string; op?: string; drafts?: { id: number }[] }[]) {
      last = Math.max(last, event.id);
      if (event.type === 'drafts' && event.op === 'add') for (const draft of event.drafts!) seen.add(draft.id);
    }
  }
}

t.test('two serve processes on one file: no 5xx, nothing lost, events cross between them', async (t) => {
  const seed = await seedDatabase(CLIENTS);
  t.teardown(seed.cleanup);
  const env = { PARLEY_RATE_LIMIT: '0' };
  const servers: ServeChild[] = await Promise.all([startServe(seed.file, [], env), startServe(seed.file, [], env)]);
  t.teardown(() => Promise.all(servers.map((s) => stop(s))));
  const [a, b] = servers as [ServeChild, ServeChild];
  // Client i writes through one process and long-polls the other for its own events.
  const writeTo = (i: number) => (i % 2 === 0 ? a : b);
  const pollAt = (i: number) => (i % 2 === 0 ? b : a);

  const queues = await Promise.all(
    seed.users.map(async (user, i) => {
      const reply = await attempt(pollAt(i).url, user, 'POST', '/register', { event_types: '["drafts"]', fetch_event_types: '[]' });
      if (reply.status !== 200) throw new Error(`register: ${JSON.stringify(reply.body)}`);
      return reply.body as { queue_id: string; last_event_id: number };
    }),
  );

  const acked: Set<number>[] = seed.users.map(() => new Set());
  const words: Set<string>[] = seed.users.map(() => new Set());
  const failures: string[] = [];
  const received: Set<number>[] = seed.users.map(() => new Set());
  const stops = seed.users.map(() => new AbortController());
  const polls = seed.users.map((user, i) => collectDraftEvents(pollAt(i).url, user, queues[i]!, received[i]!, stops[i]!.signal));

  await Promise.all(
    seed.users.map(async (user, i) => {
      for (let n = 0; n < WRITES_PER_CLIENT; n += 1) {
        const tag = `p${i}-${n}`;
        const draft = await attempt(writeTo(i).url, user, 'POST', '/drafts', { drafts: JSON.stringify([{ type: '', to: [], topic: '', content: tag }]) });
        if (draft.status === 200) acked[i]!.add((draft.body.ids as number[])[0]!);
        else failures.push(`${tag} draft: ${draft.status} ${JSON.stringify(draft.body)}`);
        // Alert words through the other process, so both write to the same user's rows.
        const word = await attempt(pollAt(i).url, user, 'POST', '/users/me/alert_words', { alert_words: JSON.stringify([tag]) });
        if (word.status === 200) words[i]!.add(tag);
        else failures.push(`${tag} alert word: ${word.status} ${JSON.stringify(word.body)}`);
      }
    }),
  );
  t.same(failures, [], 'every write was acknowledged: no SQLITE_BUSY, no 5xx');

  // Each long-poll ends once all its events arrived, or after a minute (and the test fails).
  const deadline = Date.now() + 60_000;
  const arrived = (i: number) => [...acked[i]!].every((id) => received[i]!.has(id));
  while (Date.now() < deadline && !seed.users.every((_, i) => arrived(i))) await new Promise((resolve) => setTimeout(resolve, 50));
  stops.forEach((stop) => stop.abort());
  await Promise.all(polls);
  for (const [i, user] of seed.users.entries()) {
    const missing = [...acked[i]!].filter((id) => !received[i]!.has(id));
    t.same(missing, [], `${user.email}: all ${acked[i]!.size} drafts events reached the long-poll held by the other process`);
  }

  for (const [i, user] of seed.users.entries()) {
    for (const server of [a, b]) {
      const drafts = await attempt(server.url, user, 'GET', '/drafts', {});
      const ids = new Set(((drafts.status === 200 ? drafts.body.drafts : []) as { id: number }[]).map((d) => d.id));
      t.ok([...acked[i]!].every((id) => ids.has(id)), `${user.email}: every acknowledged draft, read through ${server === a ? 'A' : 'B'}`);
      const stored = await attempt(server.url, user, 'GET', '/users/me/alert_words', {});
      const storedWords = new Set((stored.status === 200 ? stored.body.alert_words : []) as string[]);
      t.ok([...words[i]!].every((w) => storedWords.has(w)), `${user.email}: every acknowledged alert word`);
    }
  }
  t.equal(acked.reduce((sum, set) => sum + set.size, 0), CLIENTS * WRITES_PER_CLIENT);
  for (const server of servers) t.notMatch(server.stderr(), /SQLITE_BUSY|database is locked|unexpected error/, 'nothing went wrong in the logs');
});

t.test('two servers opening a new file at once: one creates the organization, the other is told it exists', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-proc-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  const file = join(dir, 'chat.db');
  const dbs = [new Database(file), new Database(file)];
  const chats = dbs.map((db) => createChatServer(db, { logger: silentLogger }));
  t.teardown(async () => {
    for (const chat of chats) await chat.close();
    for (const db of dbs) db.close();
  });
  // Both look before either writes (the password is hashed in between): only the write lock decides.
  const results = await Promise.allSettled(
    chats.map((chat, i) => chat.admin.initOrganization({ email: `owner${i}@example.com`, password: 'pw-pw-pw', orgName: `Org ${i}`, url: `http://org${i}.example.com` })),
  );
  const created = results.flatMap((r, i) => (r.status === 'fulfilled' ? [i] : []));
  t.equal(created.length, 1, 'exactly one created it');
  const loser = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
  t.equal((loser.reason as Error).message, 'This database already has an organization with users.');
  const winner = created[0]!;
  t.same(dbs[0]!.prepare('SELECT email, role FROM user').all(), [{ email: `owner${winner}@example.com`, role: 100 }], 'one owner');
  t.same(dbs[1]!.prepare('SELECT name, url FROM realm').get(), { name: `Org ${winner}`, url: `http://org${winner}.example.com` }, "the winner's name and URL");
});
