// Descriptions written in Markdown, as clients get them rendered: a channel's (Zulip's
// render_stream_description) and the organization's (get_realm_rendered_description).
import type { Ctx } from '../context.js';
import { renderMarkdown } from '../render/markdown.js';
import { markdownEmojiLookup } from './emoji.js';
import { imageProxySource } from './external_content.js';

/** The description's HTML; the empty description renders empty. */
export function renderDescription(ctx: Ctx, description: string): string {
  return description === '' ? '' : renderMarkdown({ content: description, imageProxy: imageProxySource(ctx), emoji: markdownEmojiLookup(ctx) }).html;
}
