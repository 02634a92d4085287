// The bounds of a search and of the statements narrows prepare: at most MAX_SEARCH_WORDS words and
// MAX_SEARCH_PHRASES quoted phrases in a search (all its terms together), a 400 past them, in
// GET /messages and POST /messages/flags/narrow; the worst search allowed is bounded work (counted
// in the full-text statements SQLite runs, one for any number of message_ids); long messages
// highlighted word by word, at most MAX_HIGHLIGHTS words each; equivalent narrows share one SQL
// text; thousands of narrow shapes keep few statements prepared and little memory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import Database from 'better-sqlite3';
import t from 'tap';
import { contextOf } from '../lib/context.js';
import { MAX_HIGHLIGHTS, MAX_SEARCH_PHRASES, MAX_SEARCH_WORDS } from '../lib/domain/search.js';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { MAX_BUILT_STATEMENTS } from '../lib/store/db.js';
import { injectRequest, startServer, withAuth, type TestServer } from './helpers.js';
import { bad, bothFail, camelize, memberPair, ok, sendToStream } from './messaging_helpers.js';
import { narrowFails, narrowed, narrowedIds, search } from './narrow_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

const tooManyWords = bad(`Too many words in the search (limit: ${MAX_SEARCH_WORDS})`);
const tooManyPhrases = bad(`Too many quoted phrases in the search (limit: ${MAX_SEARCH_PHRASES})`);
const letters = (n: number) => Array.from({ length: n }, (_, i) => String.fromCharCode(97 + (i % 26)) + (i >= 26 ? i : '')).join(' ');
/** The request that froze the server: 100 terms of 500 one-letter words. */
const freezing = Array.from({ length: 100 }, () => search(Array(500).fill('a').join(' ')));

t.test(`a search has at most ${MAX_SEARCH_WORDS} words, all its search terms together: one more is a 400`, async (t) => {
  const { alice, channel } = await memberPair(t, s, 'words');
  const hit = await sendToStream(s, alice, channel, 'all words', letters(MAX_SEARCH_WORDS));
  const inChannel = { operator: 'channel', operand: channel };
  t.same(await narrowedIds(t, s, alice, [inChannel, search(letters(MAX_SEARCH_WORDS))]), [hit], 'at the limit: found');
  const split = letters(MAX_SEARCH_WORDS).split(' ');
  t.same(await narrowedIds(t, s, alice, [inChannel, ...split.map((word) => search(word))]), [hit], 'at the limit over many terms');
  t.same(await narrowedIds(t, s, alice, [inChannel, search(`${letters(MAX_SEARCH_WORDS)} !!! ... --`)]), [hit], 'text without letters or digits is no word');
  await narrowFails(t, s, alice, [search(letters(MAX_SEARCH_WORDS + 1))], tooManyWords);
  await narrowFails(t, s, alice, [...split.map((word) => search(word)), search('one-more')], tooManyWords);
  await narrowFails(t, s, alice, [search(`"${letters(MAX_SEARCH_WORDS)}" x`)], tooManyWords);
  await narrowFails(t, s, alice, [search(split.join('-') + '-x')], tooManyWords);
  await narrowFails(t, s, alice, [inChannel, { operator: 'is', operand: 'starred', negated: true }, ...freezing.slice(2)], tooManyWords);
});

t.test(`a search has at most ${MAX_SEARCH_PHRASES} quoted phrases: about 1,000 of them are a 400, not a 500`, async (t) => {
  const { alice, channel } = await memberPair(t, s, 'phrases');
  const phrases = (n: number) => Array.from({ length: n }, (_, i) => `"p${i}"`).join(' ');
  const hit = await sendToStream(s, alice, channel, 't', phrases(MAX_SEARCH_PHRASES));
  t.same(await narrowedIds(t, s, alice, [{ operator: 'channel', operand: channel }, search(phrases(MAX_SEARCH_PHRASES))]), [hit], 'at the limit: found');
  await narrowFails(t, s, alice, [search(phrases(MAX_SEARCH_PHRASES + 1))], tooManyPhrases);
  const thousand = Array.from({ length: 4 }, () => search(Array(250).fill('"a"').join(' ')));
  await narrowFails(t, s, alice, thousand, tooManyPhrases);
  await narrowFails(t, s, alice, [search(`x ${Array(200).fill('"!"').join(' ')}`)], tooManyPhrases);
});

