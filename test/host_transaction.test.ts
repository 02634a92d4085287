// A host application's writes and chat in one transaction (docs/transactions.md): chat.transaction,
// or the host's own db.transaction() (or BEGIN ... COMMIT held across an await) that chat calls
// join. What the chat calls cause (events to waiting long-polls and subscribers, notifications,
// deliveries) is released right after the commit and never seen after a rollback.
import t, { type Test } from 'tap';
import type { ChatNotification, DeliveredEvent } from '../lib/index.js';
import { contextOf } from '../lib/context.js';
import { deliveryRunner } from '../lib/deliveries/runner.js';
import { basic, startServer, type TestServer, type TestUser } from './helpers.js';

interface Host {
  s: TestServer;
  agent: TestUser;
  /** Notifications handed to options.notify. */
  notified: ChatNotification[];
  /** Inserts a ticket row of the host application's own table. */
  insertTicket(title: string): number;
  tickets(): string[];
  channelNamed(name: string): number | undefined;
  settle(): Promise<void>;
}

async function host(t: Test): Promise<Host> {
  const notified: ChatNotification[] = [];
  const s = await startServer({ socket: true, notify: (n) => void notified.push(n) });
  t.teardown(() => s.close());
  s.db.exec('CREATE TABLE ticket (id INTEGER PRIMARY KEY, title TEXT NOT NULL)');
  const agent = await s.user('member', { fullName: 'Agent' });
  const insert = s.db.prepare('INSERT INTO ticket (title) VALUES (?)');
  return {
    s,
    agent,
    notified,
    insertTicket: (title) => Number(insert.run(title).lastInsertRowid),
    tickets: () => s.db.prepare('SELECT title FROM ticket ORDER BY id').pluck().all() as string[],
    channelNamed: (name) => s.db.prepare('SELECT id FROM stream WHERE name = ?').pluck().get(name) as number | undefined,
    settle: () => deliveryRunner(contextOf(s.chat))!.settled(),
  };
}

/** A long-poll of the agent's new queue, started now and waiting (the queue is empty). */
async function waitingPoll(h: Host): Promise<{ events: Promise<DeliveredEvent[]> }> {
  const queue = (await h.s.request('POST', '/register', { as: h.agent, params: { event_types: ['stream', 'subscription', 'message'] } })).body;
  const reply = h.s.request('GET', '/events', { as: h.agent, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id } });
  // The poll is parked once the hub counts its waiter.
  while (contextOf(h.s.chat).events.waiterCount === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  const events = reply.then((r) => {
    if (r.status !== 200) throw new Error(`GET /events answered ${r.status}`);
    return r.body.events as DeliveredEvent[];
  });
  // Wrapped: an async function's result that is a promise would be awaited with it.
  return { events };
}

/** What the agent's subscriber has received so far. */
function subscriber(t: Test, h: Host): DeliveredEvent[] {
  const seen: DeliveredEvent[] = [];
  t.teardown(h.s.chat.events.subscribe(h.agent.user_id, (event) => seen.push(event), { eventTypes: ['stream', 'subscription', 'message'] }));
  return seen;
}

/** Resolves when `check` holds, or fails after 5 s: the events must come without another commit. */
async function eventually(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 5000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`never happened: ${what}`);
    await new Promise((resolve) => setImmediate(resolve));
  }
}

/** An event as `type/op` (`message` alone). */
const label = (event: DeliveredEvent): string => (event.op === undefined ? event.type : `${event.type}/${String(event.op)}`);
/** What the agent hears of a ticket opened: its channel created, both subscribed, its first message (setting first_message_id). */
const TICKET_EVENTS = ['stream/create', 'subscription/peer_add', 'subscription/add', 'stream/update', 'message'];

const within = <T>(promise: Promise<T>, what: string): Promise<T> =>
  Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`not within 5 s: ${what}`)), 5000).unref())]);

/** The ticket, its channel with the agent in it, and the first message: the host's unit of work. */
function openTicket(h: Host, title: string): { ticket: number; messageId: number } {
  const ticket = h.insertTicket(title);
  h.s.chat.api.streams.subscribe(h.s.owner.user_id, { subscriptions: [{ name: title }], principals: [h.s.owner.user_id, h.agent.user_id] });
  const { id } = h.s.chat.api.messages.send(h.s.owner.user_id, { type: 'stream', to: title, topic: 'ticket', content: `Ticket #${ticket} opened` });
  return { ticket, messageId: id };
}

/** A committed direct message to the agent: after a rollback, the first thing anyone hears of. */
function laterMessage(h: Host): number {
  return h.s.chat.api.messages.send(h.s.owner.user_id, { type: 'direct', to: [h.agent.user_id], content: 'after' }).id;
}

