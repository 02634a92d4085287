// What a /register state fetcher is given (the options of POST /register) and which fetch types
// the request wants; shared by every domain module that contributes to the initial state.
import type { Ctx } from '../context.js';
import type { ClientCapabilities } from '../events/event.js';
import type { Actor } from './roles.js';

export interface StateOptions {
  /** The client_capabilities object of POST /register (e.g. linkifier_url_template). */
  clientCapabilities: ClientCapabilities;
  applyMarkdown: boolean;
  /** include_subscribers: each channel of the subscription state lists its subscribers. */
  includeSubscribers: boolean;
  /** slim_presence: presences keyed by user id (else by email, Zulip's legacy format). */
  slimPresence: boolean;
  /** presence_last_update_id and presence_history_limit_days of POST /register (lib/domain/presence.ts). */
  presenceLastUpdateId?: number | undefined;
  presenceHistoryLimitDays?: number | undefined;
}

export type StateFetcher = (ctx: Ctx, actor: Actor, options: StateOptions) => Record<string, unknown>;

/** The requested fetch types (null: all); `wants(types, t)` is Zulip's want(t). */
export type FetchTypes = readonly string[] | null;