t.test('POST /messages/flags/narrow refuses the same searches and changes nothing', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'flags');
  await sendToStream(s, alice, channel, 't', 'a b c');
  const flagged = () => s.db.prepare('SELECT count(*) FROM starred_message WHERE user_id = ?').pluck().get(alice.user_id);
  for (const [narrow, expected] of [
    [freezing, tooManyWords],
    [Array.from({ length: 4 }, () => search(Array(250).fill('"a"').join(' '))), tooManyPhrases],
  ] as const) {
    const params = { anchor: 'oldest', num_before: 0, num_after: 100, op: 'add', flag: 'starred', narrow };
    await bothFail(
      t,
      () => s.request('POST', '/messages/flags/narrow', { as: alice, params }),
      () => s.chat.api.messageFlags.updateForNarrow(alice.user_id, camelize(params) as never),
      expected,
    );
  }
  t.equal(flagged(), 0, 'no message was starred');
});

t.test(`a long message of one-letter words is highlighted word by word, ASCII or not, never inside a tag, at most ${MAX_HIGHLIGHTS} words`, async (t) => {
  const { alice, channel } = await memberPair(t, s, 'long');
  const inChannel = { operator: 'channel', operand: channel };
  for (const [letter, operand] of [['a', 'A'], ['é', 'e']] as const) {
    const marked = `<span class="highlight">${letter}</span>`;
    const link = `[${letter}](https://example.com/${operand.toLowerCase()})`;
    await sendToStream(s, alice, channel, letter, `${`${letter} `.repeat(MAX_HIGHLIGHTS - 1)}${link}`);
    const [short] = await narrowed(t, s, alice, [inChannel, { operator: 'topic', operand: letter }, search(operand)]);
    t.equal(short!.match_content.split(marked).length - 1, MAX_HIGHLIGHTS, `${letter}: every word, the link's text too`);
    t.match(short!.match_content, `<a href="https://example.com/${operand.toLowerCase()}">${marked}</a>`, `${letter}: not the link's address`);
    const topic = `${letter} long`;
    await sendToStream(s, alice, channel, topic, `${`${letter} `.repeat(4000)}${link}`);
    const [long] = await narrowed(t, s, alice, [inChannel, { operator: 'topic', operand: topic }, search(operand)]);
    t.equal(long!.match_content.split(marked).length - 1, MAX_HIGHLIGHTS, `${letter}: of 4,001 matching words, the first ${MAX_HIGHLIGHTS}`);
    t.equal(long!.match_content.replaceAll(marked, letter), long!.content, `${letter}: the rest of the text as it is`);
  }
});

