// The client's copy of the server's state: filled from POST /register, kept current by events
// (events.ts), read by components through useStore(). One object, one change counter.
import { useEffect, useState } from 'preact/hooks';
import { dmUserIds, type MessageLike } from './narrow.js';

export interface User { user_id: number; full_name: string; email: string; is_bot?: boolean; is_active?: boolean; role?: number }
export interface Sub { stream_id: number; name: string; color?: string; pin_to_top?: boolean }
export interface Reaction { emoji_name: string; emoji_code: string; reaction_type: string; user_id: number }
export interface Message extends MessageLike {
  sender_id: number;
  sender_full_name: string;
  content: string;
  timestamp: number;
  reactions: Reaction[];
  last_edit_timestamp?: number;
}
export interface Draft { id: number; type: 'stream' | 'private' | ''; to: number[]; topic: string; content: string; timestamp: number }
/** Where an unread message is, for the counts. */
export type UnreadPlace = { streamId: number; topic: string } | { dm: string };
export type Connection = 'live' | 'reconnecting' | 'offline';

export class State {
  version = 0;
  connection: Connection = 'live';
  me = { user_id: 0, email: '', full_name: '', is_admin: false };
  realm = { name: '', icon: '' };
  users = new Map<number, User>();
  subs = new Map<number, Sub>();
  unread = new Map<number, UnreadPlace>();
  mentions = new Set<number>();
  starred = new Set<number>();
  topics = new Map<number, { name: string; max_id: number }[]>();
  drafts = new Map<number, Draft>();
  /** Direct message conversations (their user ids, sorted, joined by commas), latest first. */
  dmKeys: string[] = [];
  /** Who is typing where (a conversation key, see conversationKey), with when it started. */
  typing = new Map<string, Map<number, number>>();
  realmEmoji = new Map<string, { id: string; name: string; source_url: string; deactivated?: boolean }>();
  alertWords: string[] = [];
  linkifiers: { id: number; pattern: string; url_template: string }[] = [];
  userStatus = new Map<number, { status_text?: string; emoji_name?: string; emoji_code?: string; reaction_type?: string }>();
  navigationViews: { fragment: string; is_pinned: boolean; name?: string | null }[] = [];
  /** The messages of the open view, oldest first, and whether its ends are reached. */
  view = { key: '', ids: [] as number[], foundOldest: false, foundNewest: false, loading: false };
  messages = new Map<number, Message>();
  emojiNames: string[] = [];
  readonly #listeners = new Set<() => void>();

  changed(): void {
    this.version++;
    for (const listener of this.#listeners) listener();
  }

  listen(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  userName(id: number): string {
    return this.users.get(id)?.full_name ?? `User ${id}`;
  }

  /** Counts of unread messages per channel, per channel topic and per direct conversation. */
  unreadCounts(): { streams: Map<number, number>; topics: Map<string, number>; dms: Map<string, number> } {
    const streams = new Map<number, number>();
    const topics = new Map<string, number>();
    const dms = new Map<string, number>();
    for (const place of this.unread.values()) {
      if ('dm' in place) dms.set(place.dm, (dms.get(place.dm) ?? 0) + 1);
      else {
        streams.set(place.streamId, (streams.get(place.streamId) ?? 0) + 1);
        const key = topicKey(place.streamId, place.topic);
        topics.set(key, (topics.get(key) ?? 0) + 1);
      }
    }
    return { streams, topics, dms };
  }

  /** Records a message's topic as the newest of its channel. */
  noteTopic(streamId: number, topic: string, id: number): void {
    const list = this.topics.get(streamId);
    if (list === undefined) return;
    const rest = list.filter((t) => t.name.toLowerCase() !== topic.toLowerCase());
    this.topics.set(streamId, [{ name: topic, max_id: id }, ...rest].sort((a, b) => b.max_id - a.max_id));
  }

  placeOf(message: Message): UnreadPlace {
    return message.type === 'stream' ? { streamId: message.stream_id!, topic: message.subject } : { dm: dmUserIds(message).join(',') };
  }
}

export const topicKey = (streamId: number, topic: string): string => `${streamId}\u0000${topic.toLowerCase()}`;

/** Re-renders the calling component whenever the state changes. */
export function useStore(state: State): State {
  const [, setVersion] = useState(state.version);
  useEffect(() => state.listen(() => setVersion(state.version)), [state]);
  return state;
}