t.test('chat.transaction: a ticket row, a channel and its first message commit together; a waiting long-poll and a subscriber hear of them right after', async (t) => {
  const h = await host(t);
  const poll = await waitingPoll(h);
  const seen = subscriber(t, h);
  const before = { tickets: h.tickets(), seen: 0 };
  const { ticket, messageId } = h.s.chat.transaction(() => {
    const opened = openTicket(h, 'printer-on-fire');
    before.seen = seen.length;
    return opened;
  });
  t.same(before.tickets, [], 'no ticket before');
  t.equal(before.seen, 0, 'nothing is delivered inside the transaction');
  t.same(h.tickets(), ['printer-on-fire'], 'the ticket row is committed');
  t.ok(h.channelNamed('printer-on-fire'), 'and the channel');
  const events = await within(poll.events, 'the long-poll answers');
  t.same(events.map(label), TICKET_EVENTS, 'the long-poll gets the channel, the subscriptions and the message, with no further commit');
  t.equal((events[4]!.message as { id: number }).id, messageId);
  t.match((events[4]!.message as { content: string }).content, `Ticket #${ticket} opened`);
  await eventually(() => seen.length === events.length, 'the subscriber hears of them');
  t.same(seen.map((e) => e.id), events.map((e) => e.id), 'the subscriber gets the same events');
});

t.test('chat.transaction: a thrown error rolls back the ticket and the chat writes, and no event or notification of them is ever seen', async (t) => {
  const h = await host(t);
  const poll = await waitingPoll(h);
  const seen = subscriber(t, h);
  const failure = new Error('the ticket system said no');
  t.throws(
    () =>
      h.s.chat.transaction(() => {
        openTicket(h, 'never-opened');
        h.s.chat.api.messages.send(h.s.owner.user_id, { type: 'direct', to: [h.agent.user_id], content: 'rolled back' });
        throw failure;
      }),
    failure,
    "the host's error comes out of chat.transaction",
  );
  t.same(h.tickets(), [], 'no ticket');
  t.equal(h.channelNamed('never-opened'), undefined, 'no channel');
  t.equal(h.s.db.prepare("SELECT count(*) FROM message WHERE content = 'rolled back'").pluck().get(), 0, 'no message');
  t.equal(h.s.db.prepare('SELECT count(*) FROM delivery').pluck().get(), 0, 'no delivery row');
  await h.settle();
  t.same(h.notified, [], 'no notification');
  const later = laterMessage(h);
  const events = await within(poll.events, 'the long-poll answers');
  t.same(events.map((e) => [e.type, (e.message as { id: number }).id]), [['message', later]], "the long-poll's first events are the later message's");
  await eventually(() => seen.length > 0, 'the subscriber hears of the later message');
  t.same(seen.map((e) => (e.message as { id: number }).id), [later], 'and so are the subscriber');
  await h.settle();
  t.same(h.notified.map((n) => n.message.id), [later], 'the only notification is of the later message');
});

t.test("inside the host's own db.transaction(): the chat calls join it and are released right after its commit", async (t) => {
  const h = await host(t);
  const poll = await waitingPoll(h);
  const seen = subscriber(t, h);
  let seenInside = -1;
  const dm = h.s.db
    .transaction(() => {
      openTicket(h, 'from-the-host');
      const id = h.s.chat.api.messages.send(h.s.owner.user_id, { type: 'direct', to: [h.agent.user_id], content: 'hello' }).id;
      seenInside = seen.length;
      return id;
    })
    .immediate();
  t.equal(seenInside, 0, 'nothing is delivered inside it');
  t.same(h.tickets(), ['from-the-host']);
  const events = await within(poll.events, 'the long-poll answers without another commit of parley');
  t.same(events.map(label), [...TICKET_EVENTS, 'message']);
  await eventually(() => seen.length === events.length, 'the subscriber hears of them');
  await h.settle();
  t.same(h.notified.map((n) => [n.message.id, n.trigger]), [[dm, 'direct_message']], 'the notification hook gets the direct message after the commit');
});

t.test("inside the host's own db.transaction() that throws: nothing is seen", async (t) => {
  const h = await host(t);
  const poll = await waitingPoll(h);
  const seen = subscriber(t, h);
  t.throws(() =>
    h.s.db.transaction(() => {
      openTicket(h, 'host-rolled-back');
      h.s.chat.api.messages.send(h.s.owner.user_id, { type: 'direct', to: [h.agent.user_id], content: 'rolled back' });
      throw new Error('no');
    })(),
  );
  t.same(h.tickets(), []);
  t.equal(h.channelNamed('host-rolled-back'), undefined);
  await h.settle();
  const later = laterMessage(h);
  t.same((await within(poll.events, 'the long-poll answers')).map((e) => (e.message as { id: number }).id), [later], 'the long-poll gets only the later message');
  await eventually(() => seen.length > 0, 'the subscriber hears of the later message');
  t.same(seen.map((e) => (e.message as { id: number }).id), [later]);
  await h.settle();
  t.same(h.notified.map((n) => n.message.id), [later]);
});

