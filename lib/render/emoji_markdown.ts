// Zulip's `:name:` emoji syntax as a markdown-it inline rule (Zulip's Emoji pattern,
// `:[\w\-\+]+:`): a Unicode emoji name (Zulip's names and aliases) becomes Zulip's
// <span class="emoji emoji-<code>">, keeping the syntax as its text; any other name stays text.
import type { MarkdownIt, StateInline } from 'markdown-it';

/** The Unicode emoji code of a name, or undefined. */
export type EmojiLookup = (name: string) => string | undefined;

export interface EmojiEnv {
  emoji?: EmojiLookup | undefined;
}

const EMOJI = /^:([\p{L}\p{N}_\-+]+):/u;

function emojiRule(state: StateInline, silent: boolean): boolean {
  if (state.src.charCodeAt(state.pos) !== 0x3a) return false;
  const lookup = (state.env as EmojiEnv).emoji;
  if (!lookup) return false;
  const match = EMOJI.exec(state.src.slice(state.pos, state.pos + 100));
  const code = match ? lookup(match[1]!) : undefined;
  if (!match || code === undefined) return false;
  if (!silent) {
    const token = state.push('zulip_emoji', 'span', 0);
    token.content = match[0];
    token.meta = { code };
  }
  state.pos += match[0].length;
  return true;
}

export function emojiPlugin(md: MarkdownIt): void {
  md.inline.ruler.after('text', 'zulip_emoji', emojiRule);
  md.renderer.rules.zulip_emoji = (tokens, idx) => {
    const token = tokens[idx]!;
    const escape = md.utils.escapeHtml;
    // Zulip's make_emoji: the name with spaces for underscores as title and label.
    const title = escape(token.content.slice(1, -1).replaceAll('_', ' '));
    const code = escape((token.meta as { code: string }).code);
    return `<span aria-label="${title}" class="emoji emoji-${code}" role="img" title="${title}">${escape(token.content)}</span>`;
  };
}
