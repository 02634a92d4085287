// The requests about messages, drafts and typing (Zulip's REST API: https://zulip.com/api/),
// typed with the answers' schemas; components reach them as `client.messages`.
import type { Api } from '../api.js';
import type { Draft, DraftIds, MessagesPage, OneMessage, Rendered, SentMessage } from '../types.js';

/** Where a message goes: a channel topic, or direct to users (the sender left out). */
export interface Destination {
  type: 'stream' | 'private';
  to: number[];
  topic: string;
}

export type Narrow = { operator: string; operand: unknown; negated?: boolean }[];
export type Emoji = { emoji_name: string; emoji_code: string; reaction_type: string };
export type NewDraft = Omit<Draft, 'id'>;

export type PageRange = { anchor: number | string; num_before: number; num_after: number; include_anchor?: boolean };

/** The parameters of GET /messages for a page of a narrow (also the boot script's, boot.ts). */
export const pageParams = (narrow: Narrow, range: PageRange) => ({ ...range, narrow, apply_markdown: true, client_gravatar: true });

export class MessageRequests {
  constructor(private readonly api: Api) {}

  page(narrow: Narrow, range: PageRange): Promise<MessagesPage> {
    return this.api.get<MessagesPage>('messages', pageParams(narrow, range));
  }

  /** The Markdown source of a message. */
  async raw(id: number): Promise<string> {
    return (await this.api.get<OneMessage>(`messages/${id}`, { apply_markdown: false })).message.content;
  }

  send(dest: Destination, content: string): Promise<SentMessage> {
    const params = dest.type === 'stream' ? { type: 'stream', to: dest.to[0], topic: dest.topic, content } : { type: 'direct', to: dest.to, content };
    return this.api.post<SentMessage>('messages', params);
  }

  edit(id: number, content: string): Promise<unknown> {
    return this.api.patch(`messages/${id}`, { content });
  }

  remove(id: number): Promise<unknown> {
    return this.api.delete(`messages/${id}`);
  }

  async render(content: string): Promise<string> {
    return (await this.api.post<Rendered>('messages/render', { content })).rendered;
  }

  setFlag(ids: number[], flag: string, on: boolean): Promise<unknown> {
    return this.api.post('messages/flags', { messages: ids, op: on ? 'add' : 'remove', flag });
  }

  react(id: number, emoji: Emoji, on: boolean): Promise<unknown> {
    return on ? this.api.post(`messages/${id}/reactions`, emoji) : this.api.delete(`messages/${id}/reactions`, emoji);
  }

  typing(dest: Destination, op: 'start' | 'stop'): Promise<unknown> {
    const params = dest.type === 'stream' ? { type: 'stream', op, stream_id: dest.to[0], topic: dest.topic } : { type: 'direct', op, to: dest.to };
    return this.api.post('typing', params);
  }

  async createDraft(draft: NewDraft): Promise<number | undefined> {
    return (await this.api.post<DraftIds>('drafts', { drafts: [draft] })).ids[0];
  }

  updateDraft(id: number, draft: NewDraft): Promise<unknown> {
    return this.api.patch(`drafts/${id}`, { draft });
  }

  deleteDraft(id: number): Promise<unknown> {
    return this.api.delete(`drafts/${id}`);
  }
}