t.test('a transaction the host holds open across an await: nothing is released while it is open; its COMMIT releases everything', async (t) => {
  const h = await host(t);
  const poll = await waitingPoll(h);
  const seen = subscriber(t, h);
  h.s.db.exec('BEGIN IMMEDIATE');
  openTicket(h, 'held');
  const dm = h.s.chat.api.messages.send(h.s.owner.user_id, { type: 'direct', to: [h.agent.user_id], content: 'held' }).id;
  await new Promise((resolve) => setTimeout(resolve, 150));
  t.same(seen, [], 'the subscriber has heard nothing while it is open');
  t.same(h.notified, [], 'no notification has gone out');
  t.equal(h.s.db.inTransaction, true, "the host's transaction is still open: nothing of parley committed it");
  h.s.db.exec('COMMIT');
  const events = await within(poll.events, 'the long-poll answers after the COMMIT');
  t.same(events.map(label), [...TICKET_EVENTS, 'message']);
  await eventually(() => seen.length === events.length, 'the subscriber hears of them');
  await eventually(() => h.notified.length === 1, 'the direct message is notified');
  t.equal(h.notified[0]!.message.id, dm);
});

t.test('a transaction the host holds open and rolls back: nothing is ever seen', async (t) => {
  const h = await host(t);
  const poll = await waitingPoll(h);
  const seen = subscriber(t, h);
  h.s.db.exec('BEGIN IMMEDIATE');
  openTicket(h, 'held-back');
  h.s.chat.api.messages.send(h.s.owner.user_id, { type: 'direct', to: [h.agent.user_id], content: 'held back' });
  await new Promise((resolve) => setTimeout(resolve, 150));
  h.s.db.exec('ROLLBACK');
  await new Promise((resolve) => setTimeout(resolve, 50));
  await h.settle();
  t.same(h.notified, [], 'no notification');
  t.same(seen, [], 'no event');
  const later = laterMessage(h);
  t.same((await within(poll.events, 'the long-poll answers')).map((e) => (e.message as { id: number }).id), [later], 'the first event seen is the later message');
});

t.test('a chat call that fails inside the transaction leaves nothing of itself, and the rest commits when the host goes on', async (t) => {
  const h = await host(t);
  const seen = subscriber(t, h);
  const outcome = h.s.chat.transaction(() => {
    h.insertTicket('half');
    h.s.chat.api.streams.subscribe(h.s.owner.user_id, { subscriptions: [{ name: 'half' }], principals: [h.agent.user_id] });
    try {
      h.s.chat.api.messages.send(h.s.owner.user_id, { type: 'stream', to: 'no-such-channel', topic: 't', content: 'lost' });
      return 'sent';
    } catch (error) {
      return (error as Error).message;
    }
  });
  t.equal(outcome, "Channel 'no-such-channel' does not exist", 'the ApiError reaches the host, which goes on');
  t.same(h.tickets(), ['half']);
  t.ok(h.channelNamed('half'));
  await eventually(() => seen.length === 3, 'the committed part is delivered');
  t.same(seen.map(label), ['stream/create', 'subscription/peer_add', 'subscription/add']);
});

t.test('a rolled-back inner chat.transaction caught by the host leaves the outer one to commit', async (t) => {
  const h = await host(t);
  h.s.chat.transaction(() => {
    h.insertTicket('outer');
    t.throws(() =>
      h.s.chat.transaction(() => {
        openTicket(h, 'inner');
        throw new Error('inner fails');
      }),
    );
  });
  t.same(h.tickets(), ['outer']);
  t.equal(h.channelNamed('inner'), undefined);
});

