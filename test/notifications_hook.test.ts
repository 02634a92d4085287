// The embedding application's hook: createChatServer(db, { notify }) receives every notification
// parley decides on, after its message commits, with its recipient, trigger, message and
// conversation, whether or not push and email are configured; a throwing hook is retried for
// the recipients it has not taken yet. chat.notifications.subscribe hands over the same ones.
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import { createChatServer, type ChatNotification, type ChatOptions } from '../lib/index.js';
import { contextOf } from '../lib/context.js';
import { deliveryRunner } from '../lib/deliveries/runner.js';
import { chatNotificationSchema } from '../lib/notifications/notification.js';
import { silentLogger } from '../lib/logger.js';

async function hooked(t: Test, options: ChatOptions = {}) {
  const chat = createChatServer(new Database(':memory:'), { logger: silentLogger, ...options });
  t.teardown(() => chat.close());
  const owner = await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner', defaultChannels: false });
  const person = async (name: string) => (await chat.admin.addUser({ email: `${name.toLowerCase()}@example.com`, fullName: name })).user_id;
  const settle = () => deliveryRunner(contextOf(chat))!.settled();
  return { chat, owner: owner.user_id, person, settle, ctx: contextOf(chat) };
}

t.test('notify gets each notification after the commit: recipient, triggers, message, conversation, link', async (t) => {
  const seen: ChatNotification[] = [];
  const inTransaction: boolean[] = [];
  let ctxRef: { db: { inTransaction: boolean } } | undefined;
  const { chat, person, settle, ctx } = await hooked(t, {
    notify(notification) {
      inTransaction.push(ctxRef!.db.inTransaction);
      seen.push(notification);
    },
  });
  ctxRef = ctx;
  const [ada, bob, cy] = [await person('Ada'), await person('Bob'), await person('Cy')];
  chat.api.streams.subscribe(ada, { subscriptions: [{ name: 'ops' }], principals: [ada, bob, cy] });
  const dm = chat.api.messages.send(ada, { type: 'direct', to: [bob], content: 'hi **Bob**' }).id;
  chat.api.userGroups.create(ada, { name: 'oncall', description: 'd', members: [cy] });
  const mention = chat.api.messages.send(ada, { type: 'stream', to: 'ops', topic: 'pager', content: '@*oncall* look' }).id;
  t.same(seen, [], 'not inside the transaction');
  await settle();
  t.same(inTransaction, [false, false]);
  for (const n of seen) t.ok(chatNotificationSchema.safeParse(n).success, 'matches its schema');
  t.same(seen[0], {
    recipient: { user_id: bob, email: 'bob@example.com', full_name: 'Bob' },
    trigger: 'direct_message',
    push_trigger: 'direct_message',
    email_trigger: 'direct_message',
    message: {
      id: dm,
      sender_id: ada,
      sender_full_name: 'Ada',
      timestamp: seen[0]!.message.timestamp,
      content: 'hi **Bob**',
      rendered_content: '<p>hi <strong>Bob</strong></p>',
      text: 'hi Bob',
    },
    conversation: { type: 'direct', user_ids: [ada, bob].sort((a, b) => a - b) },
    mentioned_user_group: null,
    url: `http://localhost:9991/#dm/${[ada, bob].sort((a, b) => a - b).join(',')}`,
  });
  t.match(seen[1], {
    recipient: { user_id: cy },
    trigger: 'mentioned',
    message: { id: mention, text: '@oncall look' },
    conversation: { type: 'channel', channel_name: 'ops', topic: 'pager' },
    mentioned_user_group: { name: 'oncall' },
    url: /#channel\/\d+\/topic\/pager$/,
  });
});

t.test('An active recipient is decided a push (online push is on) but no email', async (t) => {
  const seen: ChatNotification[] = [];
  const { chat, person, settle } = await hooked(t, { notify: (n) => void seen.push(n) });
  const [ada, bob] = [await person('Ada'), await person('Bob')];
  chat.api.events.register(bob, { eventTypes: ['message'] });
  chat.api.presence.update(bob, { status: 'active' });
  chat.api.messages.send(ada, { type: 'direct', to: [bob], content: 'you are here' });
  await settle();
  t.match(seen, [{ push_trigger: 'direct_message', email_trigger: null, trigger: 'direct_message' }]);
});

t.test('Bots and the sender are never notified; a rolled-back message notifies no one', async (t) => {
  const seen: ChatNotification[] = [];
  const { chat, owner, person, settle, ctx } = await hooked(t, { notify: (n) => void seen.push(n) });
  const ada = await person('Ada');
  const bot = (await chat.admin.addUser({ email: 'bot@example.com', fullName: 'Bot', bot: true })).user_id;
  chat.api.messages.send(ada, { type: 'direct', to: [bot], content: 'hello bot' });
  chat.api.messages.send(bot, { type: 'direct', to: [ada, owner], content: 'hello humans' });
  t.throws(() =>
    ctx.tx(() => {
      chat.api.messages.send(ada, { type: 'direct', to: [owner], content: 'rolled back' });
      throw new Error('no');
    }),
  );
  await settle();
  t.same(seen.map((n) => [n.recipient.user_id, n.message.content]).sort(), [[ada, 'hello humans'], [owner, 'hello humans']].sort());
});

t.test('A throwing notify is retried for the recipients it has not taken; each gets one call', async (t) => {
  const calls: number[] = [];
  let failures = 1;
  const { chat, person, settle } = await hooked(t, {
    notify(n) {
      if (n.recipient.full_name === 'Cy' && failures-- > 0) throw new Error('push service down');
      calls.push(n.recipient.user_id);
    },
  });
  const [ada, bob, cy, dee] = [await person('Ada'), await person('Bob'), await person('Cy'), await person('Dee')];
  chat.api.messages.send(ada, { type: 'direct', to: [bob, cy, dee], content: 'team' });
  await settle();
  while (calls.length < 3) await new Promise((resolve) => setTimeout(resolve, 20));
  t.same(calls, [bob, cy, dee]);
});

t.test('chat.notifications.subscribe hands over notifications while subscribed', async (t) => {
  const { chat, person, settle } = await hooked(t);
  const [ada, bob] = [await person('Ada'), await person('Bob')];
  const seen: string[] = [];
  const stop = chat.notifications.subscribe((n) => seen.push(n.message.content));
  chat.api.messages.send(ada, { type: 'direct', to: [bob], content: 'while subscribed' });
  await settle();
  stop();
  chat.api.messages.send(ada, { type: 'direct', to: [bob], content: 'after' });
  await settle();
  t.same(seen, ['while subscribed']);
});
