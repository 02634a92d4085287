// Linkifiers in rendering: the boundary wrapper, URL expansion and
// escaping, order and atomic links in message text (markdown-it + linkifierPlugin), topic_links,
// hostile patterns, and the compiled-linkifier cache across changes and processes.
import { join } from 'node:path';
import t from 'tap';
import fc from 'fast-check';
import Database from 'better-sqlite3';
import markdownIt from 'markdown-it';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { compileLinkifier } from '../lib/render/linkifier_patterns.js';
import { linkifierPlugin } from '../lib/render/linkifiers.js';
import { currentLinkifiers } from '../lib/domain/message_render.js';
import type { CompiledLinkifier } from '../lib/render/linkifier_patterns.js';
import { topicLinks } from '../lib/render/topic_links.js';
import { startServer } from './helpers.js';
import { contextOf } from '../lib/context.js';

let nextId = 1;
const linkifier = (pattern: string, url_template: string): CompiledLinkifier => compileLinkifier({ id: nextId++, pattern, url_template });
const TICKET = linkifier('#(?P<id>[0-9]{2,8})', 'https://trac.example.com/ticket/{id}');

const md = markdownIt({ breaks: true, linkify: true }).use(linkifierPlugin);
const render = (content: string, linkifiers: readonly CompiledLinkifier[] = [TICKET]): string => md.render(content, { linkifiers }).trim();
const link = (id: string, text = `#${id}`) => `<a href="https://trac.example.com/ticket/${id}">${text}</a>`;

t.test('a match starts at the start, after white space, a separator or one of \'"(,:< and ends before a non-letter-or-digit', async (t) => {
  t.equal(render('Hello #123 World'), `<p>Hello ${link('123')} World</p>`);
  t.equal(render('Hello\u00a0#123\u00a0World'), `<p>Hello\u00a0${link('123')}\u00a0World</p>`, 'no-break spaces');
  t.equal(render('(#123)'), `<p>(${link('123')})</p>`);
  t.equal(render('#123>'), `<p>${link('123')}&gt;</p>`);
  t.equal(render('"#123"'), `<p>&quot;${link('123')}&quot;</p>`);
  t.equal(render('#123@'), `<p>${link('123')}@</p>`);
  t.equal(render('チケットは #123 です'), `<p>チケットは ${link('123')} です</p>`);
  t.equal(render(':#12,<#34'), `<p>:${link('12')},&lt;${link('34')}</p>`);
  t.equal(render("'#12 \u0085#34"), `<p>'${link('12')} \u0085${link('34')}</p>`, 'quote and NEL');
  t.equal(render('line one\n#12'), `<p>line one<br>\n${link('12')}</p>`, 'after a line break');
});

t.test('not linkified: inside a word, followed by a letter or digit, or after another character', async (t) => {
  for (const text of ['Hello#123 World', 'Hello #123World', ')#123(', '##123', 'チケットは#123です', '#1', '#123456789']) {
    t.equal(render(text), `<p>${md.utils.escapeHtml(text)}</p>`, text);
  }
});

