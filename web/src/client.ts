// The signed-in client: the state, the event queue, the open view, and the requests components
// make, grouped by subject (client.messages, client.channels, client.people, client.org, client.bots), each
// typed with the server's schemas. Components make no request of their own.
import { Api } from './api.js';
import { applyEvent, applyInitialState } from './apply.js';
import { EventQueue } from './live.js';
import { apiNarrow, dmUserIds, firstPage, inView, isMessageView, needsState, PAGE, viewHash, type View } from './narrow.js';
import { notifyOfMessage } from './notify.js';
import { AccountRequests } from './requests/accounts.js';
import { BotRequests } from './requests/bots.js';
import { ChannelRequests } from './requests/channels.js';
import { MessageRequests, type Narrow } from './requests/messages.js';
import { OrganizationRequests, PeopleRequests } from './requests/people.js';
import { WebPushRequests } from './requests/web_push.js';
import { presenceOf } from './apply_state.js';
import { REGISTER_PARAMS } from './register_params.js';
import { State } from './store.js';
import type { Message, ServerEvent } from './types.js';

/** Messages the Recent view reads to find the conversations (Zulip's web app starts with a few hundred). */
const RECENT_MESSAGES = 400;
/** Input within this long counts as active for presence (Zulip's web app: 5 minutes idle). */
const IDLE_AFTER_MS = 5 * 60_000;

/**
 * What the first paint does not need waits this long after it: the moments after a view shows are
 * the user's (a scroll, a click), not those of the requests and renders of the sidebar's topics,
 * presence and the emoji names.
 */
const AFTER_PAINT_MS = 400;

/** Runs `work` a moment after now, when the browser has nothing else to do (within a second). */
export function whenIdle(work: () => void): void {
  // Safari has no requestIdleCallback.
  setTimeout(() => ('requestIdleCallback' in window ? requestIdleCallback(work, { timeout: 1000 }) : work()), AFTER_PAINT_MS);
}

export class Client {
  readonly state = new State();
  readonly messages: MessageRequests;
  readonly channels: ChannelRequests;
  readonly people: PeopleRequests;
  readonly org: OrganizationRequests;
  readonly webPush: WebPushRequests;
  readonly accounts: AccountRequests;
  readonly bots: BotRequests;
  view: View = { kind: 'unread' };
  #api: Api;
  #queue: EventQueue;
  #emojiLoaded = false;
  #recentLoaded = false;
  #presenceTimer: number | undefined;
  #lastInput = Date.now();
  #registered = false;
  #viewFetch: Promise<void> = Promise.resolve();
  #stopped = false;

