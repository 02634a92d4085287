// The one event queue: POST /register, then long-poll GET /events. A queue the server no longer
// has (it expired, or the server restarted without it) means registering again and reloading
// the state and the open view; a network failure means retrying with a growing pause, while the
// page shows "reconnecting". Events are applied by id once each: none lost, none twice.
//
// A waiting long-poll holds one of the browser's connections to the server, and over HTTP/1.1 a
// browser opens at most six to one host. A page kept in the back/forward cache keeps its requests:
// six such pages (or tabs) would leave no connection for any other page of the server, whose
// requests then wait until a long-poll ends. So a page being hidden away (`pagehide`) ends its
// long-poll, and deletes its queue when it is not kept; shown again from the cache, it polls the
// same queue again (or registers anew if the queue expired meanwhile).
import { ApiFailure, type Api } from './api.js';
import type { RegisterAnswer, ServerEvent } from './types.js';

export interface QueueHandlers {
  /** A fresh queue and its initial state; the client reloads what it shows. */
  registered(state: RegisterAnswer): void;
  events(events: ServerEvent[]): void;
  connection(status: 'live' | 'reconnecting'): void;
  /** The credentials stopped working (the key was regenerated or the user deactivated). */
  unauthorized(): void;
}

const MAX_PAUSE_MS = 8000;

/**
 * Resolves once the next frame is painted (the task after an animation frame), or after 100 ms
 * in a hidden page, which paints no frame.
 */
const afterNextPaint = (): Promise<void> =>
  new Promise((resolve) => {
    const hidden = setTimeout(resolve, 100);
    requestAnimationFrame(() => {
      clearTimeout(hidden);
      setTimeout(resolve, 0);
    });
  });

export class EventQueue {
  #queueId: string | null = null;
  #lastEventId = -1;
  #stopped = false;
  #abort = new AbortController();
  #pause = 500;
  #live = false;
  /** Hidden in the back/forward cache: no long-poll until shown again. */
  #suspended = false;
  /** Which #run loop is current: a resumed queue's old loop ends when its aborted poll fails. */
  #loop = 0;
  /** A registration under way, which a loop started meanwhile waits for rather than registering twice. */
  #registering: Promise<void> | null = null;

  constructor(
    private readonly api: Api,
    private readonly params: Record<string, unknown>,
    private readonly on: QueueHandlers,
  ) {}

  start(): void {
    void this.#run();
  }

  /** `unloading`: the page is going away, so the deletion is sent as a keepalive request. */
  stop(unloading = false): void {
    this.#stopped = true;
    this.#abort.abort();
    if (this.#queueId) void this.api.delete('events', { queue_id: this.#queueId }, unloading).catch(() => undefined);
  }

  /** The page went into the back/forward cache: its long-poll ends, the queue stays. */
  suspend(): void {
    if (this.#stopped || this.#suspended) return;
    this.#suspended = true;
    this.#abort.abort();
  }

  /** The page came back from the back/forward cache: polling again (events kept meanwhile come at once). */
  resume(): void {
    if (this.#stopped || !this.#suspended) return;
    this.#suspended = false;
    this.#abort = new AbortController();
    void this.#run();
  }

  async #run(): Promise<void> {
    const loop = ++this.#loop;
    const current = () => !this.#stopped && !this.#suspended && loop === this.#loop;
    while (current()) {
      try {
        if (this.#queueId === null) {
          await (this.#registering ??= this.#register().finally(() => (this.#registering = null)));
          // The next paint after registering comes first (usually the one showing the state): the
          // poll's request and answer are not in that frame's way. Events meanwhile wait in the queue.
          await afterNextPaint();
          if (!current()) return;
        }
        const { events } = await this.api.get<{ events: ServerEvent[] }>('events', { queue_id: this.#queueId, last_event_id: this.#lastEventId }, this.#abort.signal);
        this.#pause = 500;
        this.#setLive(true);
        const fresh = events.filter((e) => e.id > this.#lastEventId);
        if (fresh.length > 0) this.#lastEventId = Math.max(...fresh.map((e) => e.id));
        const real = fresh.filter((e) => e.type !== 'heartbeat');
        if (real.length > 0) this.on.events(real);
      } catch (error) {
        if (!current()) return;
        if (error instanceof ApiFailure && error.code === 'BAD_EVENT_QUEUE_ID') {
          this.#queueId = null;
          continue;
        }
        if (error instanceof ApiFailure && error.status === 401) {
          this.on.unauthorized();
          return;
        }
        this.#setLive(false);
        await new Promise((resolve) => setTimeout(resolve, this.#pause));
        this.#pause = Math.min(this.#pause * 2, MAX_PAUSE_MS);
      }
    }
  }

  async #register(): Promise<void> {
    const state = await this.api.post<RegisterAnswer>('register', this.params);
    this.#queueId = state.queue_id;
    this.#lastEventId = state.last_event_id;
    this.#setLive(true);
    this.on.registered(state);
  }

  #setLive(live: boolean): void {
    if (live === this.#live) return;
    this.#live = live;
    this.on.connection(live ? 'live' : 'reconnecting');
  }
}
