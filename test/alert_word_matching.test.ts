// The alert-word matcher: Zulip's test-confirmed alert / no-alert
// table, its boundary characters and quirks, and has_alert_word on recipients' rows when messages
// are sent (over HTTP and in-process) and edited.
import t, { type Test } from 'tap';
import { FLAG } from '../lib/domain/flags.js';
import { alertWordSource, containsAlertWord, usersWithAlertWords } from '../lib/render/alert_words.js';
import { startServer } from './helpers.js';
import { addAlertWord, flagBits, ok, sendToStream, subscribe } from './messaging_helpers.js';

// Zulip's test_alert_words.py: the words one, two, three.
const WORDS: [number, string][] = [
  [1, 'one'],
  [2, 'two'],
  [3, 'three'],
];
const ALERTS = ['Normal alert one time', 'Normal alert one', 'two normal alerts', 'This one? should alert', 'Definitely time for three.', "One o'clock", "Case of ONE, won't stop me"];
const NO_ALERT = ['http://t.co/one/', 'http://t.co/one', 'clone', 'twofold', 'seventytwofold'];

t.test("Zulip's test-confirmed table: these alert and these do not", async (t) => {
  for (const content of ALERTS) t.ok(usersWithAlertWords(content, WORDS).size > 0, `alerts: ${content}`);
  for (const content of NO_ALERT) t.equal(usersWithAlertWords(content, WORDS).size, 0, `no alert: ${content}`);
  t.same([...usersWithAlertWords('one and three', WORDS)].sort(), [1, 3], 'each user whose word occurs');
});

t.test('boundaries: the characters Zulip allows before and after a word', async (t) => {
  for (const before of [' ', '\n', '(', '"', '.', ',', "'", ';', '[', '*', '`', '>']) {
    t.ok(containsAlertWord(alertWordSource(`xx${before}one`), 'one'), `before ${JSON.stringify(before)}`);
  }
  for (const after of [' ', '\n', ')', '?', ':', '.', ',', "'", ';', ']', '!', '*', '`']) {
    t.ok(containsAlertWord(alertWordSource(`one${after}xx`), 'one'), `after ${JSON.stringify(after)}`);
  }
  for (const [content, label] of [
    ['xx-one', 'a hyphen before'],
    ['xx/one', 'a slash before'],
    ['xx_one', 'an underscore before'],
    ['one-xx', 'a hyphen after'],
    ['one/xx', 'a slash after'],
    ['one_xx', 'an underscore after'],
    ['one1', 'a digit after'],
    ['xx1one', 'a digit before'],
  ] as const) {
    t.notOk(containsAlertWord(alertWordSource(content), 'one'), label);
  }
});

t.test("quirks of Zulip's code: a double quote after a word is no boundary; a match after exactly one character counts", async (t) => {
  t.notOk(containsAlertWord(alertWordSource('"one"'), 'one'), 'the `",` entry never equals one character');
  t.ok(containsAlertWord(alertWordSource('xone'), 'one'), 'preceding index 0 is accepted');
  t.notOk(containsAlertWord(alertWordSource('xxone'), 'one'));
  t.ok(containsAlertWord(alertWordSource('\u{1F600}one'), 'one'), 'one code point before, even outside the BMP');
});

t.test('matching is case-insensitive, finds phrases and non-ASCII words, and sees past an earlier invalid occurrence', async (t) => {
  t.ok(usersWithAlertWords('DEPLOY done', [[1, 'Deploy']]).has(1));
  t.ok(usersWithAlertWords('time for the Release Train!', [[1, 'release train']]).has(1));
  t.ok(usersWithAlertWords('Grüße aus Köln', [[1, 'köln']]).has(1));
  t.ok(usersWithAlertWords('clone then one', [[1, 'one']]).has(1));
});

t.test("the Markdown preprocessing Zulip runs first: tabs become spaces, fenced code is skipped", async (t) => {
  t.ok(usersWithAlertWords('a\tone', WORDS).has(1), 'a tab is expanded to spaces');
  t.ok(usersWithAlertWords('a\r\none', WORDS).has(1), 'CRLF is normalized');
  t.equal(usersWithAlertWords('```\none\n```', WORDS).size, 0, 'inside a fenced block');
  t.equal(usersWithAlertWords('~~~\ntwo', WORDS).size, 0, 'an unclosed fence runs to the end');
  t.ok(usersWithAlertWords('```\ncode\n```\nthen one', WORDS).has(1), 'after the block');
  t.ok(usersWithAlertWords('`one`', WORDS).has(1), 'inline code is not excluded');
});

