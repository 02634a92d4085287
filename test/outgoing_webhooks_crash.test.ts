// An outgoing webhook survives a crash between its message's commit and its answer: a real
// `parley serve` on a real SQLite file is killed with SIGKILL while the bot's server holds its
// answer; the restarted server asks the bot's server again once the dead one's lease has ended
// (the timeout, PARLEY_WEBHOOKS_TIMEOUT_MS, and a margin), and the bot's reply is posted once.
import t from 'tap';
import Database from 'better-sqlite3';
import { attempt, seedDatabase, startServe, stop, until, type ServeChild } from './serve_process.js';
import { startTarget } from './outgoing_helpers.js';
import { withAuth } from './helpers.js';

t.setTimeout(120_000);

t.test('SIGKILL while the bot server holds its answer: after a restart it is asked again, and its reply is posted once', async (t) => {
  const seed = await seedDatabase(1);
  t.teardown(seed.cleanup);
  const target = await startTarget(t, 'hang');
  const env = { PARLEY_WEBHOOKS_ALLOW_PRIVATE: '1', PARLEY_WEBHOOKS_TIMEOUT_MS: '3000', PARLEY_RATE_LIMIT: '0' };
  let server: ServeChild | undefined = await startServe(seed.file, [], env);
  t.teardown(() => stop(server));
  const [member] = seed.users as [(typeof seed.users)[0]];
  const made = await attempt(server.url, member, 'POST', '/bots', { full_name: 'Echo Bot', short_name: 'echo', bot_type: '3', payload_url: JSON.stringify(target.url) });
  t.equal(made.status, 200, 'the outgoing webhook bot is made');
  const bot = withAuth(made.body as { email: string; api_key: string; user_id: number });
  const db = new Database(seed.file, { readonly: true });
  t.teardown(() => db.close());
  const replies = () => db.prepare('SELECT content FROM message WHERE sender_id = ?').pluck().all(bot.user_id);

  const sent = await attempt(server.url, member, 'POST', '/messages', { type: 'direct', to: JSON.stringify([bot.user_id]), content: 'are you there?' });
  t.equal(sent.status, 200, 'the message is committed');
  await target.received(1);
  t.equal(await stop(server, 'SIGKILL'), 'SIGKILL', 'the server is killed while the bot server holds its answer');
  server = undefined;
  t.same(replies(), [], 'nothing posted yet');
  t.equal(db.prepare('SELECT count(*) FROM delivery').pluck().get(), 1, 'the delivery is still in the file');

  target.fallback = { body: { content: 'I am now' } };
  server = await startServe(seed.file, [], env);
  await until('the reply', () => replies().length > 0);
  await until('the outbox to empty', () => db.prepare('SELECT count(*) FROM delivery').pluck().get() === 0);
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.same(replies(), ['I am now'], 'posted once');
  t.equal(target.requests.length, 2, 'the bot server was asked twice: by the killed server and once by the next');
  t.match(JSON.parse(target.requests[1]!.body), { trigger: 'direct_message', data: 'are you there?', bot_email: bot.email });
});
