// A TestChat between tests: snapshot() and restore() of the whole state (database, clock,
// subscriptions, recorders), a real address for clients in other processes that survives
// restores, and parley's time rules following the test clock.
import t from 'tap';
import { ApiError } from '../lib/index.js';
import { createTestChat, type TestChat } from '../lib/testing/index.js';

const fixture = {
  users: { owner: { role: 'owner' }, hamlet: {}, ophelia: {} },
  channels: { Denmark: { subscribers: ['owner', 'hamlet', 'ophelia'] } },
} as const;

type Chat = TestChat<keyof (typeof fixture)['users'], 'Denmark'>;

const send = (chat: Chat, content: string, from = chat.users.hamlet.user_id) =>
  chat.api.messages.send(from, { type: 'stream', to: 'Denmark', topic: 'castle', content }).id;

const basic = (user: { email: string; api_key: string }) => 'Basic ' + Buffer.from(`${user.email}:${user.api_key}`).toString('base64');

t.test('restore() brings back the database: rows, ids to come and caches, as if the test never ran', async (t) => {
  const chat = await createTestChat(fixture);
  t.teardown(() => chat.close());
  const { owner, hamlet } = chat.users;
  send(chat, 'before');
  const snapshot = chat.snapshot();
  const during = send(chat, 'during the test');
  chat.api.streams.update(owner.user_id, { streamId: chat.channels.Denmark.stream_id, newName: 'Norway' });
  const newKey = chat.admin.regenerateApiKey(hamlet.user_id);
  chat.restore(snapshot);
  const contents = chat.api.messages.list(hamlet.user_id, { anchor: 'newest', numBefore: 10, numAfter: 0 }).messages.map((m) => m.content);
  t.same(contents, ['<p>before</p>'], 'the message of the test is gone');
  t.equal(chat.api.streams.get(owner.user_id, { streamId: chat.channels.Denmark.stream_id }).stream.name, 'Denmark', 'the rename is undone');
  t.equal(send(chat, 'next test'), during, 'the next message gets the id the undone one had');
  t.equal(chat.api.users.me(hamlet).email, hamlet.email, 'an account is an actor of chat.api');
  const { url } = await chat.listen();
  const asHamlet = (key: string) => fetch(`${url}/api/v1/users/me`, { headers: { authorization: basic({ email: hamlet.email, api_key: key }) } });
  t.equal((await asHamlet(hamlet.api_key)).status, 200, 'the key of the snapshot works again');
  t.equal((await asHamlet(newKey)).status, 401, 'the key made during the test does not');
  chat.restore(snapshot);
  t.equal(send(chat, 'again'), during, 'a snapshot can be restored any number of times');
});

t.test('restore() takes the clock back, drops timers made since, and the server keeps its own timers', async (t) => {
  const chat = await createTestChat(fixture);
  t.teardown(() => chat.close());
  const serverTimers = chat.clock.pending();
  t.equal(serverTimers, 1, 'garbage collection');
  await chat.clock.advance(5_000);
  const snapshot = chat.snapshot();
  t.equal(snapshot.time, chat.clock.now());
  let fired = false;
  chat.clock.timers.after(7_200_000, () => (fired = true));
  await chat.clock.advance(3_600_000);
  chat.restore(snapshot);
  t.equal(chat.clock.now(), snapshot.time);
  t.equal(chat.clock.pending(), serverTimers, 'the old server\'s timers and the test\'s are gone; the new server has its own');
  await chat.clock.advance(7_200_000);
  t.notOk(fired, 'the timer the test made never fires');
});

t.test('subscriptions and recorders made before the snapshot carry on; those made after it end', async (t) => {
  const chat = await createTestChat(fixture);
  t.teardown(() => chat.close());
  const { hamlet, ophelia } = chat.users;
  const early: string[] = [];
  chat.events.subscribe(hamlet.user_id, (event) => early.push((event.message as { content: string }).content), { eventTypes: ['message'] });
  const earlyRecorder = chat.recorder(ophelia, { eventTypes: ['message'] });
  send(chat, 'one');
  await earlyRecorder.next();
  const snapshot = chat.snapshot();
  const late: string[] = [];
  chat.events.subscribe(hamlet.user_id, (event) => late.push((event.message as { content: string }).content), { eventTypes: ['message'] });
  const lateRecorder = chat.recorder(ophelia);
  send(chat, 'two');
  await lateRecorder.next({ type: 'message' });
  const waiting = earlyRecorder.next({ message: { content: '<p>never</p>' } });
  chat.restore(snapshot);
  await t.rejects(waiting, new Error('the chat was restored while next() waited'));
  await t.rejects(lateRecorder.next(), new Error('the chat was restored to a snapshot taken before this recorder started'));
  t.same(earlyRecorder.events.map((e) => e.message.content), ['<p>one</p>'], 'the early recorder forgot the test');
  send(chat, 'three');
  t.equal((await earlyRecorder.next()).message.content, '<p>three</p>', 'and records on the new server');
  t.same(early, ['<p>one</p>', '<p>two</p>', '<p>three</p>'], 'the early subscription carried on');
  t.same(late, ['<p>two</p>'], 'the late one ended');
});