t.test('the worst searches and narrows allowed are bounded work: at most 4 full-text statements, each of at most the word and phrase limits; each user looked up once', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'parley-search-'));
  const statements: string[] = [];
  const db = new Database(join(dir, 'chat.db'), { verbose: (sql) => statements.push(String(sql)) });
  const chat = createChatServer(db, { logger: silentLogger });
  t.teardown(async () => {
    await chat.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const owner = withAuth(await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' }));
  for (let i = 0; i < 5; i++) chat.api.messages.send(owner.user_id, { type: 'stream', to: 'general', topic: 'lunch', content: `${letters(26)} 漢字 ${i}` });
  const cjk = Array.from({ length: MAX_SEARCH_WORDS }, (_, i) => String.fromCodePoint(0x4e00 + i)).join(' ');
  const longWords = Array.from({ length: MAX_SEARCH_WORDS }, (_, i) => String.fromCharCode(97 + i).repeat(1000 / MAX_SEARCH_WORDS - 1)).join(' ');
  const quoted = Array.from({ length: MAX_SEARCH_PHRASES }, () => `"${Array(MAX_SEARCH_WORDS / MAX_SEARCH_PHRASES).fill('a').join(' ')}"`).join(' ');
  const others = [
    ...Array.from({ length: 40 }, (_, i) => ({ operator: 'topic', operand: `t${i}`, negated: true })),
    ...Array.from({ length: 30 }, (_, i) => ({ operator: 'id', operand: i + 100, negated: true })),
    ...['starred', 'mentioned', 'followed', 'muted'].map((operand) => ({ operator: 'is', operand, negated: true })),
    ...['link', 'image', 'reaction'].map((operand) => ({ operator: 'has', operand, negated: true })),
  ];
  const worst = {
    'one-letter prefixes': [search(letters(MAX_SEARCH_WORDS))],
    'a word per term, among 100 terms of every kind, negated': [...letters(MAX_SEARCH_WORDS).split(' ').map((word) => search(word, true)), ...others].slice(0, 100),
    'CJK words': [search(cjk)],
    'long words': [search(longWords)],
    'quoted phrases of one word repeated': [search(quoted)],
  };
  const fullText = () => statements.filter((sql) => sql.includes(' MATCH '));
  for (const [name, narrow] of Object.entries(worst)) {
    const params = { anchor: 'first_unread', num_before: 50, num_after: 50, narrow };
    for (const run of [
      () => injectRequest(chat.handler, 'GET', '/messages', { as: owner, params }),
      () => injectRequest(chat.handler, 'POST', '/messages/flags/narrow', { as: owner, params: { ...params, op: 'add', flag: 'read' } }),
      async () => ({ status: 200, body: chat.api.messages.list(owner.user_id, camelize(params) as never) }),
    ]) {
      statements.length = 0;
      const reply = await run();
      t.equal(reply.status, 200, `${name}: allowed`);
      const counted = fullText().map((sql) => {
        const match = /MATCH '((?:[^']|'')*)'/.exec(sql)![1]!;
        return { words: [...match.matchAll(/"([^"]*)"/g)].reduce((n, phrase) => n + phrase[1]!.split(' ').length, 0), phrases: sql.split('instr(').length - 1 };
      });
      t.ok(counted.length >= 1 && counted.length <= 4, `${name}: ${counted.length} full-text statements`);
      t.ok(counted.every((c) => c.words <= MAX_SEARCH_WORDS && c.phrases <= 2 * MAX_SEARCH_PHRASES), `${name}: words and phrase tests within the limits`);
    }
  }
  const messageIds = Array.from({ length: 500 }, (_, i) => i + 1);
  for (const [name, narrow] of Object.entries(worst)) {
    statements.length = 0;
    ok(t, await injectRequest(chat.handler, 'GET', '/messages', { as: owner, params: { message_ids: messageIds, narrow } }), `${name}, 500 message_ids`);
    t.equal(fullText().length, 1, `${name}, 500 message_ids: one full-text statement for them all`);
  }
  const members: number[] = [];
  for (let i = 0; i < 3; i++) members.push((await chat.admin.addUser({ email: `m${i}@example.com`, fullName: `M ${i}` })).user_id);
  const dms = Array.from({ length: 100 }, () => ({ operator: 'dm', operand: Array.from({ length: 1000 }, (_, i) => members[i % 3]!) }));
  statements.length = 0;
  ok(t, await injectRequest(chat.handler, 'GET', '/messages', { as: owner, params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: dms } }), '100 dm terms of 1,000 users');
  const lookups = statements.filter((sql) => sql.startsWith('SELECT * FROM user WHERE id = ')).length;
  t.ok(lookups <= 10, `each user looked up once (${lookups} lookups)`);
  statements.length = 0;
  const refused = await injectRequest(chat.handler, 'GET', '/messages', { as: owner, params: { anchor: 'newest', num_before: 50, num_after: 0, narrow: freezing } });
  t.equal(refused.status, 400, 'the freezing search is refused');
  t.same(fullText(), [], 'before any full-text statement runs');
});

