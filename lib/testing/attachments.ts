// What a test attaches to a TestChat that outlives one server generation: in-process subscriptions
// and event recorders. A restore() ends those made after the snapshot it restores and takes the
// others back to the state they had when it was taken.
import type { DeliveredEvent } from '../events/event.js';
import type { ChatServer } from '../index.js';
import { Recorder, type EventRecorder, type RecorderMark } from './recorder.js';

export interface Attachment<M = unknown> {
  /** What restore() needs to bring it back to now. */
  mark(): M;
  /** Back to `mark`, on the new server; undefined: it was made after the snapshot and ends. */
  restore(mark: M | undefined): void;
  /** Ends it for good (the chat closed). */
  end(reason: string): void;
}

export type SubscribeOptions = NonNullable<Parameters<ChatServer['events']['subscribe']>[2]>;

/** The attachments of one TestChat, and the server they currently run on. */
export class Attachments {
  readonly #live = new Set<Attachment>();
  readonly #server: () => ChatServer;

  constructor(server: () => ChatServer) {
    this.#server = server;
  }

  /** chat.events.subscribe, kept across restores (from the newest event of the restored database). */
  subscribe(userId: number, listener: (event: DeliveredEvent) => void, options: SubscribeOptions = {}): () => void {
    let stop: (() => void) | undefined = this.#server().events.subscribe(userId, listener, options);
    const { afterEventId: _first, ...again } = options;
    const attachment: Attachment<true> = {
      mark: () => true,
      restore: (mark) => {
        // The old server's close ended the old subscription.
        stop = undefined;
        if (mark === undefined) this.#live.delete(attachment);
        else stop = this.#server().events.subscribe(userId, listener, again);
      },
      end: () => {
        stop?.();
        stop = undefined;
        this.#live.delete(attachment);
      },
    };
    this.#live.add(attachment);
    return () => attachment.end('unsubscribed');
  }

  recorder(userId: number, eventTypes: readonly string[] | undefined): EventRecorder {
    let attachment: Attachment<RecorderMark> | undefined;
    const recorder = new Recorder(userId, (receive) => {
      const unsubscribe = this.subscribe(userId, receive, eventTypes === undefined ? {} : { eventTypes });
      return () => {
        unsubscribe();
        if (attachment !== undefined) this.#live.delete(attachment);
      };
    });
    attachment = {
      mark: () => recorder.mark(),
      restore: (mark) => (mark === undefined ? recorder.end('the chat was restored to a snapshot taken before this recorder started') : recorder.rewind(mark)),
      end: (reason) => recorder.end(reason),
    };
    this.#live.add(attachment);
    return recorder;
  }

  get size(): number {
    return this.#live.size;
  }

  mark(): Map<Attachment, unknown> {
    return new Map([...this.#live].map((attachment) => [attachment, attachment.mark()]));
  }

  restore(marks: ReadonlyMap<Attachment, unknown>): void {
    for (const attachment of [...this.#live]) attachment.restore(marks.get(attachment));
  }

  endAll(reason: string): void {
    for (const attachment of [...this.#live]) attachment.end(reason);
  }
}