t.test('a call that waits for I/O is refused inside a transaction, before it writes anything', async (t) => {
  const h = await host(t);
  const count = () => h.s.db.prepare('SELECT count(*) FROM user').pluck().get() as number;
  const users = count();
  t.throws(
    () => h.s.chat.transaction(() => h.s.chat.api.users.create(h.s.owner.user_id, { email: 'new@example.com', password: 'long enough', fullName: 'New' })),
    { name: 'TypeError', message: 'chat.api.users.create waits for I/O and cannot run inside a transaction; call it before or after' },
  );
  t.throws(() => h.s.db.transaction(() => h.s.chat.api.messageFlags.markAllAsRead(h.s.owner.user_id))(), {
    message: 'chat.api.messageFlags.markAllAsRead waits for I/O and cannot run inside a transaction; call it before or after',
  });
  let pending: Promise<unknown> | undefined;
  h.s.db.transaction(() => {
    pending = h.s.chat.admin.addUser({ email: 'pw@example.com', fullName: 'Pw', password: 'long enough' });
  })();
  await t.rejects(pending!, { name: 'TypeError', message: 'an account with a password cannot be created inside a transaction (hashing it waits); create it before or after' });
  h.s.chat.transaction(() => {
    pending = h.s.chat.admin.initOrganization({ email: 'x@example.com' });
  });
  await t.rejects(pending!, { name: 'TypeError', message: 'initOrganization cannot run inside a transaction' });
  // Long enough for a password hash that had started to finish and write.
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(count(), users, 'no account was created, then or later');
  const created = await h.s.chat.api.users.create(h.s.owner.user_id, { email: 'new@example.com', password: 'long enough', fullName: 'New' });
  t.ok(created.user_id, 'outside a transaction the same call works');
});

t.test('an account without a password is created inside the transaction, with the rest', async (t) => {
  const h = await host(t);
  let pending: Promise<unknown> | undefined;
  t.throws(() =>
    h.s.chat.transaction(() => {
      pending = h.s.chat.admin.addUser({ email: 'customer@example.com', fullName: 'Customer' });
      t.ok(h.s.chat.admin.userByEmail('customer@example.com'), 'the account exists inside the transaction');
      throw new Error('no');
    }),
  );
  await pending;
  t.equal(h.s.chat.admin.userByEmail('customer@example.com'), undefined, 'and is rolled back with it');
  h.s.chat.transaction(() => {
    pending = h.s.chat.admin.addUser({ email: 'customer@example.com', fullName: 'Customer' });
  });
  t.match(await pending, { email: 'customer@example.com' });
  t.ok(h.s.chat.admin.userByEmail('customer@example.com'), 'committed');
});

t.test('fn must be synchronous: an async fn is refused and rolled back', async (t) => {
  const h = await host(t);
  t.throws(
    () =>
      h.s.chat.transaction(async () => {
        h.insertTicket('async');
      }),
    { name: 'TypeError', message: 'Transaction function cannot return a promise' },
  );
  t.same(h.tickets(), []);
});

t.test('a subscription taken inside a transaction starts once it has ended: its events come before it, later ones to it', async (t) => {
  const h = await host(t);
  const seen: DeliveredEvent[] = [];
  h.s.chat.transaction(() => {
    openTicket(h, 'subscribed-inside');
    t.teardown(h.s.chat.events.subscribe(h.agent.user_id, (event) => seen.push(event), { eventTypes: ['message'] }));
  });
  await new Promise((resolve) => setImmediate(resolve));
  const later = laterMessage(h);
  await eventually(() => seen.length > 0, 'the subscriber hears of the later message');
  t.same(seen.map((e) => (e.message as { id: number }).id), [later]);
});

t.test('what parley keeps in memory follows a rollback: a linkifier, a deactivation and a new API key rolled back are as if never made', async (t) => {
  const h = await host(t);
  h.s.chat.api.streams.subscribe(h.s.owner.user_id, { subscriptions: [{ name: 'tickets' }], principals: [h.agent.user_id] });
  const send = (content: string) => h.s.chat.api.messages.send(h.s.owner.user_id, { type: 'stream', to: 'tickets', topic: 't', content }).id;
  const rendered = (id: number) => h.s.db.prepare('SELECT rendered_content FROM message WHERE id = ?').pluck().get(id) as string;
  const me = () => h.s.request('GET', '/users/me', { as: h.agent });
  t.equal((await me()).status, 200, 'the agent is signed in over HTTP (and remembered)');
  let inside: { linked: string; key: string } | undefined;
  t.throws(() =>
    h.s.chat.transaction(() => {
      h.s.chat.api.linkifiers.add(h.s.owner.user_id, { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://tickets.example.com/{id}' });
      const linked = rendered(send('see #12'));
      const key = h.s.chat.api.users.regenerateApiKey(h.agent.user_id).api_key;
      h.s.chat.admin.deactivateUser(h.agent.user_id);
      inside = { linked, key };
      throw new Error('roll back');
    }),
  );
  t.match(inside?.linked, 'href="https://tickets.example.com/12"', 'inside, the linkifier applied');
  t.equal(rendered(send('see #13')), '<p>see #13</p>', 'after the rollback it does not');
  t.equal((await me()).status, 200, 'the agent is active with the old key');
  const withNewKey = await h.s.request('GET', '/users/me', { as: { ...h.agent, auth: basic(h.agent.email, inside!.key) } });
  t.same([withNewKey.status, withNewKey.body.msg], [401, 'Invalid API key'], 'the key made inside never works');
});
