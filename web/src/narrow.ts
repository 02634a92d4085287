// Where the user is: the URL's hash says it (#channel/5/topic/lunch, #dm/3,7, #unread,
// #search/..., #settings/profile, ...), so back/forward, reloads and links work without framework
// state. Also: which messages a view shows.
import type { Narrow } from './requests/messages.js';
import { parseSearchQuery } from './search_syntax.js';

export type View =
  | { kind: 'channel'; streamId: number; topic?: string }
  | { kind: 'dm'; userIds: number[] }
  | { kind: 'unread' | 'mentions' | 'starred' | 'all' }
  | { kind: 'search'; query: string }
  | { kind: 'drafts' | 'recent' | 'inbox' | 'followed' }
  /** Pages with sections: the channel browser (all, new, or a channel's id), settings, administration. */
  | { kind: 'channels' | 'settings' | 'organization'; section: string };

const SIMPLE = ['unread', 'mentions', 'starred', 'all', 'drafts', 'recent', 'inbox', 'followed'] as const;
const PAGES = { channels: 'all', settings: 'profile', organization: 'users' } as const;

export function parseHash(hash: string): View {
  const parts = hash.replace(/^#\/?/, '').split('/').map((p) => {
    try {
      return decodeURIComponent(p);
    } catch {
      return p;
    }
  });
  const [head, a, b, c] = parts;
  if (head === 'channel' && /^\d+$/.test(a ?? '')) {
    return b === 'topic' && c !== undefined ? { kind: 'channel', streamId: Number(a), topic: c } : { kind: 'channel', streamId: Number(a) };
  }
  if (head === 'dm' && a) return { kind: 'dm', userIds: a.split(',').map(Number).filter((n) => n > 0).sort((x, y) => x - y) };
  if (head === 'search' && a) return { kind: 'search', query: a };
  if (head === 'channels' || head === 'settings' || head === 'organization') return { kind: head, section: a || PAGES[head] };
  const simple = SIMPLE.find((k) => k === head);
  return { kind: simple ?? 'unread' };
}

export function viewHash(view: View): string {
  switch (view.kind) {
    case 'channel':
      return `#channel/${view.streamId}` + (view.topic === undefined ? '' : `/topic/${encodeURIComponent(view.topic)}`);
    case 'dm':
      return `#dm/${view.userIds.join(',')}`;
    case 'search':
      return `#search/${encodeURIComponent(view.query)}`;
    case 'channels':
    case 'settings':
    case 'organization':
      return `#${view.kind}/${encodeURIComponent(view.section)}`;
    default:
      return `#${view.kind}`;
  }
}

/** The `narrow` parameter of GET /messages for a message view. */
export function apiNarrow(view: View, myId: number, channelId: (name: string) => number | undefined = () => undefined): Narrow {
  switch (view.kind) {
    case 'channel':
      return [{ operator: 'channel', operand: view.streamId }, ...(view.topic === undefined ? [] : [{ operator: 'topic', operand: view.topic }])];
    case 'dm':
      return [{ operator: 'dm', operand: view.userIds.filter((id) => id !== myId).length === 0 ? [myId] : view.userIds.filter((id) => id !== myId) }];
    case 'unread':
      return [{ operator: 'is', operand: 'unread' }];
    case 'mentions':
      return [{ operator: 'is', operand: 'mentioned' }];
    case 'starred':
      return [{ operator: 'is', operand: 'starred' }];
    case 'search':
      return parseSearchQuery(view.query, channelId);
    default:
      return [];
  }
}

export interface MessageLike {
  id: number;
  type: 'stream' | 'private';
  stream_id?: number | undefined;
  subject: string;
  display_recipient: string | { id: number }[];
  flags: string[];
}

/** The user ids of a direct message conversation, the signed-in user included, sorted. */
export function dmUserIds(message: MessageLike): number[] {
  return Array.isArray(message.display_recipient) ? message.display_recipient.map((r) => r.id).sort((a, b) => a - b) : [];
}

/** Whether a message (new, from an event) belongs in the view. */
export function inView(view: View, message: MessageLike, myId: number): boolean {
  switch (view.kind) {
    case 'channel':
      return message.stream_id === view.streamId && (view.topic === undefined || message.subject.toLowerCase() === view.topic.toLowerCase());
    case 'dm': {
      const ids = dmUserIds(message);
      const want = view.userIds.includes(myId) ? view.userIds : [...view.userIds, myId].sort((a, b) => a - b);
      return message.type === 'private' && ids.join() === want.join();
    }
    case 'unread':
      return !message.flags.includes('read');
    case 'mentions':
      return message.flags.some((f) => f === 'mentioned' || f === 'wildcard_mentioned');
    case 'starred':
      return message.flags.includes('starred');
    case 'all':
      return true;
    default:
      return false;
  }
}

/** Views whose request needs the registered state (the user's id, channel names, all messages). */
export const needsState = (view: View): boolean => view.kind === 'dm' || view.kind === 'search' || view.kind === 'recent';

/** Messages fetched at a time. */
export const PAGE = 50;

/**
 * Messages on each side of the anchor when a view opens: a few screens' worth, so that the view is
 * painted sooner; scrolling near either end fetches PAGE more (MessageList).
 */
export const FIRST_PAGE = 15;

/** The first page of a message view: a conversation opens at its first unread message, others at the newest. */
export function firstPage(view: View): { anchor: string; num_before: number; num_after: number } {
  const anchor = view.kind === 'channel' || view.kind === 'dm' ? 'first_unread' : 'newest';
  // A view opened at the newest has nothing after it: the page is all before, as many as a
  // conversation's first page has on both sides.
  return { anchor, num_before: anchor === 'newest' ? 2 * FIRST_PAGE : FIRST_PAGE, num_after: view.kind === 'search' ? 0 : FIRST_PAGE };
}

export const isMessageView = (view: View): boolean =>
  view.kind === 'channel' || view.kind === 'dm' || view.kind === 'unread' || view.kind === 'mentions' || view.kind === 'starred' || view.kind === 'all' || view.kind === 'search';
