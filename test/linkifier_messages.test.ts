// Linkifiers end to end with messaging: a sent message is rendered with the linkifiers as they are
// at that moment (content and topic_links); changing, reordering or deleting them affects later
// messages only; editing a message renders it again with the current set.
import t, { type Test } from 'tap';
import { startServer, type TestServer } from './helpers.js';
import { sendToStream, subscribe } from './messaging_helpers.js';

const s: TestServer = await startServer({ file: false });
t.teardown(() => s.close());
await subscribe(s, s.owner, ['general']);
const api = s.chat.api.linkifiers;
const owner = s.owner.user_id;

interface Shown {
  content: string;
  topic_links: { text: string; url: string }[];
}

/** Content and topic_links exactly. */
async function renders(t: Test, id: number, content: string, topicLinks: Shown['topic_links']): Promise<void> {
  const message = await shown(id);
  t.equal(message.content, content, 'content');
  t.same(message.topic_links, topicLinks, 'topic_links');
}

async function shown(id: number): Promise<Shown> {
  const reply = await s.request('GET', `/messages/${id}`, { as: s.owner, params: { apply_markdown: true } });
  return reply.body.message as Shown;
}

const send = (topic: string, content: string) => sendToStream(s, s.owner, 'general', topic, content);

t.test('a message sent after a linkifier is added has the link in its content and its topic_links', async (t) => {
  s.db.exec('DELETE FROM linkifier');
  const before = await send('ticket #123', 'see #123');
  const { id } = api.add(owner, { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://trac.example.com/ticket/{id}' }) as { id: number };
  const after = await send('ticket #123 https://example.com', 'see #123');
  await renders(t, after, '<p>see <a href="https://trac.example.com/ticket/123">#123</a></p>', [
    { text: '#123', url: 'https://trac.example.com/ticket/123' },
    { text: 'https://example.com', url: 'https://example.com' },
  ]);
  await renders(t, before, '<p>see #123</p>', []);
  api.remove(owner, { filterId: id });
});

t.test('alternative_url_templates do not change forward linkification: only url_template is used', async (t) => {
  s.db.exec('DELETE FROM linkifier');
  const { id } = api.add(owner, {
    pattern: '#(?P<id>[0-9]+)',
    urlTemplate: 'https://trac.example.com/ticket/{id}',
    alternativeUrlTemplates: ['https://other.example.com/t/{id}', 'https://trac.example.com/ticket?id={id}'],
  }) as { id: number };
  const message = await send('#5', '#5');
  await renders(t, message, '<p><a href="https://trac.example.com/ticket/5">#5</a></p>', [
    { text: '#5', url: 'https://trac.example.com/ticket/5' },
  ]);
  api.remove(owner, { filterId: id });
});

t.test('changing, reordering or deleting linkifiers affects messages sent afterwards', async (t) => {
  s.db.exec('DELETE FROM linkifier');
  const ticket = (api.add(owner, { pattern: 'ABC-(?P<id>[0-9]+)', urlTemplate: 'https://a/{id}' }) as { id: number }).id;
  const any = (api.add(owner, { pattern: '(?P<p>[A-Z]+)-(?P<id>[0-9]+)', urlTemplate: 'https://b/{p}/{id}' }) as { id: number }).id;
  const first = await send('ABC-1', 'ABC-1');
  api.reorder(owner, { orderedLinkifierIds: [any, ticket] });
  const reordered = await send('ABC-1', 'ABC-1');
  api.update(owner, { filterId: any, pattern: '(?P<p>[A-Z]+)-(?P<id>[0-9]+)', urlTemplate: 'https://c/{p}/{id}' });
  const changed = await send('ABC-1', 'ABC-1');
  api.remove(owner, { filterId: any });
  api.remove(owner, { filterId: ticket });
  const deleted = await send('ABC-1', 'ABC-1');
  await renders(t, first, '<p><a href="https://a/1">ABC-1</a></p>', [{ text: 'ABC-1', url: 'https://a/1' }]);
  await renders(t, reordered, '<p><a href="https://b/ABC/1">ABC-1</a></p>', [{ text: 'ABC-1', url: 'https://b/ABC/1' }]);
  await renders(t, changed, '<p><a href="https://c/ABC/1">ABC-1</a></p>', [{ text: 'ABC-1', url: 'https://c/ABC/1' }]);
  await renders(t, deleted, '<p>ABC-1</p>', []);
});

t.test('PATCH /messages/{id} renders the edited content with the current linkifiers', async (t) => {
  s.db.exec('DELETE FROM linkifier');
  const id = await send('edits', 'ticket #7');
  t.equal((await shown(id)).content, '<p>ticket #7</p>');
  api.add(owner, { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://t/{id}' });
  const edited = await s.request('PATCH', `/messages/${id}`, { as: s.owner, params: { content: 'ticket #7 and #8' } });
  t.equal(edited.status, 200);
  t.equal((await shown(id)).content, '<p>ticket <a href="https://t/7">#7</a> and <a href="https://t/8">#8</a></p>');
  const moved = await s.request('PATCH', `/messages/${id}`, { as: s.owner, params: { topic: 'about #9' } });
  t.equal(moved.status, 200);
  t.same((await shown(id)).topic_links, [{ text: '#9', url: 'https://t/9' }], 'a new topic gets its links');
});

t.test('a hostile pattern does not slow sending: RE2 takes linear time', async (t) => {
  s.db.exec('DELETE FROM linkifier');
  api.add(owner, { pattern: '(?P<id>(a+)+$)', urlTemplate: 'https://x/{id}' });
  const content = `${'a'.repeat(9000)}!`;
  const id = await send('aaaa', content);
  t.equal((await shown(id)).content, `<p>${content}</p>`);
});
