// The events of POST /users/me/subscriptions, merged: `stream` create, `subscription` peer_add
// and add, each once per distinct audience and content instead of once per channel or user, so
// that subscribing many users to many channels writes a few event rows, not one per pair.
import type { Ctx } from '../context.js';
import type { Audience } from '../events/audience.js';
import type { StreamRow } from '../store/streams.js';
import { emit } from './event_types.js';
import type { StreamDict, SubscriptionDict } from './stream_dicts.js';

const keyOf = (ids: Iterable<number>): string => [...ids].sort((a, b) => a - b).join(',');
const audienceKey = (audience: Audience): string => `${audience.maxRole ?? ''}|${keyOf(audience.users ?? [])}`;

export class SubscribeEvents {
  readonly #creates = new Map<string, { users: Audience; streams: StreamDict[] }>();
  readonly #peers = new Map<string, { users: Audience; userIds: number[]; streamIds: number[] }>();
  readonly #streamsOfUser = new Map<number, StreamRow[]>();

  /** `users` learn that the channel exists (Zulip's stream create event), with its dict. */
  streamCreated(users: Audience, dict: StreamDict): void {
    const key = audienceKey(users);
    const group = this.#creates.get(key);
    if (group) group.streams.push(dict);
    else this.#creates.set(key, { users, streams: [dict] });
  }

  /** `users` (the channel's viewers: lib/domain/stream_access.ts streamViewers) learn that `added` subscribed to it. */
  peersAdded(users: Audience, streamId: number, added: readonly number[]): void {
    const key = `${audienceKey(users)}|${keyOf(added)}`;
    const group = this.#peers.get(key);
    if (group) group.streamIds.push(streamId);
    else this.#peers.set(key, { users, userIds: [...added], streamIds: [streamId] });
  }

  subscribed(userId: number, stream: StreamRow): void {
    const list = this.#streamsOfUser.get(userId);
    if (list) list.push(stream);
    else this.#streamsOfUser.set(userId, [stream]);
  }

  /** Appends the events; `subscriptionOf` gives a new subscription's dict, the same for every user. */
  append(ctx: Ctx, subscriptionOf: (stream: StreamRow) => SubscriptionDict): void {
    for (const { users, streams } of this.#creates.values()) emit(ctx, users, { type: 'stream', op: 'create', streams });
    for (const { users, userIds, streamIds } of this.#peers.values()) {
      emit(ctx, users, { type: 'subscription', op: 'peer_add', stream_ids: streamIds, user_ids: userIds });
    }
    const usersOfList = new Map<string, { users: number[]; streams: StreamRow[] }>();
    for (const [userId, streams] of this.#streamsOfUser) {
      const key = keyOf(streams.map((stream) => stream.id));
      const group = usersOfList.get(key);
      if (group) group.users.push(userId);
      else usersOfList.set(key, { users: [userId], streams });
    }
    const dicts = new Map<number, SubscriptionDict>();
    for (const { users, streams } of usersOfList.values()) {
      const subscriptions = streams.map((stream) => {
        let dict = dicts.get(stream.id);
        if (dict === undefined) dicts.set(stream.id, (dict = subscriptionOf(stream)));
        return dict;
      });
      emit(ctx, users, { type: 'subscription', op: 'add', subscriptions });
    }
  }
}