async function world(t: Test) {
  const s = await startServer();
  t.teardown(() => s.close());
  const alice = await s.user('member', { fullName: 'Alice' });
  const bob = await s.user('member', { fullName: 'Bob' });
  const carol = await s.user('member', { fullName: 'Carol' });
  ok(t, await subscribe(s, alice, ['general'], { principals: [alice.user_id, bob.user_id] }));
  return { s, alice, bob, carol };
}

t.test('sending sets has_alert_word on the rows of recipients whose words occur, the sender included', async (t) => {
  const { s, alice, bob, carol } = await world(t);
  addAlertWord(s, bob.user_id, 'One');
  addAlertWord(s, alice.user_id, 'three');
  addAlertWord(s, carol.user_id, 'one');
  for (const content of ALERTS.filter((c) => /one/i.test(c))) {
    const viaHttp = await sendToStream(s, alice, 'general', 't', content);
    const inProcess = s.chat.api.messages.send(alice.user_id, { type: 'stream', to: 'general', topic: 't', content }).id;
    for (const id of [viaHttp, inProcess]) t.equal(flagBits(s, bob.user_id, id), FLAG.has_alert_word, `bob alerted: ${content}`);
  }
  for (const content of NO_ALERT) {
    const id = await sendToStream(s, alice, 'general', 't', content);
    t.equal(flagBits(s, bob.user_id, id), 0, `bob not alerted: ${content}`);
  }
  const own = await sendToStream(s, alice, 'general', 't', 'Definitely time for three.');
  t.equal(flagBits(s, alice.user_id, own), FLAG.has_alert_word, 'the sender is not excluded');
  t.equal(flagBits(s, carol.user_id, own), undefined, 'words of users who do not receive the message do nothing');
  const flags = (await s.request('GET', `/messages/${own}`, { as: alice })).body.message.flags;
  t.same(flags, ['has_alert_word']);
});

t.test('an edit recomputes has_alert_word from the current words', async (t) => {
  const { s, alice, bob } = await world(t);
  addAlertWord(s, bob.user_id, 'deploy');
  const id = await sendToStream(s, alice, 'general', 't', 'nothing yet');
  t.equal(flagBits(s, bob.user_id, id), 0);
  ok(t, await s.request('PATCH', `/messages/${id}`, { as: alice, params: { content: 'time to deploy' } }));
  t.equal(flagBits(s, bob.user_id, id), FLAG.has_alert_word, 'added by the edit');
  s.chat.api.messages.edit(alice.user_id, { messageId: id, content: 'redeploy' });
  t.equal(flagBits(s, bob.user_id, id), 0, 'removed by the edit');
});

t.test('the one-pass matcher (RE2.Set) finds exactly what checking every word finds', async (t) => {
  const { default: fc } = await import('fast-check');
  const { AlertWordMatcher } = await import('../lib/render/alert_words.js');
  const alphabet = fc.constantFrom('a', 'b', 'o', 'n', 'e', ' ', '.', '(', ')', '*', '+', '?', '[', '\\', '\n', 'é', '"', "'");
  const word = fc.string({ unit: alphabet, minLength: 1, maxLength: 4 });
  fc.assert(
    fc.property(fc.array(fc.tuple(fc.integer({ min: 1, max: 5 }), word), { maxLength: 12 }), fc.string({ unit: alphabet, maxLength: 60 }), (pairs, content) => {
      const text = alertWordSource(content);
      const naive = new Set(pairs.filter(([, w]) => containsAlertWord(text, w.toLowerCase())).map(([id]) => id));
      const fast = new AlertWordMatcher(pairs).usersIn(content);
      return naive.size === fast.size && [...naive].every((id) => fast.has(id));
    }),
    { numRuns: 300, seed: 42 },
  );
  t.pass('same users for 300 random word lists and messages');
});
