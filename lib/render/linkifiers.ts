// Linkifiers in rendering: the markdown-it rule that links the matches of the organization's
// compiled linkifiers in message text (topic_links are in lib/render/topic_links.ts; the compiled
// linkifiers are kept by lib/domain/message_render.ts).
import type { MarkdownIt, StateCore, Token } from 'markdown-it';
import { linkifiersThatMayMatch, searchLinkifier, type CompiledLinkifier } from './linkifier_patterns.js';

/**
 * markdown-it plugin: links the matches of `env.linkifiers` (in their order) in text outside
 * links and code. Runs after markdown-it's own rules, so existing links (and linkify's URLs) are
 * left alone, like the text an earlier linkifier already linked.
 */
export function linkifierPlugin(md: MarkdownIt): void {
  const rule = (state: StateCore): void => {
    const linkifiers = (state.env as { linkifiers?: readonly CompiledLinkifier[] } | undefined)?.linkifiers;
    if (!linkifiers || linkifiers.length === 0) return;
    for (const token of state.tokens) {
      if (token.type === 'inline' && token.children) {
        token.children = linkifyInline(token.children, linkifiers, md, state.Token);
      }
    }
  };
  try {
    md.core.ruler.after('text_join', 'linkifiers', rule);
  } catch {
    md.core.ruler.push('linkifiers', rule);
  }
}

// What the linkifier patterns see of an inline run: text as it is, line breaks as '\n', and
// everything else (a link with its content, code, an image, a mention...) as one placeholder
// character. Zulip's Markdown works the same way: earlier inline patterns leave placeholders in
// the text, which are neither white space nor a letter or digit.
const PLACEHOLDER = '\u0003';

interface TextView {
  text: string;
  /** Text tokens outside links, in order: their index in the children and where they start in `text`. */
  segments: { child: number; start: number; end: number }[];
}

function viewOf(children: readonly Token[]): TextView {
  let text = '';
  const segments: TextView['segments'] = [];
  let linkDepth = 0;
  for (let i = 0; i < children.length; i++) {
    const token = children[i]!;
    if (token.type === 'link_open') {
      if (linkDepth++ === 0) text += PLACEHOLDER;
    } else if (token.type === 'link_close') {
      linkDepth = Math.max(0, linkDepth - 1);
    } else if (linkDepth > 0) {
      continue;
    } else if (token.type === 'text') {
      segments.push({ child: i, start: text.length, end: text.length + token.content.length });
      text += token.content;
    } else if (token.type === 'softbreak' || token.type === 'hardbreak') {
      text += '\n';
    } else {
      text += PLACEHOLDER;
    }
  }
  return { text, segments };
}

interface Found {
  child: number;
  /** Offsets inside the text token's content. */
  start: number;
  end: number;
  url: string;
}

type TokenClass = StateCore['Token'];

function linkifyInline(children: Token[], linkifiers: readonly CompiledLinkifier[], md: MarkdownIt, TokenCtor: TokenClass): Token[] {
  let tokens = children;
  let view = viewOf(tokens);
  if (view.segments.length === 0) return tokens;
  let queue = linkifiersThatMayMatch(linkifiers, view.text);
  while (queue.length > 0) {
    const index = queue.shift()!;
    const found = findInView(linkifiers[index]!, view, md);
    if (found.length === 0) continue;
    tokens = splitTokens(tokens, found, TokenCtor);
    view = viewOf(tokens);
    // The new links are placeholders now: ask again for the linkifiers after this one.
    queue = linkifiersThatMayMatch(linkifiers, view.text).filter((later) => later > index);
  }
  return tokens;
}

function findInView(linkifier: CompiledLinkifier, view: TextView, md: MarkdownIt): Found[] {
  const found: Found[] = [];
  let segment = 0;
  let from = 0;
  for (;;) {
    const match = searchLinkifier(linkifier, view.text, from);
    if (match === null) return found;
    // Zulip's next search starts after the link it just made, whose placeholder is not a boundary.
    from = match.end > match.index ? match.end : match.index + 1;
    if (match.end === match.start) continue;
    while (segment < view.segments.length && view.segments[segment]!.end < match.start) segment++;
    const seg = view.segments[segment];
    if (seg === undefined || match.start < seg.start || match.end > seg.end) {
      // The match runs across a placeholder: not text that can be linked. Try further on.
      from = match.index + 1;
      continue;
    }
    const url = linkifier.url(match.groups);
    if (url === null || !md.validateLink(url)) continue;
    found.push({ child: seg.child, start: match.start - seg.start, end: match.end - seg.start, url });
  }
}

function splitTokens(children: Token[], found: readonly Found[], TokenCtor: TokenClass): Token[] {
  const out: Token[] = [];
  let next = 0;
  for (let i = 0; i < children.length; i++) {
    const token = children[i]!;
    if (next >= found.length || found[next]!.child !== i) {
      out.push(token);
      continue;
    }
    let position = 0;
    const text = token.content;
    const addText = (content: string, level: number): void => {
      if (content === '') return;
      const piece = new TokenCtor('text', '', 0);
      piece.content = content;
      piece.level = level;
      out.push(piece);
    };
    while (next < found.length && found[next]!.child === i) {
      const { start, end, url } = found[next++]!;
      addText(text.slice(position, start), token.level);
      const open = new TokenCtor('link_open', 'a', 1);
      open.attrs = [['href', url]];
      open.markup = 'linkifier';
      open.info = 'auto';
      open.level = token.level;
      out.push(open);
      addText(text.slice(start, end), token.level + 1);
      const close = new TokenCtor('link_close', 'a', -1);
      close.markup = 'linkifier';
      close.info = 'auto';
      close.level = token.level;
      out.push(close);
      position = end;
    }
    addText(text.slice(position), token.level);
  }
  return out;
}
