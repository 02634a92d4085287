// A push notification survives a crash between its message's commit and its delivery: a real
// `parley serve` on a real SQLite file is killed with SIGKILL while the bouncer stand-in holds its
// answer; the restarted server sends the notification again once the dead one's lease has ended,
// and the phone gets it exactly once.
import t from 'tap';
import Database from 'better-sqlite3';
import { keyParams, newPhone, startBouncer, tokenParams } from './bouncer.js';
import { attempt, seedDatabase, startServe, stop, until, type ServeChild } from './serve_process.js';

t.setTimeout(120_000);

t.test('SIGKILL after the commit and before the delivery: after a restart the notification arrives once', async (t) => {
  const seed = await seedDatabase(2);
  t.teardown(seed.cleanup);
  const bouncer = await startBouncer();
  t.teardown(() => bouncer.close());
  const env = {
    PARLEY_PUSH_BOUNCER_URL: bouncer.url,
    PARLEY_PUSH_SERVER_ID: bouncer.serverId,
    PARLEY_PUSH_SERVER_KEY: bouncer.serverKey,
    // The lease of a dead server's attempt is this timeout and a second.
    PARLEY_PUSH_TIMEOUT_MS: '1000',
    PARLEY_RATE_LIMIT: '0',
  };
  let server: ServeChild | undefined = await startServe(seed.file, [], env);
  t.teardown(() => stop(server));
  const [sender, recipient] = seed.users as [(typeof seed.users)[0], (typeof seed.users)[0]];
  const db = new Database(seed.file, { readonly: true });
  t.teardown(() => db.close());

  const phone = newPhone();
  const device = await attempt(server.url, recipient, 'POST', '/register_client_device', {});
  const deviceId = String(device.body!.device_id);
  const params = { device_id: deviceId, ...keyParams(bouncer, phone), ...tokenParams(bouncer, phone) } as Record<string, string>;
  t.equal((await attempt(server.url, recipient, 'POST', '/mobile_push/register', params)).status, 200);
  await until('the device to be registered', () => db.prepare('SELECT push_token_id FROM device WHERE id = ?').pluck().get(deviceId) === phone.tokenId);

  bouncer.mode.notify = 'hang';
  const sent = await attempt(server.url, sender, 'POST', '/messages', { type: 'direct', to: JSON.stringify([recipient.user_id]), content: 'survives a crash' });
  t.equal(sent.status, 200, 'the message is committed');
  await until('the notification to reach the bouncer', () => bouncer.requests.some((r) => r.endpoint === 'notify'));
  t.equal(await stop(server, 'SIGKILL'), 'SIGKILL');
  server = undefined;
  t.same(bouncer.deliveries, [], 'the bouncer held its answer: nothing delivered yet');

  bouncer.mode.notify = 'ok';
  server = await startServe(seed.file, [], env);
  await until('the notification', () => bouncer.deliveries.length > 0);
  await until('the outbox to empty', () => db.prepare('SELECT count(*) FROM delivery').pluck().get() === 0);
  await new Promise((resolve) => setTimeout(resolve, 300));
  const messages = bouncer.deliveries.filter((d) => d.payload.type === 'message');
  t.same(messages.map((d) => d.payload.message_id), [sent.body!.id], 'exactly once');
  t.match(messages[0]!.payload, { user_id: recipient.user_id, sender_id: sender.user_id, content: 'survives a crash' });
  t.same(bouncer.problems, []);
});
