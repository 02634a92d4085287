// Message rendering: Zulip-flavoured Markdown basics with markdown-it (paragraphs with hard line
// breaks, emphasis, strikethrough, code spans and blocks, quotes and spoilers, lists, links and bare URLs),
// mentions (lib/render/mentions.ts), linkifiers (lib/render/linkifiers.ts) and `:emoji:` (lib/render/emoji_markdown.ts). Raw HTML is escaped.
// Images from other hosts go through the image proxy or become links (lib/render/image_proxy.ts).
import markdownIt, { type MarkdownIt } from 'markdown-it';
import { emojiPlugin, type EmojiLookup } from './emoji_markdown.js';
import { classifyImageSource } from './image_proxy.js';
import { linkifierPlugin } from './linkifiers.js';
import type { CompiledLinkifier } from './linkifier_patterns.js';
import { emptyMentionResult, mentionPlugin, type MentionLookup, type MentionResult } from './mentions.js';

function createRenderer(): MarkdownIt {
  const md = markdownIt({ html: false, breaks: true, linkify: true, typographer: false });
  md.use(mentionPlugin);
  md.use(linkifierPlugin);
  md.use(emojiPlugin);
  const escape = md.utils.escapeHtml;
  // Zulip's code blocks: <div class="codehilite"><pre><span></span><code>...</code></pre></div>.
  // Two fences hold Markdown instead (https://zulip.com/help/format-a-quote,
  // https://zulip.com/help/spoilers): ```quote is a blockquote, ```spoiler [header] a spoiler block.
  md.renderer.rules.fence = (tokens, idx, _options, env) => {
    const token = tokens[idx]!;
    const info = token.info.trim();
    const language = info.split(/\s+/)[0] ?? '';
    const kind = language.toLowerCase();
    if (kind === 'quote') return `<blockquote>\n${md.render(token.content, env)}</blockquote>\n`;
    if (kind === 'spoiler') {
      const header = md.render(info.slice(language.length).trim(), env);
      const content = md.render(token.content, env);
      return `<div class="spoiler-block"><div class="spoiler-header">\n${header}</div><div class="spoiler-content" aria-hidden="true">\n${content}</div></div>\n`;
    }
    const attr = language ? ` data-code-language="${escape(language)}"` : '';
    return `<div class="codehilite"${attr}><pre><span></span><code>${escape(token.content)}</code></pre></div>\n`;
  };
  md.renderer.rules.code_block = (tokens, idx) =>
    `<div class="codehilite"><pre><span></span><code>${escape(tokens[idx]!.content)}</code></pre></div>\n`;
  // Zulip renders ~~text~~ as <del>.
  md.renderer.rules.s_open = () => '<del>';
  md.renderer.rules.s_close = () => '</del>';
  // A reader's client fetches every <img>: one pointing at another host would tell that host who
  // reads the message (a tracking pixel). Such images load through the image proxy, or are links.
  md.renderer.rules.image = (tokens, idx, options, env, self) => {
    const token = tokens[idx]!;
    const src = String(token.attrGet('src') ?? '');
    const alt = self.renderInlineAsText(token.children ?? [], options, env);
    const title = token.attrGet('title');
    const titleAttr = title ? ` title="${escape(String(title))}"` : '';
    const source = classifyImageSource(src);
    const proxied = source.kind === 'http' ? (env as RenderEnv | undefined)?.imageProxy?.(source.url) : undefined;
    if (source.kind === 'local' || proxied !== undefined) {
      return `<img src="${escape(proxied ?? src)}" alt="${escape(alt)}"${titleAttr}>`;
    }
    return `<a href="${escape(src)}"${titleAttr}>${escape(alt === '' ? src : alt)}</a>`;
  };
  return md;
}

const renderer = createRenderer();

export interface RenderInput {
  content: string;
  mentions?: MentionLookup | undefined;
  linkifiers?: readonly CompiledLinkifier[] | undefined;
  /** `:name:` emoji: the Unicode code of a name; without it, the syntax stays text. */
  emoji?: EmojiLookup | undefined;
  /** The proxied source of an external image (an absolute http(s) URL); without it, or when it gives undefined, the image is a link. */
  imageProxy?: ((url: string) => string | undefined) | undefined;
}

interface RenderEnv {
  imageProxy?: ((url: string) => string | undefined) | undefined;
}

export interface Rendered {
  html: string;
  mentions: MentionResult;
}

/** Renders Markdown to Zulip-style HTML and reports what it mentioned. */
export function renderMarkdown(input: RenderInput): Rendered {
  const env = {
    mentions: input.mentions,
    linkifiers: input.linkifiers ?? [],
    mentionResult: emptyMentionResult(),
    imageProxy: input.imageProxy,
    emoji: input.emoji,
  };
  const html = renderer.render(input.content, env).replace(/\n$/, '');
  return { html, mentions: env.mentionResult };
}

/** Zulip's is_me_message: a /me status message. */
export function isMeMessage(content: string): boolean {
  return content.startsWith('/me ');
}
