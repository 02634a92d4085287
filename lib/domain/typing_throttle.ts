// Which typing notifications are passed on, per sender and conversation: the same op again within
// TYPING_REPEAT_MS of the last one passed on changes nothing any recipient shows, and is dropped.
// Kept in memory, per process (several processes each pass one on), like the notifications.
//
// Zulip's clients send "start" when their user starts typing and again at most every
// server_typing_started_wait_period_milliseconds (30 s, POST /register) while they keep typing,
// and "stop" when they stop; recipients show the sender typing until a "stop" or for
// server_typing_started_expiry_period_milliseconds (45 s) after the last "start"
// (https://zulip.com/api/set-typing-status). Clients from before those settings (Zulip 8.0,
// feature level 204) repeated "start" every 10 s. A window shorter than both passes every
// notification such a client sends; a sender that floods a conversation with "start" reaches its
// recipients once per window. Alternating start and stop, or changing conversation, still costs
// the sender one request per notification, counted by its own rate limit.
import type { Ctx } from '../context.js';

export const TYPING_REPEAT_MS = 5_000;

/** Remembered conversations past which the ones that no longer throttle anything are forgotten. */
const SWEEP_AT = 10_000;

const THROTTLE = Symbol('typing throttle');

interface Passed {
  op: 'start' | 'stop';
  atMs: number;
}

/** A conversation as the throttle keys it. */
export type TypingConversation =
  | { type: 'direct'; userIds: readonly number[] }
  | { type: 'channel'; streamId: number; topic: string }
  | { type: 'edit'; messageId: number };

function conversationKey(senderId: number, conversation: TypingConversation): string {
  switch (conversation.type) {
    case 'direct':
      return `${senderId} d ${[...new Set(conversation.userIds)].sort((a, b) => a - b).join(',')}`;
    case 'channel':
      // Topics are one conversation whatever their case, as Zulip groups them.
      return `${senderId} c ${conversation.streamId} ${conversation.topic.toLowerCase()}`;
    case 'edit':
      return `${senderId} e ${conversation.messageId}`;
  }
}

/**
 * Whether a typing notification is passed on (and then remembered as the conversation's last).
 * Call it once the notification was found valid, right before its event is emitted.
 */
export function typingPasses(ctx: Ctx, senderId: number, conversation: TypingConversation, op: 'start' | 'stop'): boolean {
  const passed = ctx.once(THROTTLE, () => new Map<string, Passed>());
  const key = conversationKey(senderId, conversation);
  const now = ctx.clock();
  const last = passed.get(key);
  if (last !== undefined && last.op === op && now - last.atMs >= 0 && now - last.atMs < TYPING_REPEAT_MS) return false;
  if (passed.size >= SWEEP_AT) {
    for (const [k, p] of passed) if (!(now - p.atMs < TYPING_REPEAT_MS)) passed.delete(k);
    // Still full of recent ones: forgetting them only lets a few repeats through.
    if (passed.size >= SWEEP_AT) passed.clear();
  }
  passed.delete(key);
  passed.set(key, { op, atMs: now });
  return true;
}
