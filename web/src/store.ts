// The client's copy of the server's state: filled from POST /register, kept current by events
// (apply.ts), read by components through useStore(). One object, one change counter.
import { useLayoutEffect, useState } from 'preact/hooks';
import { dmUserIds } from './narrow.js';
import type { Bot, Draft, Integration, Linkifier, Message, NavigationView, RealmEmoji, Stream, Sub, User, UserSettings, UserStatus, UserTopic } from './types.js';

export type { Message, User, Sub } from './types.js';
/** Where an unread message is, for the counts. */
export type UnreadPlace = { streamId: number; topic: string } | { dm: string };
export type Connection = 'live' | 'reconnecting' | 'offline';
/** A user's presence: when they were last active and last idle (seconds), as Zulip's modern format. */
export interface Presence { active: number; idle: number }

/** A conversation as the Recent view lists it. */
export interface Conversation {
  key: string;
  streamId?: number;
  topic: string;
  /** Direct messages: the participants, the user included, sorted. */
  userIds?: number[];
  lastId: number;
  timestamp: number;
  /** Who wrote in it, most recent first. */
  senders: number[];
}

/** Zulip's user_topic visibility policies (https://zulip.com/api/update-user-topic). */
export const TOPIC_MUTED = 1;
export const TOPIC_UNMUTED = 2;
export const TOPIC_FOLLOWED = 3;

export class State {
  version = 0;
  connection: Connection = 'live';
  me = { user_id: 0, email: '', delivery_email: '', full_name: '', is_admin: false, is_owner: false };
  realm = { name: '', icon: '', description: '', url: '', maxMessageId: -1, pingSeconds: 60, offlineSeconds: 140, maxStreamName: 60 };
  users = new Map<number, User>();
  /** Deactivated users (administrators reactivate them). */
  inactiveUsers = new Map<number, User>();
  subs = new Map<number, Sub>();
  /** Every channel the user may see, subscribed or not. */
  streams = new Map<number, Stream>();
  defaultStreams: number[] = [];
  unread = new Map<number, UnreadPlace>();
  mentions = new Set<number>();
  starred = new Set<number>();
  topics = new Map<number, { name: string; max_id: number }[]>();
  drafts = new Map<number, Draft>();
  /** Direct message conversations (their user ids, sorted, joined by commas), latest first. */
  dmKeys: string[] = [];
  /** Who is typing where (a conversation key, see conversationKey), with when it started. */
  typing = new Map<string, Map<number, number>>();
  realmEmoji = new Map<string, RealmEmoji>();
  alertWords: string[] = [];
  linkifiers: Linkifier[] = [];
  userStatus = new Map<number, UserStatus>();
  navigationViews: NavigationView[] = [];
  /** Counts invites_changed events: the invitations page fetches GET /invites again. */
  invitesChanged = 0;
  presence = new Map<number, Presence>();
  /** Seconds to add to this browser's clock to get the server's (presence is in server time). */
  clockSkew = 0;
  settings: UserSettings | null = null;
  /** The user's topic settings (muted, followed), by topicKey. */
  userTopics = new Map<string, UserTopic>();
  mutedUsers = new Set<number>();
  /** The bots the user sees (their own; every bot for an administrator), by user id. */
  bots = new Map<number, Bot>();
  /** The incoming webhook integrations the server offers. */
  integrations: Integration[] = [];
  /** Recent conversations (channel topics and direct messages) by their key, for the Recent view. */
  conversations = new Map<string, Conversation>();
  /** The messages of the open view, oldest first, and whether its ends are reached. */
  view: { key: string; ids: number[]; foundOldest: boolean; foundNewest: boolean; loading: boolean; error?: string } = { key: '', ids: [], foundOldest: false, foundNewest: false, loading: false };
  /** A message changed is a new object (apply.ts): a message shown again unchanged is not rendered again. */
  messages = new Map<number, Message>();
  /**
   * Counts the changes that alter how any message shows besides the message itself: people
   * (names, the user's own id), custom emoji. Message rows render again when it moves.
   */
  displayEpoch = 0;
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
    return this.users.get(id)?.full_name ?? this.inactiveUsers.get(id)?.full_name ?? `User ${id}`;
  }

  /** A personal setting's value (user_settings lists them by name: https://zulip.com/api/update-settings). */
  settingValue(name: string): unknown {
    return (this.settings as Record<string, unknown> | null)?.[name];
  }

  /** A boolean personal setting, with Zulip's default when the state has none. */
  setting(name: string, fallback: boolean): boolean {
    const value = this.settingValue(name);
    return typeof value === 'boolean' ? value : fallback;
  }

  topicPolicy(streamId: number, topic: string): number {
    return this.userTopics.get(topicKey(streamId, topic))?.visibility_policy ?? 0;
  }

  /** Whether messages of a channel topic are hidden from Unread counts (Zulip: muted channel or topic, unless unmuted/followed). */
  isMuted(streamId: number, topic: string): boolean {
    const policy = this.topicPolicy(streamId, topic);
    if (policy === TOPIC_MUTED) return true;
    if (policy === TOPIC_UNMUTED || policy === TOPIC_FOLLOWED) return false;
    return this.subs.get(streamId)?.is_muted ?? false;
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

  /** Records a message in the Recent view's conversations. */
  noteConversation(m: Message): void {
    const stream = m.type === 'stream';
    const ids = stream ? undefined : dmUserIds(m);
    const key = stream ? topicKey(m.stream_id ?? 0, m.subject) : `dm:${ids!.join(',')}`;
    const known = this.conversations.get(key);
    if (known && known.lastId >= m.id) {
      if (!known.senders.includes(m.sender_id)) known.senders.push(m.sender_id);
      return;
    }
    const senders = [m.sender_id, ...(known?.senders ?? []).filter((id) => id !== m.sender_id)];
    this.conversations.set(key, { key, topic: m.subject, lastId: m.id, timestamp: m.timestamp, senders, ...(stream ? { streamId: m.stream_id ?? 0 } : { userIds: ids! }) });
  }

  placeOf(message: Message): UnreadPlace {
    return message.type === 'stream' ? { streamId: message.stream_id ?? 0, topic: message.subject } : { dm: dmUserIds(message).join(',') };
  }

  /** Every channel one may see, with one's subscription settings for those one is subscribed to. */
  allStreams(): (Stream | Sub)[] {
    return [...new Map<number, Stream | Sub>([...this.streams.values(), ...this.subs.values()].map((s) => [s.stream_id, s])).values()];
  }

  /** A channel's name, from the subscriptions or the channels one may see. */
  streamName(id: number): string {
    return this.subs.get(id)?.name ?? this.streams.get(id)?.name ?? String(id);
  }
}

export const topicKey = (streamId: number, topic: string): string => `${streamId}\u0000${topic.toLowerCase()}`;

/** Re-renders the calling component whenever the state changes. */
export function useStore(state: State): State {
  const [, setVersion] = useState(state.version);
  // Listening from before the first paint, and caught up with a change made since this render
  // (an answer that arrived before the component listened).
  useLayoutEffect(() => {
    const update = () => setVersion(state.version);
    update();
    return state.listen(update);
  }, [state]);
  return state;
}
