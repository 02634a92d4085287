// Zulip's mention syntax as a markdown-it inline rule: @**Full Name**, @**Full Name|id**,
// @**|id**, silent @_**...**, wildcards @**all** / @**everyone** / @**channel** / @**stream**
// and @**topic**, and group mentions @*group* / @_*group*. Code spans and blocks are never
// scanned, as in Zulip. What was mentioned is collected in env.mentionResult.
import type { MarkdownIt, StateInline, Token } from 'markdown-it';

const STREAM_WILDCARDS: ReadonlySet<string> = new Set(['all', 'everyone', 'stream', 'channel']);
const TOPIC_WILDCARD = 'topic';

export interface MentionedUser {
  id: number;
  fullName: string;
}

export interface MentionLookup {
  /** Case-insensitive full-name match (Zulip's full_name__iexact). */
  userByName(name: string): MentionedUser | undefined;
  userById(id: number): MentionedUser | undefined;
  /** Case-insensitive group-name match. */
  groupByName(name: string): { id: number; name: string } | undefined;
}

export interface MentionResult {
  userIds: Set<number>;
  groupIds: Set<number>;
  streamWildcard: boolean;
  topicWildcard: boolean;
}

export interface MentionEnv {
  mentions?: MentionLookup;
  mentionResult?: MentionResult;
}

export function emptyMentionResult(): MentionResult {
  return { userIds: new Set(), groupIds: new Set(), streamWildcard: false, topicWildcard: false };
}

/** Zulip's BEFORE_MENTION_ALLOWED_REGEX: start of text, white space, or one of '"({[/<. */
const BEFORE = /[\s'"({[/<]/;

const USER_SYNTAX = /^@(_?)\*\*([^*]+)\*\*/;
const GROUP_SYNTAX = /^@(_?)\*([^*]+)\*/;
const NAME_WITH_ID = /^(.+)?\|(\d+)$/s;

/** Whether content may hold mention syntax at all (a cheap test before loading users). */
export function mayMention(content: string): { users: boolean; groups: boolean } {
  return { users: content.includes('@**') || content.includes('@_**'), groups: /@_?\*[^*]/.test(content) };
}

function resolveUser(lookup: MentionLookup | undefined, text: string): MentionedUser | undefined {
  if (!lookup) return undefined;
  const withId = NAME_WITH_ID.exec(text);
  if (withId) {
    const user = lookup.userById(Number(withId[2]));
    // @**name|id** must name that very user (Zulip compares the full name exactly).
    if (user && withId[1] !== undefined && user.fullName !== withId[1]) return undefined;
    return user;
  }
  return lookup.userByName(text);
}

function pushSpan(state: StateInline, className: string, attrs: [string, string][], text: string): void {
  const token: Token = state.push('mention', 'span', 0);
  token.attrs = [['class', className], ...attrs];
  token.content = text;
}

function mentionRule(state: StateInline, silent: boolean): boolean {
  const start = state.pos;
  if (state.src.charCodeAt(start) !== 0x40 /* @ */) return false;
  if (start > 0 && !BEFORE.test(state.src[start - 1]!)) return false;
  const rest = state.src.slice(start, state.posMax);
  const env = state.env as MentionEnv;
  const result = (env.mentionResult ??= emptyMentionResult());

  const user = USER_SYNTAX.exec(rest);
  if (user) {
    const isSilent = user[1] === '_';
    const text = user[2]!;
    const at = isSilent ? '' : '@';
    const silentClass = isSilent ? ' silent' : '';
    if (STREAM_WILDCARDS.has(text)) {
      if (!silent) {
        if (!isSilent) result.streamWildcard = true;
        pushSpan(state, `user-mention channel-wildcard-mention${silentClass}`, [['data-user-id', '*']], `${at}${text}`);
      }
    } else if (text === TOPIC_WILDCARD) {
      if (!silent) {
        if (!isSilent) result.topicWildcard = true;
        pushSpan(state, `topic-mention${silentClass}`, [], `${at}${text}`);
      }
    } else {
      const found = resolveUser(env.mentions, text);
      if (!found) return false;
      if (!silent) {
        if (!isSilent) result.userIds.add(found.id);
        pushSpan(state, `user-mention${silentClass}`, [['data-user-id', String(found.id)]], `${at}${found.fullName}`);
      }
    }
    state.pos += user[0].length;
    return true;
  }

  const group = GROUP_SYNTAX.exec(rest);
  if (group) {
    const found = env.mentions?.groupByName(group[2]!);
    if (!found) return false;
    const isSilent = group[1] === '_';
    if (!silent) {
      if (!isSilent) result.groupIds.add(found.id);
      pushSpan(state, `user-group-mention${isSilent ? ' silent' : ''}`, [['data-user-group-id', String(found.id)]], `${isSilent ? '' : '@'}${found.name}`);
    }
    state.pos += group[0].length;
    return true;
  }
  return false;
}

export function mentionPlugin(md: MarkdownIt): void {
  md.inline.ruler.after('text', 'zulip_mention', mentionRule);
  md.renderer.rules.mention = (tokens, idx) => {
    const token = tokens[idx]!;
    const attrs = (token.attrs ?? []).map(([name, value]) => ` ${name}="${md.utils.escapeHtml(String(value))}"`).join('');
    return `<span${attrs}>${md.utils.escapeHtml(token.content)}</span>`;
  };
}
