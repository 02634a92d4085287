// Push notifications are deliveries: written in the message's transaction, sent after it
// commits, retried with back-off while the bouncer fails, resumed by the next server after a stop,
// never sent for a rolled-back message nor twice for one trigger, and a hanging bouncer never
// holds up a request.
import t, { type Test } from 'tap';
import { createChatServer } from '../lib/index.js';
import { contextOf } from '../lib/context.js';
import { deliveryRunner } from '../lib/deliveries/runner.js';
import { silentLogger } from '../lib/logger.js';
import { sendDirect } from './messaging_helpers.js';
import { notifyWorld, received, settle } from './notification_helpers.js';

t.test('Bouncer errors and timeouts are retried after each delay; the notification arrives once', async (t) => {
  const world = await notifyWorld(t, { push: { timeoutMs: 300, retryDelaysMs: [10, 10, 10] } });
  const { s, bouncer } = world;
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  bouncer.script.notify.push('server_error', 'hang', { status: 503, body: {} });
  const before = bouncer.requests.filter((r) => r.endpoint === 'notify').length;
  const id = await sendDirect(s, ada, [bob.user_id], 'persistent');
  while (received(bouncer, bob).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  await settle(s);
  t.equal(bouncer.requests.filter((r) => r.endpoint === 'notify').length - before, 4, 'three failures, then success');
  t.same(received(bouncer, bob).map((p) => p.message_id), [id]);
  t.same(bouncer.problems, []);
});

t.test('A refusal (4xx) is not retried; a bouncer that says the organization may not push turns push off', async (t) => {
  const world = await notifyWorld(t);
  const { s, bouncer } = world;
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  bouncer.script.notify.push({ status: 400, body: { result: 'error', code: 'BAD_REQUEST', msg: 'nope' } });
  await sendDirect(s, ada, [bob.user_id], 'refused');
  await settle(s);
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.same(received(bouncer, bob), []);
  t.equal(s.db.prepare("SELECT count(*) FROM delivery WHERE kind = 'push_message'").pluck().get(), 0, 'dropped');
  bouncer.script.notify.push('disallowed');
  await sendDirect(s, ada, [bob.user_id], 'disallowed');
  await settle(s);
  t.equal((await s.request('GET', '/server_settings')).body.push_notifications_enabled, false);
});

t.test('A message whose transaction rolls back notifies no one', async (t) => {
  const world = await notifyWorld(t);
  const { s, bouncer } = world;
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  const ctx = contextOf(s.chat);
  t.throws(() =>
    ctx.tx(() => {
      s.chat.api.messages.send(ada.user_id, { type: 'direct', to: [bob.user_id], content: 'never sent' });
      throw new Error('the surrounding change fails');
    }),
  );
  await settle(s);
  await new Promise((resolve) => setTimeout(resolve, 30));
  t.same(received(bouncer, bob), []);
  t.equal(s.db.prepare('SELECT count(*) FROM delivery').pluck().get(), 0);
});

/** Ada sends Bob a direct message while the bouncer hangs; resolves once its request hangs there. */
async function hangingNotification(t: Test, content: string) {
  const world = await notifyWorld(t, { push: { timeoutMs: 60_000 } });
  const { s, bouncer } = world;
  const [ada, bob] = [await world.person('Ada'), await world.person('Bob')];
  bouncer.mode.notify = 'hang';
  const notifies = () => bouncer.requests.filter((r) => r.endpoint === 'notify').length;
  const before = notifies();
  const id = await sendDirect(s, ada, [bob.user_id], content);
  while (notifies() === before) await new Promise((resolve) => setTimeout(resolve, 5));
  return { s, bouncer, ada, bob, id };
}

t.test('A hanging bouncer holds up no request: sends answer while the notification waits', async (t) => {
  const { s, bouncer, ada, bob } = await hangingNotification(t, 'one');
  const answered = await s.request('POST', '/messages', { as: ada, params: { type: 'direct', to: [bob.user_id], content: 'two' } });
  t.equal(answered.status, 200, 'answered while the bouncer hangs');
  t.same(received(bouncer, bob), []);
});

t.test('A notification still waiting when the server stops is sent once by the next server on the database', async (t) => {
  const { s, bouncer, bob, id } = await hangingNotification(t, 'across a restart');
  await s.chat.close();
  bouncer.mode.notify = 'ok';
  const next = createChatServer(s.db, { logger: silentLogger, push: { bouncerUrl: bouncer.url, serverId: bouncer.serverId, serverKey: bouncer.serverKey } });
  while (received(bouncer, bob).length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
  await deliveryRunner(contextOf(next))!.settled();
  await next.close();
  t.same(received(bouncer, bob).map((p) => p.message_id), [id], 'once');
  t.equal(s.db.prepare('SELECT count(*) FROM delivery').pluck().get(), 0);
});