t.test('the URL is the RFC 6570 expansion of the template with the named groups, escaped as Zulip does', async (t) => {
  const escaping = linkifier('url-(?P<id>[0-9]+)', 'https://example.com/A%20Test/%%%ba/{id}');
  t.equal(render('url-123', [escaping]), '<p><a href="https://example.com/A%20Test/%25%25%ba/123">url-123</a></p>');
  const levels = linkifier('(?P<org>[a-z]+)/(?P<repo>[a-z]+)#(?P<id>[0-9]+)', 'https://github.com/{org}/{repo}/issues/{id}{?org}');
  t.equal(render('see zulip/zulip#123.', [levels]), '<p>see <a href="https://github.com/zulip/zulip/issues/123?org=zulip">zulip/zulip#123</a>.</p>');
  const reserved = linkifier('doc:(?P<path>[a-z/]+)', 'https://docs/{+path}');
  const simple = linkifier('page:(?P<path>[a-z/]+)', 'https://docs/{path}');
  t.equal(render('doc:a/b page:a/b', [reserved, simple]), '<p><a href="https://docs/a/b">doc:a/b</a> <a href="https://docs/a%2Fb">page:a/b</a></p>');
  const unicode = linkifier('tag:(?P<tag>\\S+)', 'https://x/{tag}');
  t.equal(render('tag:é😀', [unicode]), '<p><a href="https://x/%C3%A9%F0%9F%98%80">tag:é😀</a></p>', 'UTF-8 percent-encoding, astral characters too');
  const optional = linkifier('T(?P<a>x)?(?P<b>[0-9]+)', 'https://t/{b}{?a}');
  t.equal(render('T12 Tx3', [optional]), '<p><a href="https://t/12">T12</a> <a href="https://t/3?a=x">Tx3</a></p>', 'a group that did not take part is left out');
});

t.test('code spans, code blocks and existing links are left alone', async (t) => {
  t.equal(render('`#123` #45'), `<p><code>#123</code> ${link('45')}</p>`);
  t.equal(render('```\n#123\n```'), '<pre><code>#123\n</code></pre>');
  t.equal(render('    #123'), '<pre><code>#123\n</code></pre>');
  t.equal(render('[trac #15](https://example.com/x) #16'), `<p><a href="https://example.com/x">trac #15</a> ${link('16')}</p>`);
  t.equal(render('https://example.com/#123'), '<p><a href="https://example.com/#123">https://example.com/#123</a></p>', 'a bare URL is a link already');
});

t.test('markup around a match counts as a non-boundary character, as in Zulip (linkifiers run before emphasis)', async (t) => {
  t.equal(render('*#123*'), '<p><em>#123</em></p>');
  t.equal(render('**bold** #12 and *#34 x*'), `<p><strong>bold</strong> ${link('12')} and <em>#34 x</em></p>`);
  t.equal(render('*x* #12'), `<p><em>x</em> ${link('12')}</p>`);
  t.equal(render('- #12\n> #34'), `<ul>\n<li>${link('12')}</li>\n</ul>\n<blockquote>\n<p>${link('34')}</p>\n</blockquote>`);
});

t.test('a match that would run across code or a link is not linked', async (t) => {
  const across = linkifier('(?P<x>a.b)', 'https://x/{x}');
  t.equal(render('a`x`b', [across]), '<p>a<code>x</code>b</p>');
  t.equal(render('a-b', [across]), '<p><a href="https://x/a-b">a-b</a></p>');
});

t.test('after a link the next match needs its own boundary: #123#456 links once, #123,#456 twice', async (t) => {
  t.equal(render('#123#456'), `<p>${link('123')}#456</p>`);
  t.equal(render('#123,#456 #78'), `<p>${link('123')},${link('456')} ${link('78')}</p>`);
});

t.test('linkifiers apply in their order, and text one linked is never linked again', async (t) => {
  const abc = linkifier('ABC-(?P<id>[0-9]+)', 'https://a/{id}');
  const any = linkifier('(?P<p>[A-Z]+)-(?P<id>[0-9]+)', 'https://b/{p}/{id}');
  t.equal(render('ABC-123 XYZ-9', [abc, any]), '<p><a href="https://a/123">ABC-123</a> <a href="https://b/XYZ/9">XYZ-9</a></p>');
  t.equal(render('ABC-123 XYZ-9', [any, abc]), '<p><a href="https://b/ABC/123">ABC-123</a> <a href="https://b/XYZ/9">XYZ-9</a></p>');
  const wide = linkifier('see #(?P<id>[0-9]+)', 'https://w/{id}');
  t.equal(render('see #123', [TICKET, wide]), `<p>see ${link('123')}</p>`, 'the later, wider match would take linked text: not linked');
  t.equal(render('see #123', [wide, TICKET]), '<p><a href="https://w/123">see #123</a></p>', 'the first linkifier wins');
});