t.test('over HTTP: a waiting long-poll is answered, a queue made after the snapshot is gone, one made before lives on', async (t) => {
  const chat = await createTestChat(fixture);
  t.teardown(() => chat.close());
  const { url } = await chat.listen();
  const { hamlet, ophelia } = chat.users;
  const register = async (user: typeof hamlet) =>
    (await (await fetch(`${url}/api/v1/register`, { method: 'POST', headers: { authorization: basic(user) } })).json()) as { queue_id: string; last_event_id: number };
  const poll = (user: typeof hamlet, queue: { queue_id: string; last_event_id: number }) =>
    fetch(`${url}/api/v1/events?queue_id=${queue.queue_id}&last_event_id=${queue.last_event_id}`, { headers: { authorization: basic(user) } });
  const before = await register(ophelia);
  const snapshot = chat.snapshot();
  const after = await register(hamlet);
  const waiting = poll(hamlet, after);
  await new Promise((resolve) => setTimeout(resolve, 50));
  chat.restore(snapshot);
  const answered = await waiting;
  t.equal(answered.status, 200);
  t.same(((await answered.json()) as { events: unknown[] }).events, [], 'answered as by a server that closes');
  const gone = await poll(hamlet, after);
  t.equal(gone.status, 400);
  t.match(await gone.json(), { code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${after.queue_id}` });
  const lives = poll(ophelia, before);
  send(chat, 'to the queue of before');
  const reply = (await (await lives).json()) as { events: { type: string; message?: { content: string } }[] };
  t.match(reply.events.find((event) => event.type === 'message'), { message: { content: 'to the queue of before' } });
});

t.test('listen() serves the chat at one address across restores; zuliprc() writes a client configuration', async (t) => {
  const chat = await createTestChat(fixture);
  const { hamlet } = chat.users;
  t.throws(() => chat.zuliprc(hamlet), new Error('zuliprc() needs the address of listen()'));
  const other = await createTestChat(fixture);
  const taken = (await other.listen()).port;
  await t.rejects(chat.listen(taken), { code: 'EADDRINUSE' }, 'a taken port is refused');
  await other.close();
  const address = await chat.listen();
  t.match(address, { address: '127.0.0.1', family: 'IPv4', port: Number, url: `http://127.0.0.1:${address.port}` });
  t.equal(chat.url, address.url);
  t.equal(chat.zuliprc(hamlet), `[api]\nemail=${hamlet.email}\nkey=${hamlet.api_key}\nsite=${address.url}\n`);
  await t.rejects(chat.listen(), new Error('This chat is already listening'));
  const snapshot = chat.snapshot();
  chat.restore(snapshot);
  const me = await fetch(`${address.url}/api/v1/users/me`, { headers: { authorization: basic(hamlet) } });
  t.equal(me.status, 200);
  await chat.close();
  await t.rejects(fetch(`${address.url}/api/v1/users/me`), 'closed with the chat');
  t.throws(() => chat.snapshot(), new Error('This chat is closed'));
  t.throws(() => chat.events.subscribe(hamlet.user_id, () => {}), new Error('This chat is closed'));
  t.throws(() => chat.recorder(hamlet), new Error('This chat is closed'));
  await chat.close();
});

t.test('a snapshot goes back only into the chat that took it, outside transactions', async (t) => {
  const one = await createTestChat(fixture);
  const two = await createTestChat(fixture);
  t.teardown(async () => {
    await one.close();
    await two.close();
  });
  t.throws(() => two.restore(one.snapshot()), new Error('restore() takes a snapshot taken by this chat'));
  t.throws(() => one.db.transaction(() => one.snapshot())(), new Error('snapshot() inside a transaction'));
});

t.test("parley's time rules follow the test clock: the edit window of a message", async (t) => {
  const chat = await createTestChat(fixture);
  t.teardown(() => chat.close());
  const { hamlet } = chat.users;
  const id = send(chat, 'O, that this too too solid flesh would melt');
  await chat.clock.advance(620_000);
  chat.api.messages.edit(hamlet.user_id, { messageId: id, content: 'O, that this too too sullied flesh would melt' });
  await chat.clock.advance(1_000);
  const refused = (() => {
    try {
      chat.api.messages.edit(hamlet.user_id, { messageId: id, content: 'too late' });
    } catch (error) {
      return error;
    }
    return undefined;
  })();
  t.type(refused, ApiError);
  t.match(refused, { code: 'BAD_REQUEST', message: 'The time limit for editing this message has passed', status: 400 });
  const [message] = chat.api.messages.list(hamlet.user_id, { anchor: 'newest', numBefore: 1, numAfter: 0 }).messages;
  t.equal(message!.timestamp, Date.parse('2025-01-01T00:00:00Z') / 1000, 'sent at the clock\'s time');
  t.equal(message!.last_edit_timestamp, message!.timestamp + 620);
});

t.test("chat.transaction runs on the current server, across restores: a recorder hears what commits, never what rolls back", async (t) => {
  const chat = await createTestChat(fixture);
  t.teardown(() => chat.close());
  const { hamlet, ophelia } = chat.users;
  // Kept from before the restore, as a test may keep chat.api's functions.
  const transaction = chat.transaction;
  const snapshot = chat.snapshot();
  send(chat, 'before the restore');
  chat.restore(snapshot);
  chat.db.exec('CREATE TABLE ticket (title TEXT NOT NULL)');
  const recorder = chat.recorder(ophelia, { eventTypes: ['message'] });
  t.throws(
    () =>
      transaction(() => {
        chat.db.prepare('INSERT INTO ticket (title) VALUES (?)').run('rolled back');
        send(chat, 'rolled back', hamlet.user_id);
        throw new Error('the host says no');
      }),
    new Error('the host says no'),
  );
  const id = transaction(() => {
    chat.db.prepare('INSERT INTO ticket (title) VALUES (?)').run('kept');
    return send(chat, 'kept', hamlet.user_id);
  });
  t.same(chat.db.prepare('SELECT title FROM ticket').pluck().all(), ['kept'], "the host's row of the restored database commits with the message");
  const heard = await recorder.next({ type: 'message' });
  t.same([heard.message.id, heard.message.content], [id, '<p>kept</p>'], 'the first message heard is the committed one');
  t.same(recorder.events.map((e) => e.message.content), ['<p>kept</p>']);
});
