// The signed-in client: the state, the API, the event queue and the actions components call.
import { Api } from './api.js';
import { applyEvent, applyInitialState, EVENT_TYPES, FETCH_TYPES } from './apply.js';
import { EventQueue } from './live.js';
import { apiNarrow, inView, isMessageView, viewHash, type View } from './narrow.js';
import { State, type Message } from './store.js';

const PAGE = 50;

export class Client {
  readonly state = new State();
  readonly api: Api;
  view: View = { kind: 'unread' };
  #queue: EventQueue;
  #emojiLoaded = false;

  constructor(api: Api, onUnauthorized: () => void) {
    this.api = api;
    this.#queue = new EventQueue(
      api,
      { apply_markdown: true, client_gravatar: true, event_types: EVENT_TYPES, fetch_event_types: FETCH_TYPES, include_subscribers: false },
      {
        registered: (s) => {
          applyInitialState(this.state, s);
          void this.#loadEmojiNames(s.server_emoji_data_url);
          this.state.changed();
          void this.open(this.view, true);
        },
        events: (events) => {
          for (const e of events) applyEvent(this.state, e, (m) => inView(this.view, m, this.state.me.user_id));
          this.state.changed();
        },
        connection: (status) => {
          this.state.connection = status;
          this.state.changed();
        },
        unauthorized: onUnauthorized,
      },
    );
  }

  start(): void {
    this.#queue.start();
  }

  stop(): void {
    this.#queue.stop();
  }

  /** Shows a view: its newest messages, or around the first unread one. */
  async open(view: View, reload = false): Promise<void> {
    const key = viewHash(view);
    if (!reload && key === this.state.view.key) return;
    this.view = view;
    this.state.view = { key, ids: [], foundOldest: false, foundNewest: false, loading: isMessageView(view) };
    this.state.changed();
    if (view.kind === 'channel') void this.loadTopics(view.streamId);
    if (!isMessageView(view) || this.state.me.user_id === 0) return;
    const anchor = view.kind === 'channel' || view.kind === 'dm' ? 'first_unread' : 'newest';
    await this.#fetch(key, { anchor, num_before: PAGE, num_after: PAGE });
  }

  /** More history above the oldest message shown. */
  async loadOlder(): Promise<void> {
    const v = this.state.view;
    if (v.loading || v.foundOldest || v.ids.length === 0) return;
    await this.#fetch(v.key, { anchor: v.ids[0], num_before: PAGE, num_after: 0, include_anchor: false });
  }

  /** More messages below the newest shown (a view opened at its first unread). */
  async loadNewer(): Promise<void> {
    const v = this.state.view;
    if (v.loading || v.foundNewest || v.ids.length === 0) return;
    await this.#fetch(v.key, { anchor: v.ids[v.ids.length - 1], num_before: 0, num_after: PAGE, include_anchor: false });
  }

  async #fetch(key: string, params: Record<string, unknown>): Promise<void> {
    this.state.view.loading = true;
    try {
      const answer = await this.api.get('messages', { ...params, narrow: apiNarrow(this.view, this.state.me.user_id), apply_markdown: true, client_gravatar: true });
      if (this.state.view.key !== key) return;
      const v = this.state.view;
      for (const m of answer.messages as Message[]) this.state.messages.set(m.id, m);
      v.ids = [...new Set([...v.ids, ...answer.messages.map((m: Message) => m.id)])].sort((a, b) => a - b);
      if (params.num_before !== 0) v.foundOldest ||= answer.found_oldest;
      if (params.num_after !== 0) v.foundNewest ||= answer.found_newest;
    } finally {
      if (this.state.view.key === key) this.state.view.loading = false;
      this.state.changed();
    }
  }

  /** A channel's topics, newest first (GET /users/me/{stream_id}/topics). */
  async loadTopics(streamId: number): Promise<void> {
    const { topics } = await this.api.get(`users/me/${streamId}/topics`);
    this.state.topics.set(streamId, topics);
    this.state.changed();
  }

  markRead(ids: number[]): Promise<unknown> {
    return this.api.post('messages/flags', { messages: ids, op: 'add', flag: 'read' });
  }

  setFlag(id: number, flag: string, on: boolean): Promise<unknown> {
    return this.api.post('messages/flags', { messages: [id], op: on ? 'add' : 'remove', flag });
  }

  async #loadEmojiNames(url: string | undefined): Promise<void> {
    if (this.#emojiLoaded || !url) return;
    try {
      // The organization URL may name another host than the page's: the path is what matters.
      const response = await fetch(new URL(url).pathname.replace(/^\//, ''), { cache: 'force-cache' });
      const data = (await response.json()) as { code_to_names: Record<string, string[]> };
      this.state.emojiNames = Object.entries(data.code_to_names).map(([code, names]) => `${names[0]}:${code}`);
      this.#emojiLoaded = true;
      this.state.changed();
    } catch {
      // The picker then offers the organization's custom emoji only.
    }
  }
}