t.test('a linkifier whose URL would be a script is not linked; an invalid stored pattern never matches', async (t) => {
  const script = linkifier('#(?P<id>[0-9]+)', 'javascript:alert({id})');
  t.equal(render('#12', [script]), '<p>#12</p>');
  const broken = linkifier('(foo', 'https://x/');
  t.equal(broken.regex, null);
  t.equal(render('(foo #12', [broken, TICKET]), `<p>(foo ${link('12')}</p>`);
  t.same(topicLinks('(foo #12', [broken, script]), []);
});

t.test('a pattern that backtracks catastrophically in JavaScript renders at once with RE2 (linear time)', async (t) => {
  const hostile = linkifier('(?P<id>(a+)+$)', 'https://x/{id}');
  const long = 'a'.repeat(30_000);
  t.equal(render(`${long}!`, [hostile]), `<p>${long}!</p>`, 'no match, and no hang');
  t.equal(render(long, [hostile]), `<p><a href="https://x/${long}">${long}</a></p>`, 'the match when there is one');
  t.same(topicLinks(`${'a'.repeat(5000)}!`, [hostile]), []);
});

t.test('with many linkifiers (the RE2.Set prefilter) the result is the same as searching each one', async (t) => {
  const real = [TICKET, linkifier('ABC-(?P<id>[0-9]+)', 'https://a/{id}'), linkifier('(?P<p>[A-Z]+)-(?P<id>[0-9]+)', 'https://b/{p}/{id}')];
  const fillers = Array.from({ length: 12 }, (_, i) => linkifier(`QQ${i}-(?P<id>[0-9]+)`, `https://q${i}/{id}`));
  const many = [...real, ...fillers];
  const mixed = [fillers[0]!, real[0]!, fillers[1]!, real[1]!, fillers[2]!, real[2]!];
  const fragment = fc.constantFrom('#12', '#345', 'ABC-7', 'XY-9', ' ', '\n', '*', '**', '`', 'x', '(', ')', ',', '[a](https://e.com/#99)', 'https://e.com/ABC-1', ' ', 'é', '😀');
  fc.assert(
    fc.property(fc.array(fragment, { maxLength: 30 }), (parts) => {
      const text = parts.join('');
      const expected = render(text, real);
      return render(text, many) === expected && render(text, mixed) === expected && JSON.stringify(topicLinks(text, many)) === JSON.stringify(topicLinks(text, real));
    }),
    { numRuns: 400 },
  );
  t.equal(render('ABC-1 XY-2 #34 QQ3-4', many), '<p><a href="https://a/1">ABC-1</a> <a href="https://b/XY/2">XY-2</a> <a href="https://trac.example.com/ticket/34">#34</a> <a href="https://q3/4">QQ3-4</a></p>');
});

t.test('without linkifiers in env the text is unchanged', async (t) => {
  t.equal(md.render('#123', {}).trim(), '<p>#123</p>');
  t.equal(md.render('#123').trim(), '<p>#123</p>');
});

t.test('topic_links: linkifier matches, then raw URLs, in text order', async (t) => {
  t.same(topicLinks('#444 https://google.com', [TICKET]), [
    { text: '#444', url: 'https://trac.example.com/ticket/444' },
    { text: 'https://google.com', url: 'https://google.com' },
  ]);
  t.same(topicLinks('#111 x #222 #111', [TICKET]).map((l) => l.text), ['#111', '#222', '#111'], 'repeated tokens each give an entry');
  t.same(topicLinks('google.com and www.x.org/a?b', []), [
    { text: 'google.com', url: 'https://google.com' },
    { text: 'www.x.org/a?b', url: 'https://www.x.org/a?b' },
  ], 'https:// is added when there is no scheme');
  t.same(topicLinks('(https://x.com) a@b.com', []), [], 'a URL must start a piece; e-mail addresses are not links');
  t.same(topicLinks('plain topic', [TICKET]), []);
});

