// What the compose box tells the server while the user types: the draft (POST/PATCH/DELETE
// /drafts, Zulip's draft sync) and typing notifications (POST /typing, start at most every
// 10 seconds while typing, stop after 5 idle seconds or on send).
import type { Client } from './client.js';
import type { Destination } from './requests/messages.js';

export type { Destination } from './requests/messages.js';

const TYPING_REPEAT_MS = 10_000;
const TYPING_IDLE_MS = 5_000;
const DRAFT_SAVE_MS = 600;

export class ComposeSync {
  draftId: number | null = null;
  #typingSince = 0;
  #idle: number | undefined;
  #save: number | undefined;
  #saving: Promise<unknown> = Promise.resolve();

  constructor(private readonly client: Client) {}

  typed(dest: Destination, content: string): void {
    clearTimeout(this.#save);
    this.#save = window.setTimeout(() => void this.saveDraft(dest, content), DRAFT_SAVE_MS);
    const now = Date.now();
    if (content.trim() === '') return this.stopTyping(dest);
    if (now - this.#typingSince > TYPING_REPEAT_MS) {
      this.#typingSince = now;
      void this.#typing(dest, 'start');
    }
    clearTimeout(this.#idle);
    this.#idle = window.setTimeout(() => this.stopTyping(dest), TYPING_IDLE_MS);
  }

  stopTyping(dest: Destination): void {
    clearTimeout(this.#idle);
    if (this.#typingSince === 0) return;
    this.#typingSince = 0;
    void this.#typing(dest, 'stop');
  }

  /** Saves (or, for an empty box, removes) the draft; saves run one after another. */
  saveDraft(dest: Destination, content: string): Promise<unknown> {
    clearTimeout(this.#save);
    this.#saving = this.#saving.then(async () => {
      const draft = { type: dest.type, to: dest.to, topic: dest.topic, content, timestamp: Math.floor(Date.now() / 1000) };
      if (content.trim() === '') return this.discardDraft();
      if (this.draftId !== null && this.client.state.drafts.has(this.draftId)) {
        await this.client.messages.updateDraft(this.draftId, draft);
      } else {
        this.draftId = (await this.client.messages.createDraft(draft)) ?? null;
      }
    }).catch(() => undefined);
    return this.#saving;
  }

  async discardDraft(): Promise<void> {
    const id = this.draftId;
    this.draftId = null;
    if (id !== null) await this.client.messages.deleteDraft(id).catch(() => undefined);
  }

  /** After sending: no draft left behind, and no pending save that would bring it back. */
  sent(dest: Destination): Promise<unknown> {
    clearTimeout(this.#save);
    this.stopTyping(dest);
    this.#saving = this.#saving.then(() => this.discardDraft());
    return this.#saving;
  }

  #typing(dest: Destination, op: 'start' | 'stop') {
    return this.client.messages.typing(dest, op).catch(() => undefined);
  }
}
