// The test kit's event recorder (chat.recorder(user)): next(pattern) gives the earliest event not
// yet taken that matches, waits for one that has not arrived, and fails after its timeout with a
// readable list of what did arrive.
import t from 'tap';
import { createTestChat, type RecordedEvent } from '../lib/testing/index.js';

const fixture = {
  users: { owner: { role: 'owner' }, hamlet: { fullName: 'King Hamlet' }, bot: { bot: 'generic', fullName: 'Echo' } },
  channels: { Denmark: { subscribers: ['owner', 'hamlet', 'bot'] } },
} as const;

const chat = await createTestChat(fixture);
t.teardown(() => chat.close());
const { owner, hamlet, bot } = chat.users;

const say = (content: string, from = owner.user_id, topic = 'castle') =>
  chat.api.messages.send(from, { type: 'stream', to: 'Denmark', topic, content });

t.test('next() resolves with an event that arrives after it was called', async (t) => {
  const recorder = chat.recorder(hamlet);
  t.teardown(() => recorder.stop());
  const next = recorder.next({ type: 'message' });
  say('ping');
  const event = await next;
  t.equal(event.type, 'message');
  t.equal(event.message.content, '<p>ping</p>', 'rendered, as for a client with apply_markdown');
  t.equal(event.message.sender_id, owner.user_id);
});

t.test('next() takes the earliest matching event not yet taken, and leaves the others for later calls', async (t) => {
  const recorder = chat.recorder(hamlet);
  t.teardown(() => recorder.stop());
  say('one');
  chat.api.typing.send(owner.user_id, { type: 'direct', op: 'start', to: [hamlet.user_id] });
  say('two');
  await new Promise((resolve) => setImmediate(resolve));
  t.equal((await recorder.next({ type: 'typing' })).op, 'start', 'skips the message before it');
  t.equal((await recorder.next({ type: 'message' })).message.content, '<p>one</p>', 'the skipped message is still there');
  t.equal((await recorder.next({ type: 'message' })).message.content, '<p>two</p>', 'then the next one');
  t.equal(recorder.events.length, 3, 'events lists all of them');
});

t.test('patterns: nested objects, arrays element by element, RegExps, functions; none matches anything', async (t) => {
  const recorder = chat.recorder(hamlet);
  t.teardown(() => recorder.stop());
  say('the readiness is all', owner.user_id, 'Act V');
  say('alas, poor Yorick', bot.user_id, 'Act V');
  const matched = (await recorder.next({ message: { sender_id: bot.user_id, subject: /^act/i } })) as RecordedEvent;
  t.equal(matched.message.content, '<p>alas, poor Yorick</p>');
  t.equal((await recorder.next((event) => String(event.message.content).includes('readiness'))).message.sender_id, owner.user_id);
  say('words, words, words');
  const anyEvent = await recorder.next();
  t.equal(anyEvent.message.content, '<p>words, words, words</p>');
  say('the rest is silence');
  const byArray = await recorder.next({ flags: [] });
  t.same(byArray.flags, [], 'an array pattern matches an array of the same items');
  say('to sleep');
  await new Promise((resolve) => setImmediate(resolve));
  await t.rejects(recorder.next({ flags: ['read', 'extra'] }, { timeoutMs: 30 }), /within 30 ms/, 'not a longer or different array');
  await t.rejects(recorder.next({ message: { content: (value: unknown) => value === 'nope' } }, { timeoutMs: 30 }), /within 30 ms/);
});

t.test('a timeout rejects with the pattern and every event that arrived, marking those already taken', async (t) => {
  const recorder = chat.recorder(hamlet, { eventTypes: ['message'] });
  t.teardown(() => recorder.stop());
  say('first');
  await recorder.next();
  say('second');
  await new Promise((resolve) => setImmediate(resolve));
  const [first, second] = recorder.events;
  const error = await recorder.next({ type: 'message', message: { content: '<p>third</p>' } }, { timeoutMs: 50 }).catch((e: Error) => e);
  t.type(error, Error);
  const lines = (error as Error).message.split('\n');
  t.equal(lines[0], `Expected an event matching { type: 'message', message: { content: '<p>third</p>' } } for user ${hamlet.user_id} within 50 ms; these arrived since the recorder started (2):`);
  t.match(lines[1], new RegExp(`^  #${first!.id} message \\{"message":\\{.*"content":"<p>first</p>".* \\(taken by an earlier next\\(\\)\\)$`));
  t.match(lines[2], new RegExp(`^  #${second!.id} message \\{"message":\\{`));
  t.notMatch(lines[2], /taken/);
  t.ok(lines.every((line) => line.length < 260), 'each event is cut to one line');
});

t.test('with nothing arrived, the failure says so', async (t) => {
  const recorder = chat.recorder(bot, { eventTypes: ['reaction'] });
  t.teardown(() => recorder.stop());
  await t.rejects(recorder.next(undefined, { timeoutMs: 20 }), new Error(`Expected any event for user ${bot.user_id} within 20 ms; no event arrived since the recorder started.`));
});

t.test('a failure lists the latest 20 events and counts the earlier ones', async (t) => {
  const recorder = chat.recorder(hamlet);
  t.teardown(() => recorder.stop());
  for (let i = 0; i < 25; i++) say(`line ${i}`);
  await new Promise((resolve) => setImmediate(resolve));
  const error = (await recorder.next({ type: 'nothing' }, { timeoutMs: 10 }).catch((e: Error) => e)) as Error;
  const lines = error.message.split('\n');
  t.equal(lines.length, 22);
  t.equal(lines[1], '  ... and 5 earlier');
  t.match(lines[2], /"content":"<p>line 5<\/p>"/);
});

t.test('stop() rejects waiting calls, and nothing is recorded after it', async (t) => {
  const recorder = chat.recorder(hamlet);
  const waiting = recorder.next({ type: 'delete_message' });
  recorder.stop();
  await t.rejects(waiting, new Error('the recorder was stopped'));
  say('after the stop');
  await new Promise((resolve) => setImmediate(resolve));
  t.equal(recorder.events.length, 0);
  await t.rejects(recorder.next(), new Error('the recorder was stopped'));
});

t.test('the default timeout is 2 seconds of real time, whatever the test clock does', async (t) => {
  const recorder = chat.recorder(hamlet, { eventTypes: ['reaction'] });
  t.teardown(() => recorder.stop());
  const started = Date.now();
  const failed = recorder.next().catch((error: Error) => error.message);
  await chat.clock.advance(60_000);
  t.match(await failed, /within 2000 ms/);
  t.ok(Date.now() - started >= 1900, 'waited for real');
});