t.test('topic_links: a match may start with the delimiter the previous one ended on', async (t) => {
  const hello = linkifier('hello#(?P<id>[0-9]+)', 'https://hello/{id}');
  t.same(topicLinks('hello#123 #234', [TICKET, hello]), [
    { text: 'hello#123', url: 'https://hello/123' },
    { text: '#234', url: 'https://trac.example.com/ticket/234' },
  ]);
  t.same(topicLinks('#12 #34', [TICKET]).map((l) => l.text), ['#12', '#34']);
});

t.test('topic_links: overlapping matches go to the earlier linkifier; any linkifier match beats a raw URL', async (t) => {
  const first = linkifier('ABC-(?P<id>[0-9]+)', 'https://first/{id}');
  const second = linkifier('(?P<p>[A-Z]+)-(?P<id>[0-9]+)', 'https://second/{p}/{id}');
  t.same(topicLinks('ABC-123', [first, second]), [{ text: 'ABC-123', url: 'https://first/123' }]);
  t.same(topicLinks('ABC-123', [second, first]), [{ text: 'ABC-123', url: 'https://second/ABC/123' }]);
  const com = linkifier('com.+(?P<id>ABC\\-[0-9]+)', 'https://trac.example.com/ticket/{id}');
  t.same(topicLinks('https://foo.com/ABC-123', [com]), [{ text: 'https://foo.com/ABC-123', url: 'https://foo.com/ABC-123' }], '"com" after "." is no boundary');
  t.same(topicLinks('com https://foo.com/ABC-123', [com]), [{ text: 'com https://foo.com/ABC-123', url: 'https://trac.example.com/ticket/ABC-123' }]);
});

t.test('currentLinkifiers compiles the organization\'s linkifiers in order and reloads after every change', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const ctx = contextOf(s.chat);
  t.same(currentLinkifiers(ctx), []);
  const api = s.chat.api.linkifiers;
  const a = api.add(s.owner.user_id, { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://a/{id}' }).id;
  const b = api.add(s.owner.user_id, { pattern: 'B-(?P<id>[0-9]+)', urlTemplate: 'https://b/{id}' }).id;
  const first = currentLinkifiers(ctx);
  t.same(first.map((l) => l.id), [a, b]);
  t.equal(currentLinkifiers(ctx), first, 'unchanged: the same compiled list');
  api.reorder(s.owner.user_id, { orderedLinkifierIds: [b, a] });
  const reordered = currentLinkifiers(ctx);
  t.same(reordered.map((l) => l.id), [b, a]);
  t.equal(reordered[1], first[0], 'an unchanged linkifier keeps its compiled pattern');
  api.update(s.owner.user_id, { filterId: a, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://a2/{id}' });
  t.equal(currentLinkifiers(ctx)[1]!.url({ id: '1' }), 'https://a2/1');
  api.remove(s.owner.user_id, { filterId: b });
  t.same(currentLinkifiers(ctx).map((l) => l.id), [a]);

  // Another process on the same file.
  const db2 = new Database(join(s.dir, 'chat.db'));
  const other = createChatServer(db2, { logger: silentLogger });
  t.teardown(async () => {
    await other.close();
    db2.close();
  });
  other.api.linkifiers.add(s.owner.user_id, { pattern: 'C-(?P<id>[0-9]+)', urlTemplate: 'https://c/{id}' });
  t.same(currentLinkifiers(ctx).map((l) => l.pattern), ['#(?P<id>[0-9]+)', 'C-(?P<id>[0-9]+)'], 'a change by another process is seen');
  t.same(currentLinkifiers(contextOf(other)).map((l) => l.pattern), ['#(?P<id>[0-9]+)', 'C-(?P<id>[0-9]+)']);
});
