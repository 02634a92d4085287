// An outgoing webhook is a delivery in the database file: one still waiting when the server stops
// is sent by the next server on the file, and its reply is posted once.
import { join } from 'node:path';
import t from 'tap';
import { createChatServer } from '../lib/index.js';
import { contextOf } from '../lib/context.js';
import { deliveryRunner } from '../lib/deliveries/runner.js';
import { silentLogger } from '../lib/logger.js';
import { openTestDatabase } from './helpers.js';
import { sendDirect } from './messaging_helpers.js';
import { outgoingBot, outgoingServer, pendingDeliveries, startTarget } from './outgoing_helpers.js';

t.test('a delivery under way when the server stops is sent by the next server on the file, the reply posted once', async (t) => {
  const s = await outgoingServer();
  t.teardown(() => s.close());
  const target = await startTarget(t, 'hang');
  const iago = await s.user('member');
  const bot = await outgoingBot(s, iago, target.url);
  await sendDirect(s, iago, [bot.user_id], 'are you there?');
  await target.received(1);
  await s.chat.close();
  s.db.close();
  t.equal(target.requests.length, 1, 'the first server asked once, and stopped waiting');

  target.fallback = { body: { content: 'I am now' } };
  const db = openTestDatabase(join(s.dir, 'chat.db'));
  const next = createChatServer(db, { logger: silentLogger, outgoingWebhooks: { allowPrivateAddresses: true } });
  t.teardown(async () => {
    await next.close();
    db.close();
  });
  const ctx = contextOf(next);
  await target.received(2);
  await deliveryRunner(ctx)!.settled();
  const replies = () => ctx.db.prepare('SELECT content FROM message WHERE sender_id = ?').pluck().all(bot.user_id);
  t.same(replies(), ['I am now']);
  t.equal(pendingDeliveries(ctx), 0);
  await new Promise((resolve) => setTimeout(resolve, 50));
  await deliveryRunner(ctx)!.settled();
  t.equal(target.requests.length, 2, 'asked again once');
  t.same(replies(), ['I am now'], 'posted once');
});
