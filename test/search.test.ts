// The search: narrow (Zulip's by_search): words ANDed over topic and content, prefixes, "quoted
// phrases", access (own rows, or a channel's history), match_content / match_subject highlighting,
// the index kept in step with sends, edits, topic moves and deletes, and bad operands. Each rule
// over HTTP and in-process.
import t from 'tap';
import { startServer, type TestServer } from './helpers.js';
import { bad, memberPair, ok, sendDirect, sendToStream, subscribe } from './messaging_helpers.js';
import { narrowFails, narrowed, narrowedIds, search } from './narrow_helpers.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

const inChannel = (channel: string) => ({ operator: 'channel', operand: channel });

t.test('words are ANDed, over the topic and the content, case- and accent-insensitively, each as a prefix', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'words');
  const lunch = await sendToStream(s, alice, channel, 'Lunch plans', 'Meet at the Café at noon');
  const walk = await sendToStream(s, alice, channel, 'outside', 'Walking to the park');
  const both = await sendToStream(s, alice, channel, 'park lunch', 'bring sandwiches');
  const ids = (narrow: unknown[]) => narrowedIds(t, s, alice, [inChannel(channel), ...narrow]);
  t.same(await ids([search('lunch')]), [lunch, both], 'a topic word');
  t.same(await ids([search('CAFE')]), [lunch], 'case and accents are ignored');
  t.same(await ids([search('walk')]), [walk], 'a word matches the words it starts');
  t.same(await ids([search('park lunch')]), [both], 'every word must occur');
  t.same(await ids([search('park'), search('sandwich')]), [both], 'several search terms are one search');
  t.same(await ids([search('park', true)]), [walk, both], 'as in Zulip, a negated search term is still a search');
  t.same(await ids([search('alk')]), [], 'not the middle of a word');
  t.same(await ids([search('!!! ...')]), [], 'an operand without a word finds nothing');
});

t.test('"quoted phrases" match the words in a row and the exact text, in the topic or the content', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'phrase');
  const exact = await sendToStream(s, alice, channel, 't', 'the quick brown fox');
  const comma = await sendToStream(s, alice, channel, 't', 'quick, brown fox');
  const apart = await sendToStream(s, alice, channel, 't', 'brown and quick');
  const topic = await sendToStream(s, alice, channel, 'Quick Brown topics', 'nothing here');
  const ids = (operand: string) => narrowedIds(t, s, alice, [inChannel(channel), search(operand)]);
  t.same(await ids('quick brown'), [exact, comma, apart, topic], 'unquoted: each word anywhere');
  t.same(await ids('"quick brown"'), [exact, topic], 'quoted: that text, in the content or the topic (case-insensitively)');
  t.same(await ids('"quick brown" fox'), [exact], 'a phrase and a word');
  t.same(await ids('"quick bro"'), [], 'the words of a phrase are whole words');
  t.same(await ids('"100%"'), [], 'LIKE wildcards in a phrase are literal');
});

t.test('match_content and match_subject: the rendered content and escaped topic with matches in <span class="highlight">', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'highlight');
  const id = await sendToStream(s, alice, channel, "Tom's <deploy> & co", 'Deploying **today**: see https://example.com/deploy & <deploy>');
  const [message] = await narrowed(t, s, alice, [inChannel(channel), search('deploy')]);
  t.equal(message!.id, id);
  t.equal(
    message!.match_content,
    '<p><span class="highlight">Deploying</span> <strong>today</strong>: see <a href="https://example.com/deploy">https://example.com/<span class="highlight">deploy</span></a> &amp; &lt;<span class="highlight">deploy</span>&gt;</p>',
    'words in text only: never inside a tag or a character reference',
  );
  t.equal(message!.match_subject, 'Tom&#39;s &lt;<span class="highlight">deploy</span>&gt; &amp; co');
  t.equal(message!.content, '<p>Deploying <strong>today</strong>: see <a href="https://example.com/deploy">https://example.com/deploy</a> &amp; &lt;deploy&gt;</p>', 'content itself unchanged');
  const [amp] = await narrowed(t, s, alice, [inChannel(channel), search('amp')]);
  t.equal(amp, undefined, 'a character reference is no word');
  const [phrase] = await narrowed(t, s, alice, [inChannel(channel), search('"see https"')]);
  t.equal(
    phrase!.match_content,
    '<p>Deploying <strong>today</strong>: <span class="highlight">see</span> <a href="https://example.com/deploy"><span class="highlight">https</span>://example.com/deploy</a> &amp; &lt;deploy&gt;</p>',
    'a phrase highlights its whole words',
  );
  const plain = await narrowed(t, s, alice, [inChannel(channel)]);
  t.notOk('match_content' in plain[0]!, 'no match fields without a search');
});