  constructor(handlers: { unauthorized: () => void }) {
    this.#api = new Api();
    this.#api.onUnauthorized = () => {
      if (this.#stopped) return;
      this.#stopped = true;
      handlers.unauthorized();
    };
    this.messages = new MessageRequests(this.#api);
    this.channels = new ChannelRequests(this.#api);
    this.people = new PeopleRequests(this.#api);
    this.org = new OrganizationRequests(this.#api);
    this.webPush = new WebPushRequests(this.#api);
    this.accounts = new AccountRequests(this.#api);
    this.bots = new BotRequests(this.#api);
    this.#queue = new EventQueue(
      this.#api,
      REGISTER_PARAMS,
      {
        registered: (s) => {
          const first = !this.#registered;
          this.#registered = true;
          applyInitialState(this.state, s);
          this.#recentLoaded = false;
          this.state.changed();
          // The first view's messages may already be on their way (open() fetches views that need
          // no state in parallel with registering); a new queue after a lost one reloads the view.
          const v = this.state.view;
          const fetched = first && v.key === viewHash(this.view) && isMessageView(this.view) && !needsState(this.view);
          const shown = fetched ? this.#viewFetch.then(() => this.#catchUp(s.max_message_id ?? -1)) : this.open(this.view, true);
          // What the first paint does not need waits for it, and for the page to be idle: the
          // view is shown and can be scrolled before the emoji names are parsed.
          void shown.finally(() =>
            whenIdle(() => {
              if (this.#stopped) return;
              void this.#loadEmojiNames(s.server_emoji_data_url);
              this.#startPresence();
            }),
          );
        },
        events: (events) => this.#apply(events),
        connection: (status) => {
          this.state.connection = status;
          this.state.changed();
        },
        unauthorized: () => this.#api.onUnauthorized?.(),
      },
    );
  }

  /** Whether the event queue has registered once (the state is the server's). */
  get registered(): boolean {
    return this.#registered;
  }

  start(): void {
    this.#queue.start();
    for (const type of ['keydown', 'pointerdown', 'focus']) addEventListener(type, this.#noteInput, { passive: true });
    addEventListener('pagehide', this.#pageHide);
    addEventListener('pageshow', this.#pageShow);
  }

  stop(): void {
    this.#stopped = true;
    this.#queue.stop();
    clearInterval(this.#presenceTimer);
    for (const type of ['keydown', 'pointerdown', 'focus']) removeEventListener(type, this.#noteInput);
    removeEventListener('pagehide', this.#pageHide);
    removeEventListener('pageshow', this.#pageShow);
  }

  /** A page kept in the back/forward cache ends its long-poll; a page unloading deletes its queue (live.ts). */
  #pageHide = (e: PageTransitionEvent): void => {
    if (e.persisted) this.#queue.suspend();
    else this.#queue.stop(true);
  };

  #pageShow = (e: PageTransitionEvent): void => {
    if (e.persisted) this.#queue.resume();
  };

  #apply(events: ServerEvent[]): void {
    for (const e of events) {
      applyEvent(this.state, e, (m) => inView(this.view, m, this.state.me.user_id));
      if (e.type === 'realm_user' && e.op === 'update' && e.person.user_id === this.state.me.user_id && 'is_active' in e.person && !e.person.is_active) {
        return this.#api.onUnauthorized?.();
      }
      if (e.type === 'message') notifyOfMessage(this.state, { ...e.message, flags: e.flags }, (m) => this.hashOf(m));
    }
    this.state.changed();
  }

  /** The address of a message's conversation. */
  hashOf(m: Message): string {
    return m.type === 'stream' ? viewHash({ kind: 'channel', streamId: m.stream_id ?? 0, topic: m.subject }) : viewHash({ kind: 'dm', userIds: dmUserIds(m) });
  }

  #noteInput = (): void => {
    const wasIdle = Date.now() - this.#lastInput > IDLE_AFTER_MS;
    this.#lastInput = Date.now();
    if (wasIdle) void this.#reportPresence();
  };

  /** Presence: reported now and every server_presence_ping_interval_seconds, as Zulip's clients do. */
  #startPresence(): void {
    clearInterval(this.#presenceTimer);
    void this.#reportPresence();
    this.#presenceTimer = window.setInterval(() => void this.#reportPresence(), this.state.realm.pingSeconds * 1000);
  }

  async #reportPresence(): Promise<void> {
    const active = document.visibilityState === 'visible' && Date.now() - this.#lastInput < IDLE_AFTER_MS;
    try {
      const answer = await this.people.reportPresence(active ? 'active' : 'idle');
      for (const [id, p] of Object.entries(answer.presences)) this.state.presence.set(Number(id), presenceOf(p));
      this.state.clockSkew = answer.server_timestamp - Date.now() / 1000;
      this.state.changed();
    } catch {
      // The event queue reports the connection; the next ping tries again.
    }
  }

  /** Shows a view: its newest messages, or around the first unread one. */
  async open(view: View, reload = false): Promise<void> {
    const key = viewHash(view);
    if (!reload && key === this.state.view.key) return;
    this.view = view;
    this.state.view = { key, ids: [], foundOldest: false, foundNewest: false, loading: isMessageView(view) };
    this.state.changed();
    if (view.kind === 'channel' && this.#registered) void this.loadTopics(view.streamId);
    if (!this.#registered && needsState(view)) return;
    if (view.kind === 'recent') return this.#loadRecent();
    if (!isMessageView(view)) return;
    this.#viewFetch = this.#fetch(key, firstPage(view));
    await this.#viewFetch;
  }

  /** Messages sent between a fetch made before registering and the queue's creation: fetched once more. */
  async #catchUp(maxMessageId: number): Promise<void> {
    const v = this.state.view;
    const last = v.ids[v.ids.length - 1] ?? -1;
    const view = this.view;
    if (view.kind === 'channel') whenIdle(() => void this.loadTopics(view.streamId));
    if (v.error !== undefined) return this.open(this.view, true);
    if (!v.foundNewest || maxMessageId <= last) return;
    v.foundNewest = false;
    if (v.ids.length === 0) return this.open(this.view, true);
    await this.loadNewer();
  }

  /** More history above the oldest message shown. */
  async loadOlder(): Promise<void> {
    const v = this.state.view;
    if (v.loading || v.foundOldest || v.ids.length === 0) return;
    await this.#fetch(v.key, { anchor: v.ids[0]!, num_before: PAGE, num_after: 0, include_anchor: false });
  }

  /** More messages below the newest shown (a view opened at its first unread). */
  async loadNewer(): Promise<void> {
    const v = this.state.view;
    if (v.loading || v.foundNewest || v.ids.length === 0) return;
    await this.#fetch(v.key, { anchor: v.ids[v.ids.length - 1]!, num_before: 0, num_after: PAGE, include_anchor: false });
  }

  narrow(view: View): Narrow {
    const byName = new Map([...this.state.streams.values(), ...this.state.subs.values()].map((s) => [s.name.toLowerCase(), s.stream_id]));
    return apiNarrow(view, this.state.me.user_id, (name) => byName.get(name.toLowerCase()));
  }

  async #fetch(key: string, range: Parameters<MessageRequests['page']>[1]): Promise<void> {
    this.state.view.loading = true;
    try {
      const answer = await this.messages.page(this.narrow(this.view), range);
      if (this.state.view.key !== key) return;
      const v = this.state.view;
      delete v.error;
      for (const m of answer.messages) this.state.messages.set(m.id, m);
      v.ids = [...new Set([...v.ids, ...answer.messages.map((m) => m.id)])].sort((a, b) => a - b);
      if (range.num_before !== 0) v.foundOldest ||= answer.found_oldest ?? true;
      if (range.num_after !== 0) v.foundNewest ||= answer.found_newest ?? true;
    } catch (error) {
      if (this.state.view.key === key) this.state.view.error = error instanceof Error ? error.message : 'Failed.';
    } finally {
      if (this.state.view.key === key) this.state.view.loading = false;
      this.state.changed();
    }
  }

  /** The Recent view: the conversations of the newest messages, kept current by message events. */
  async #loadRecent(): Promise<void> {
    if (this.#recentLoaded) return;
    this.#recentLoaded = true;
    try {
      const answer = await this.messages.page([], { anchor: 'newest', num_before: RECENT_MESSAGES, num_after: 0 });
      for (const m of answer.messages) this.state.noteConversation(m);
    } catch {
      this.#recentLoaded = false;
    }
    this.state.changed();
  }

  /** A channel's topics, newest first (GET /users/me/{stream_id}/topics). */
  async loadTopics(streamId: number): Promise<void> {
    this.state.topics.set(streamId, await this.channels.topics(streamId));
    this.state.changed();
  }

  markRead(ids: number[]): Promise<unknown> {
    return this.messages.setFlag(ids, 'read', true);
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
