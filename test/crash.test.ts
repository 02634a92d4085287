// Crash safety (DESIGN "Durability"): a `parley serve` child under a write load from many clients
// is killed with SIGKILL; the database passes PRAGMA integrity_check, and after a restart every
// write the server had acknowledged (a 2xx received) is there.
import t from 'tap';
import Database from 'better-sqlite3';
import { attempt, seedDatabase, startServe, stop, type ServeChild } from './serve_process.js';
import type { TestUser } from './helpers.js';

t.setTimeout(180_000);

const CLIENTS = 16;
/** Acknowledged writes to wait for before the kill (the load keeps running until it). */
const ACKED_BEFORE_KILL = 240;

interface Acked {
  drafts: Map<number, string>;
  words: Set<string>;
  views: Set<string>;
  /** Status texts: the last acknowledged one, and the one in flight when the server died. */
  status: { acked: string | undefined; inFlight: string | undefined };
}

/** One client: writes in turn (drafts, alert words, navigation views, status) until `stopped()`. */
async function writeLoop(url: string, user: TestUser, index: number, acked: Acked, counter: { n: number }, stopped: () => boolean): Promise<void> {
  for (let i = 0; !stopped(); i += 1) {
    const tag = `c${index}-${i}`;
    const kind = i % 4;
    if (kind === 3) acked.status.inFlight = tag;
    const reply =
      kind === 0
        ? await attempt(url, user, 'POST', '/drafts', { drafts: JSON.stringify([{ type: '', to: [], topic: '', content: tag }]) })
        : kind === 1
          ? await attempt(url, user, 'POST', '/users/me/alert_words', { alert_words: JSON.stringify([tag]) })
          : kind === 2
            ? await attempt(url, user, 'POST', '/navigation_views', { fragment: `narrow/${tag}`, is_pinned: 'true', name: tag })
            : await attempt(url, user, 'POST', '/users/me/status', { status_text: tag });
    if (reply.status === 'failed') return; // the server is gone
    if (reply.status !== 200) throw new Error(`${tag}: ${reply.status} ${JSON.stringify(reply.body)}`);
    counter.n += 1;
    if (kind === 0) acked.drafts.set((reply.body.ids as number[])[0]!, tag);
    if (kind === 1) acked.words.add(tag);
    if (kind === 2) acked.views.add(`narrow/${tag}`);
    if (kind === 3) acked.status = { acked: tag, inFlight: undefined };
  }
}

t.test('after SIGKILL under load: integrity_check is ok and every acknowledged write survives a restart', async (t) => {
  const seed = await seedDatabase(CLIENTS);
  t.teardown(seed.cleanup);
  let server: ServeChild | undefined = await startServe(seed.file);
  t.teardown(() => stop(server));

  const first = await attempt(server.url, seed.owner, 'GET', '/users/me', {});
  t.equal(first.status, 200);
  const probe = await fetch(`${server.url}/api/v1/server_settings`);
  t.equal(probe.headers.get('x-ratelimit-limit'), '200', 'parley serve limits 200 requests per minute by default');

  const acked: Acked[] = seed.users.map(() => ({ drafts: new Map(), words: new Set(), views: new Set(), status: { acked: undefined, inFlight: undefined } }));
  const counter = { n: 0 };
  let killed = false;
  const loops = seed.users.map((user, i) => writeLoop(server!.url, user, i, acked[i]!, counter, () => killed));
  while (counter.n < ACKED_BEFORE_KILL) await new Promise((resolve) => setTimeout(resolve, 20));
  server.child.kill('SIGKILL');
  killed = true;
  t.equal(await server.exit, 'SIGKILL');
  await Promise.all(loops);
  t.ok(counter.n >= ACKED_BEFORE_KILL, `${counter.n} writes acknowledged before the kill`);

  const check = new Database(seed.file, { readonly: false });
  t.equal(check.pragma('integrity_check', { simple: true }), 'ok', 'integrity_check right after the kill');
  t.equal((check.pragma('foreign_key_check') as unknown[]).length, 0, 'no dangling references');
  check.close();

  server = await startServe(seed.file);
  const url = server.url;
  for (const [i, user] of seed.users.entries()) {
    const mine = acked[i]!;
    const drafts = await attempt(url, user, 'GET', '/drafts', {});
    const stored = new Map(((drafts.status === 200 ? drafts.body.drafts : []) as { id: number; content: string }[]).map((d) => [d.id, d.content]));
    for (const [id, content] of mine.drafts) t.equal(stored.get(id), content, `${user.email}: draft ${id}`);
    const words = await attempt(url, user, 'GET', '/users/me/alert_words', {});
    const storedWords = new Set((words.status === 200 ? words.body.alert_words : []) as string[]);
    t.ok([...mine.words].every((w) => storedWords.has(w)), `${user.email}: all ${mine.words.size} acknowledged alert words`);
    const views = await attempt(url, user, 'GET', '/navigation_views', {});
    const storedViews = new Set(((views.status === 200 ? views.body.navigation_views : []) as { fragment: string }[]).map((v) => v.fragment));
    t.ok([...mine.views].every((v) => storedViews.has(v)), `${user.email}: all ${mine.views.size} acknowledged views`);
    const status = await attempt(url, user, 'GET', `/users/${user.user_id}/status`, {});
    const text = status.status === 200 ? (status.body.status.status_text as string | undefined) : 'unreadable';
    t.ok(text === mine.status.acked || (mine.status.inFlight !== undefined && text === mine.status.inFlight), `${user.email}: status ${text}`);
  }
  const after = await attempt(url, seed.users[0]!, 'POST', '/users/me/alert_words', { alert_words: '["after the restart"]' });
  t.equal(after.status, 200, 'the restarted server takes writes');
  await stop(server, 'SIGTERM');
  const final = new Database(seed.file);
  t.equal(final.pragma('integrity_check', { simple: true }), 'ok', 'integrity_check after the restart');
  final.close();
});