t.test('a direct-message search has an empty match_subject; message_ids with a search carry the match fields', async (t) => {
  const alice = await s.user('member');
  const bob = await s.user('member');
  const id = await sendDirect(s, alice, [bob.user_id], 'secret rendezvous');
  const [found] = await narrowed(t, s, bob, [search('rendezvous')]);
  t.same([found!.id, found!.match_subject, found!.match_content], [id, '', '<p>secret <span class="highlight">rendezvous</span></p>']);
  const byId = ok(t, await s.request('GET', '/messages', { as: bob, params: { message_ids: [id], narrow: [search('secret')] } }));
  t.equal(byId.messages[0].match_content, '<p><span class="highlight">secret</span> rendezvous</p>');
  const carol = await s.user('member');
  t.same(await narrowedIds(t, s, carol, [search('rendezvous')]), [], 'others never find it');
});

t.test('without a channel term a search covers one\'s own messages; with one, the channel\'s history one may read', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'history');
  const before = await sendToStream(s, alice, channel, 'old', 'ancient history');
  const carol = await s.user('member');
  t.same(await narrowedIds(t, s, carol, [search('ancient')]), [], 'not received');
  const found = await narrowed(t, s, carol, [inChannel(channel), search('ancient')]);
  t.same(found.map((m) => [m.id, m.flags]), [[before, ['read', 'historical']]], 'a public channel\'s history');
  ok(t, await subscribe(s, alice, [`${channel}-private`], { invite_only: true }));
  await sendToStream(s, alice, `${channel}-private`, 'p', 'ancient secret');
  t.same(await narrowedIds(t, s, carol, [inChannel(`${channel}-private`), search('ancient')]), [], 'not a private channel\'s');
});

t.test('anchors work with a search: first_unread, found_oldest and found_newest', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'anchor');
  const ids = [];
  for (let i = 0; i < 4; i++) ids.push(await sendToStream(s, alice, channel, 't', `needle ${i}`));
  await sendToStream(s, alice, channel, 't', 'haystack');
  ok(t, await s.request('POST', '/messages/flags', { as: bob, params: { messages: [ids[0], ids[1]], op: 'add', flag: 'read' } }));
  const page = ok(t, await s.request('GET', '/messages', { as: bob, params: { anchor: 'first_unread', num_before: 1, num_after: 2, narrow: [search('needle')] } }));
  t.same([page.anchor, page.messages.map((m: { id: number }) => m.id), page.found_oldest, page.found_newest], [ids[2], [ids[1], ids[2], ids[3]], false, true]);
});

t.test('POST /messages/flags/narrow with a search flags the matching messages', async (t) => {
  const { alice, bob, channel } = await memberPair(t, s, 'flagsearch');
  const hit = await sendToStream(s, alice, channel, 't', 'mark me');
  await sendToStream(s, alice, channel, 't', 'leave me');
  const body = ok(t, await s.request('POST', '/messages/flags/narrow', { as: bob, params: { anchor: 'oldest', num_before: 0, num_after: 100, narrow: [search('mark')], op: 'add', flag: 'starred' } }));
  t.same([body.processed_count, body.first_processed_id], [1, hit]);
});

t.test('the index follows sends, content edits, topic moves and deletes, in the same transaction', async (t) => {
  const { alice, channel } = await memberPair(t, s, 'sync');
  const id = await sendToStream(s, alice, channel, 'first topic', 'original words');
  const other = await sendToStream(s, alice, channel, 'first topic', 'companion');
  const ids = (operand: string) => narrowedIds(t, s, alice, [inChannel(channel), search(operand)]);
  t.same(await ids('original'), [id]);
  ok(t, await s.request('PATCH', `/messages/${id}`, { as: alice, params: { content: 'replacement text' } }));
  t.same(await ids('original'), [], 'old words gone');
  t.same(await ids('replacement'), [id], 'new words found');
  s.chat.api.messages.edit(alice.user_id, { messageId: id, topic: 'moved along', propagateMode: 'change_all' });
  t.same(await ids('first'), [], 'the old topic is gone from every moved message');
  t.same(await ids('moved'), [id, other]);
  s.db.transaction(() => {
    s.db.prepare('DELETE FROM user_message WHERE message_id = ?').run(id);
    s.db.prepare('DELETE FROM message WHERE id = ?').run(id);
  })();
  t.same(await ids('moved'), [other], 'a deleted message leaves the index');
  t.doesNotThrow(() => s.db.exec("INSERT INTO message_fts (message_fts, rank) VALUES ('integrity-check', 1)"), 'the index matches the messages');
});

t.test('bad search operands: blank, or not a string', async (t) => {
  const alice = await s.user('member');
  await narrowFails(t, s, alice, [search('  ')], bad('operand cannot be blank.'));
  await narrowFails(t, s, alice, [search(7)], bad('operand is not a string'));
});
