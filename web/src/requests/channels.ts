// The requests about channels: topics, subscribing and creating, a channel's settings, one's
// own settings for a channel and its topics, default channels; components reach them as
// `client.channels`.
import type { Api } from '../api.js';
import type { StreamId, SubscribeAnswer, Topics } from '../types.js';

export interface NewChannel {
  name: string;
  description: string;
  inviteOnly: boolean;
  /** The first members, the creator included. */
  principals: number[];
}

/** Zulip's subscription properties (https://zulip.com/api/update-subscription-settings). */
export type SubscriptionProperty = 'color' | 'is_muted' | 'pin_to_top' | 'desktop_notifications' | 'audible_notifications' | 'email_notifications' | 'push_notifications' | 'wildcard_mentions_notify';

export class ChannelRequests {
  constructor(private readonly api: Api) {}

  async topics(streamId: number): Promise<Topics['topics']> {
    return (await this.api.get<Topics>(`users/me/${streamId}/topics`)).topics;
  }

  async idOf(name: string): Promise<number> {
    return (await this.api.get<StreamId>('get_stream_id', { stream: name })).stream_id;
  }

  subscribe(names: string[]): Promise<SubscribeAnswer> {
    return this.api.post<SubscribeAnswer>('users/me/subscriptions', { subscriptions: names.map((name) => ({ name })) });
  }

  unsubscribe(names: string[]): Promise<unknown> {
    return this.api.delete('users/me/subscriptions', { subscriptions: names });
  }

  create(c: NewChannel): Promise<SubscribeAnswer> {
    return this.api.post<SubscribeAnswer>('users/me/subscriptions', {
      subscriptions: [{ name: c.name, description: c.description }],
      invite_only: c.inviteOnly,
      principals: c.principals,
    });
  }

  /** Renames a channel, or changes its description or privacy (PATCH /streams/{stream_id}). */
  update(streamId: number, change: { new_name?: string; description?: string; is_private?: boolean }): Promise<unknown> {
    return this.api.patch(`streams/${streamId}`, change);
  }

  archive(streamId: number): Promise<unknown> {
    return this.api.delete(`streams/${streamId}`);
  }

  setProperty(streamId: number, property: SubscriptionProperty, value: boolean | string): Promise<unknown> {
    return this.api.post('users/me/subscriptions/properties', { subscription_data: [{ stream_id: streamId, property, value }] });
  }

  /** Mutes, unmutes, follows or resets a topic (POST /user_topics; policy 0 resets). */
  setTopicPolicy(streamId: number, topic: string, policy: number): Promise<unknown> {
    return this.api.post('user_topics', { stream_id: streamId, topic, visibility_policy: policy });
  }

  markTopicRead(streamId: number, topic: string): Promise<unknown> {
    return this.api.post('mark_topic_as_read', { stream_id: streamId, topic_name: topic });
  }

  addDefault(streamId: number): Promise<unknown> {
    return this.api.post('default_streams', { stream_id: streamId });
  }

  removeDefault(streamId: number): Promise<unknown> {
    return this.api.delete('default_streams', { stream_id: streamId });
  }
}
