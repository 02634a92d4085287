// Linkifiers in rendering (issue 7): compiled patterns, the markdown-it rule that turns matches in
// message text into links, and topic_links. Stubs until the linkifier issue fills them in.
import type { MarkdownIt } from 'markdown-it';
import type { Ctx } from '../context.js';

export interface CompiledLinkifier {
  id: number;
  pattern: string;
  urlTemplate: string;
}

export interface TopicLink {
  text: string;
  url: string;
}

/** The organization's linkifiers in processing order, compiled once per change. */
export function currentLinkifiers(_ctx: Ctx): readonly CompiledLinkifier[] {
  return [];
}

/** markdown-it plugin: links linkifier matches in text, reading `env.linkifiers`. */
export function linkifierPlugin(_md: MarkdownIt): void {}

/** Zulip's topic_links: linkifier matches in order of priority, then raw URLs, without overlaps. */
export function topicLinks(_topic: string, _linkifiers: readonly CompiledLinkifier[]): TopicLink[] {
  return [];
}
