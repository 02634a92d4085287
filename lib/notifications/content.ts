// A message's rendered HTML as a notification's plain text: Zulip's get_mobile_push_content and
// truncate_content, over parley's own renderer's HTML read into lxml's model.

/**
 * parley's HTML (lib/render/markdown.ts) is well-formed, its attributes double-quoted, and only
 * &amp; &lt; &gt; &quot; and numeric references escaped in it. As in lxml, an element's text is
 * what comes before its first child, and each child's tail what comes after it.
 */
interface Element {
  tag: string;
  attrs: Map<string, string>;
  children: Element[];
  text: string;
  tail: string;
  parent: Element | undefined;
}

const VOID = new Set(['area', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s"'>/=]+(?:\s*=\s*"[^"]*")?)*)\s*\/?>/g;
const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*"([^"]*)")?/g;

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39|#(\d+)|#x([0-9a-fA-F]+));/g, (_, name: string, dec?: string, hex?: string) => {
    if (dec !== undefined) return String.fromCodePoint(Number(dec));
    if (hex !== undefined) return String.fromCodePoint(parseInt(hex, 16));
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" } as Record<string, string>)[name]!;
  });
}

function element(tag: string, attrs: Map<string, string>, parent: Element | undefined): Element {
  return { tag, attrs, children: [], text: '', tail: '', parent };
}

/** lxml's fragment_fromstring(html, create_parent=True). */
function parse(html: string): Element {
  const root = element('div', new Map(), undefined);
  let current = root;
  let last: Element | undefined;
  let at = 0;
  const addText = (text: string) => {
    if (text === '') return;
    if (last) last.tail += decode(text);
    else current.text += decode(text);
  };
  for (const match of html.matchAll(TAG)) {
    addText(html.slice(at, match.index));
    at = match.index + match[0].length;
    const [, closing, rawTag, rawAttrs] = match;
    const tag = rawTag!.toLowerCase();
    if (closing) {
      // Close up to the matching open element (parley's HTML always has one).
      for (let open: Element | undefined = current; open && open !== root; open = open.parent) {
        if (open.tag !== tag) continue;
        last = open;
        current = open.parent!;
        break;
      }
      continue;
    }
    const attrs = new Map<string, string>();
    for (const [, name, value] of rawAttrs!.matchAll(ATTRIBUTE)) attrs.set(name!.toLowerCase(), decode(value ?? ''));
    const child = element(tag, attrs, current);
    current.children.push(child);
    if (VOID.has(tag)) last = child;
    else {
      current = child;
      last = undefined;
    }
  }
  addText(html.slice(at));
  return root;
}

const hasClass = (e: Element, name: string): boolean => (e.attrs.get('class') ?? '').split(/\s+/).includes(name);

function textContent(e: Element): string {
  return e.text + e.children.map((child) => textContent(child) + child.tail).join('');
}

function descendants(e: Element): Element[] {
  return e.children.flatMap((child) => [child, ...descendants(child)]);
}

/** Zulip's get_text: an emoji as its characters, an image as its alt text, a quote's own text dropped. */
function ownText(e: Element): string {
  const emoji = /(?:^|\s)emoji-(\S+)/.exec(e.attrs.get('class') ?? '');
  if (hasClass(e, 'emoji') && emoji) return emoji[1]!.split('-').map((hex) => String.fromCodePoint(parseInt(hex, 16))).join('');
  if (e.tag === 'img') return e.attrs.get('alt') ?? '';
  if (e.tag === 'blockquote') return '';
  return e.text;
}

function renderOrderedList(ol: Element): string {
  let counter = Number(ol.attrs.get('start') ?? 1) || 1;
  let depth = 0;
  for (let up = ol.parent; up; up = up.parent) if (up.tag === 'ol') depth += 1;
  const indent = depth > 0 ? '\n' + '  '.repeat(depth) : '';
  // markdown-it breaks the line before a nested list where Zulip's renderer does not: no blank line.
  return ol.children.map((li) => `${indent}${counter++}. ${process(li).trim().replace(/\n\s*\n/g, '\n')}`).join('\n');
}

function renderSpoiler(block: Element): string {
  const header = descendants(block).find((e) => hasClass(e, 'spoiler-header'));
  const text = header ? process(header).trim() : '';
  return text === '' ? '(…)\n' : `${text} (…)\n`;
}

function process(e: Element): string {
  if (e.tag === 'ol') return renderOrderedList(e);
  if (hasClass(e, 'spoiler-block')) return renderSpoiler(e);
  let sub = e.children.map((child) => process(child) + child.tail).join('');
  if (e.tag === 'blockquote') sub = sub.split(/\r?\n/).filter((line) => line !== '').map((line) => `> ${line}\n`).join('');
  return ownText(e) + sub;
}

/** A link to a message of this organization (#narrow/.../near/<id>, as Zulip's is_same_server_message_link). */
function isMessageLink(href: string, realmUrl: string): boolean {
  const local = href.startsWith('#') || href.startsWith('/#') || href.startsWith(`${realmUrl.replace(/\/+$/, '')}/#`);
  return local && /#narrow\/.*\/near\/\d+/.test(href);
}

/** Zulip's is_user_said_paragraph: "@user said:" before a quote. */
function isUserSaidParagraph(e: Element, realmUrl: string): boolean {
  const inside = descendants(e);
  const mentions = inside.filter((d) => hasClass(d, 'user-mention'));
  const links = inside.filter((d) => d.tag === 'a' && isMessageLink(d.attrs.get('href') ?? '', realmUrl));
  if (mentions.length !== 1 || links.length !== 1) return false;
  const rest = textContent(e).replace(textContent(mentions[0]!), '').replace(textContent(links[0]!), '');
  return rest.trim() === ':';
}

/** Zulip's potentially_collapse_quotes: quotes (and their "said:" lines) next to new text become one "[…]". */
function collapseQuotes(root: Element, realmUrl: string): void {
  const collapsible = root.children.map((child) => child.tag === 'blockquote' || isUserSaidParagraph(child, realmUrl));
  if (collapsible.every(Boolean) || !collapsible.some(Boolean)) return;
  const kept: Element[] = [];
  root.children.forEach((child, i) => {
    if (!collapsible[i]) kept.push(child);
    else if (i === 0 || !collapsible[i - 1]) kept.push({ ...element('p', new Map(), root), text: '[…]', tail: child.tail });
  });
  root.children = kept;
}

/** Zulip's get_mobile_push_content: the plain text a phone shows for a message. */
export function notificationText(renderedContent: string, realmUrl: string): string {
  const root = parse(renderedContent);
  collapseQuotes(root, realmUrl);
  return process(root);
}

/** Zulip's truncate_content: 200 characters at most, then an ellipsis. */
export function truncateContent(content: string): string {
  const characters = [...content];
  return characters.length <= 200 ? content : characters.slice(0, 200).join('') + '…';
}
