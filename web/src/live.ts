// The one event queue: POST /register, then long-poll GET /events. A queue the server no longer
// has (it expired, or the server restarted without it) means registering again and reloading
// the state and the open view; a network failure means retrying with a growing pause, while the
// page shows "reconnecting". Events are applied by id once each: none lost, none twice.
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

export class EventQueue {
  #queueId: string | null = null;
  #lastEventId = -1;
  #stopped = false;
  #abort = new AbortController();
  #pause = 500;
  #live = false;

  constructor(
    private readonly api: Api,
    private readonly params: Record<string, unknown>,
    private readonly on: QueueHandlers,
  ) {}

  start(): void {
    void this.#run();
  }

  stop(): void {
    this.#stopped = true;
    this.#abort.abort();
    if (this.#queueId) void this.api.delete('events', { queue_id: this.#queueId }).catch(() => undefined);
  }

  async #run(): Promise<void> {
    while (!this.#stopped) {
      try {
        if (this.#queueId === null) await this.#register();
        const { events } = await this.api.get<{ events: ServerEvent[] }>('events', { queue_id: this.#queueId, last_event_id: this.#lastEventId }, this.#abort.signal);
        this.#pause = 500;
        this.#setLive(true);
        const fresh = events.filter((e) => e.id > this.#lastEventId);
        if (fresh.length > 0) this.#lastEventId = Math.max(...fresh.map((e) => e.id));
        const real = fresh.filter((e) => e.type !== 'heartbeat');
        if (real.length > 0) this.on.events(real);
      } catch (error) {
        if (this.#stopped) return;
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