t.test('with message_ids or a numeric anchor, a search keeps only the messages it matches', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'among');
  const ids = [];
  for (let i = 0; i < 6; i++) ids.push(await sendToStream(s, alice, channel, 't', i % 3 === 0 ? `needle ${i}` : `hay ${i}`));
  const byIds = ok(t, await s.request('GET', '/messages', { as: alice, params: { message_ids: [...ids].reverse(), narrow: [search('needle')] } }));
  t.same(byIds.messages.map((m: { id: number }) => m.id), [ids[0], ids[3]], 'message_ids: the matching ones, oldest first');
  const inProcess = s.chat.api.messages.list(alice.user_id, { messageIds: ids, narrow: [{ operator: 'search', operand: 'needle' }] });
  t.same(inProcess.messages.map((m) => (m as { id: number }).id), [ids[0], ids[3]], 'in-process too');
  const around = ok(t, await s.request('GET', '/messages', { as: alice, params: { anchor: ids[4], num_before: 1, num_after: 1, narrow: [search('needle')] } }));
  t.same([around.messages.map((m: { id: number }) => m.id), around.found_anchor], [[ids[3]], false], 'an anchor that does not match is not found');
  const at = ok(t, await s.request('GET', '/messages', { as: alice, params: { anchor: ids[3], num_before: 0, num_after: 0, narrow: [search('needle')] } }));
  t.same([at.messages.map((m: { id: number }) => m.id), at.found_anchor], [[ids[3]], true], 'one that matches is');
});

t.test('equivalent narrows share one statement: terms in any order, repeated, or adding nothing', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'shape');
  const id = await sendToStream(s, alice, channel, 'same', 'same shape');
  const store = contextOf(s.chat).store;
  const terms = [{ operator: 'channel', operand: channel }, { operator: 'topic', operand: 'same' }, { operator: 'sender', operand: alice.user_id }, search('shape')];
  t.same(await narrowedIds(t, s, alice, terms), [id]);
  const prepared = store.preparedCount.built;
  t.same(await narrowedIds(t, s, alice, [...terms].reverse()), [id], 'reversed');
  t.same(await narrowedIds(t, s, alice, [...terms, ...terms, { operator: 'in', operand: 'home' }, search('shape')]), [id], 'repeated, with in:home');
  t.equal(store.preparedCount.built, prepared, 'no statement was added');
  t.same(await narrowedIds(t, s, alice, [...terms, { operator: 'has', operand: 'link', negated: true }]), [id]);
  t.equal(store.preparedCount.built, prepared + 1, 'another shape is another statement');
});

t.test(`thousands of narrow shapes keep at most ${MAX_BUILT_STATEMENTS} statements prepared, and their memory bounded`, async (t) => {
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  const { alice, channel } = await memberPair(t, s, 'cache');
  await sendToStream(s, alice, channel, 't', 'cached');
  const options = [
    { operator: 'channel', operand: channel },
    { operator: 'topic', operand: 't' },
    { operator: 'sender', operand: alice.user_id },
    { operator: 'id', operand: 1 },
    { operator: 'is', operand: 'starred' },
    { operator: 'is', operand: 'unread' },
    { operator: 'is', operand: 'mentioned' },
    { operator: 'is', operand: 'dm' },
    { operator: 'is', operand: 'followed' },
    { operator: 'is', operand: 'muted' },
    { operator: 'has', operand: 'link' },
    { operator: 'has', operand: 'reaction' },
  ];
  // Each number is a different set of terms, negated or not.
  const shape = (n: number) => options.flatMap((term, bit) => ((n >> bit) & 1 ? [{ ...term, negated: ((n >> 12) & 1) === 1 }] : []));
  const list = (n: number) => s.chat.api.messages.list(alice.user_id, { anchor: 'newest', numBefore: 1, numAfter: 0, narrow: shape(n) });
  // The first thousands of requests also grow the heap and compiled code: memory is compared after them.
  for (let n = 1; n <= 3000; n++) list(n);
  const store = contextOf(s.chat).store;
  const fixed = store.preparedCount.fixed;
  gc();
  const before = process.memoryUsage().rss;
  for (let n = 4097; n <= 7096; n++) list(n);
  gc();
  const grown = (process.memoryUsage().rss - before) / 2 ** 20;
  t.ok(store.preparedCount.built <= MAX_BUILT_STATEMENTS, `${store.preparedCount.built} built statements kept`);
  t.equal(store.preparedCount.fixed, fixed, 'none of them among the statements kept for good');
  // Kept for good, the statements of these 3,000 other shapes held about 50 MiB.
  t.ok(grown < 10, `memory grew by ${grown.toFixed(1)} MiB`);
  ok(t, await s.request('GET', '/messages', { as: alice, params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: shape(1) } }), 'an evicted shape is prepared again');
});
