// Linkifier figures: rendering a 10 KB message against 50 linkifiers (next to the same render with
// none), adding a linkifier in-process (the add alone, next to a one-row UPDATE transaction on
// the same file), and a send with 50 linkifiers next to the same send with none.
import markdownIt from 'markdown-it';
import { compileLinkifier } from '../lib/render/linkifier_patterns.js';
import { linkifierPlugin } from '../lib/render/linkifiers.js';
import type { CompiledLinkifier } from '../lib/render/linkifier_patterns.js';
import { msOnce, msPerCall, record } from './harness.js';
import { openBenchChat, type BenchChat } from './chat.js';

const LINKIFIERS = 50;

/** 50 linkifiers of the usual kinds: ticket prefixes, repo#issue, words with an id. */
function linkifierDefs(): { pattern: string; urlTemplate: string }[] {
  const defs: { pattern: string; urlTemplate: string }[] = [
    { pattern: '#(?P<id>[0-9]{2,8})', urlTemplate: 'https://trac.example.com/ticket/{id}' },
    { pattern: '(?P<org>[a-z0-9_-]+)/(?P<repo>[a-z0-9_-]+)#(?P<id>[0-9]+)', urlTemplate: 'https://github.com/{org}/{repo}/issues/{id}' },
  ];
  for (let i = 0; defs.length < LINKIFIERS; i++) {
    defs.push({ pattern: `P${i}[A-Z]*-(?P<id>[0-9]+)`, urlTemplate: `https://jira.example.com/P${i}/{id}` });
  }
  return defs;
}

/** About 10 KB of chat text: prose, tickets, issue references, a URL and code, over several paragraphs. */
function message(bytes: number): string {
  const lines = [
    'We looked at #1234 and zulip/zulip#5678 again today; P3-42 is related, see https://example.com/docs.',
    'The fix for P17X-9 needs `#999 in code` left alone, and (P25-100) should still link.',
    'Nothing to link in this sentence at all, just ordinary words about the release plan.',
    '**Bold** text, *emphasis* and a list follow:',
    '- item P40-7',
    '- item #4321, then P0-1',
    '',
  ];
  let text = '';
  for (let i = 0; text.length < bytes; i++) text += lines[i % lines.length] + '\n';
  return text.slice(0, bytes);
}

function renderBench(): void {
  const md = markdownIt({ breaks: true, linkify: true }).use(linkifierPlugin);
  const linkifiers: CompiledLinkifier[] = linkifierDefs().map((d, i) => compileLinkifier({ id: i + 1, pattern: d.pattern, url_template: d.urlTemplate }));
  const content = message(10 * 1024);
  const none = msPerCall(() => md.render(content, { linkifiers: [] }), 100);
  const fifty = msPerCall(() => md.render(content, { linkifiers }), 100);
  record({
    group: 'linkifiers',
    name: `render a 10 KB message, ${LINKIFIERS} linkifiers`,
    value: fifty,
    unit: 'ms',
    baseline: { name: 'the same render without linkifiers', value: none },
  });
}

type Org = BenchChat;
const org = openBenchChat;
const close = (o: Org): Promise<void> => o.close();

function addLinkifiers(o: Org): void {
  for (const d of linkifierDefs()) o.chat.api.linkifiers.add(o.ownerId, d);
}

async function addBench(): Promise<void> {
  const o = await org();
  addLinkifiers(o);
  o.db.exec('CREATE TABLE bench_row (id INTEGER PRIMARY KEY, n INTEGER) STRICT; INSERT INTO bench_row VALUES (1, 0);');
  const update = o.db.prepare('UPDATE bench_row SET n = n + 1 WHERE id = 1');
  const raw = msPerCall(o.db.transaction(() => update.run()), 500);
  let i = 0;
  const add = () => (o.chat.api.linkifiers.add(o.ownerId, { pattern: `NEW${i++}-(?P<id>[0-9]+)`, urlTemplate: 'https://new/{id}' }) as { id: number }).id;
  const remove = (id: number) => o.chat.api.linkifiers.remove(o.ownerId, { filterId: id });
  for (let w = 0; w < 50; w++) remove(add());
  // Only the add is timed; the linkifier it added is removed before the next one, outside the
  // timing, so every add finds the organization at 50 linkifiers.
  let added: number | undefined;
  const removeAdded = () => {
    if (added !== undefined) remove(added);
    added = undefined;
  };
  const addMs = msOnce(removeAdded, () => (added = add()), 301);
  removeAdded();
  record({
    group: 'linkifiers',
    name: `add a linkifier with ${LINKIFIERS} configured (in-process)`,
    value: addMs,
    unit: 'ms',
    baseline: { name: 'one-row UPDATE transaction', value: raw },
  });
  await close(o);
}

async function sendBench(): Promise<void> {
  const o = await org();
  const userIds: number[] = [];
  for (let i = 0; i < 10; i++) userIds.push((await o.chat.admin.addUser({ email: `u${i}@example.com`, fullName: `User ${i}` })).user_id);
  o.chat.api.streams.subscribe(o.ownerId, { subscriptions: [{ name: 'bench' }], principals: userIds });
  const input = { type: 'stream' as const, to: 'bench', topic: 'release P3-42 #1234', content: message(1024) };
  const send = () => o.chat.api.messages.send(o.ownerId, input);
  const none = msPerCall(send, 300);
  addLinkifiers(o);
  const fifty = msPerCall(send, 300);
  record({
    group: 'linkifiers',
    name: `send a 1 KB message to 11 subscribers, ${LINKIFIERS} linkifiers (in-process)`,
    value: fifty,
    unit: 'ms',
    baseline: { name: 'the same send without linkifiers', value: none },
  });
  await close(o);
}

export async function run(): Promise<void> {
  renderBench();
  await addBench();
  await sendBench();
}
