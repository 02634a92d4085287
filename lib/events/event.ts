// What an event is, as the domain appends it and as a client receives it.

/** An event as the domain produces it: `type` plus Zulip's payload, without the id. */
export interface ChatEvent {
  type: string;
  [key: string]: unknown;
}

/** An event as a client receives it. */
export interface DeliveredEvent extends ChatEvent {
  id: number;
}
