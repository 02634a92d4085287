// The initial state POST /register returns, by event type: each entry is the `want(type)` of
// Zulip's fetch_initial_state_data and is filled by the domain module that owns the type.
import type { Ctx } from '../context.js';
import type { Actor } from '../domain/roles.js';
import { fetchRealmUserState } from '../domain/users_state.js';
import { fetchRealmBotState } from '../domain/bot_dicts.js';
import { fetchSubscriptionState, fetchStreamState } from '../domain/streams.js';
import { fetchUserGroupState } from '../domain/user_groups.js';
import { fetchMessageState } from '../domain/messages.js';
import { fetchUnreadState } from '../domain/message_flags.js';
import { fetchUserStatusState } from '../domain/user_status.js';
import { fetchRealmUserSettingsDefaultsState, fetchUserSettingsState } from '../domain/user_settings.js';
import { fetchRealmEmojiState } from '../domain/realm_emoji.js';
import { fetchLinkifierState } from '../domain/linkifiers.js';
import { fetchNavigationViewState } from '../domain/navigation_views.js';
import { fetchDraftState } from '../domain/drafts.js';
import { fetchAlertWordState } from '../domain/alert_words.js';
import { fetchDeviceState } from '../domain/push.js';
import { fetchPresenceState } from '../domain/presence.js';

export interface StateOptions {
  /** The client_capabilities object of POST /register (e.g. linkifier_url_template). */
  clientCapabilities: Record<string, unknown>;
  applyMarkdown: boolean;
  /** The event types the client asked for (null: all); fetchers that need two types check here. */
  eventTypes: readonly string[] | null;
  /** slim_presence, presence_last_update_id, presence_history_limit_days of POST /register (lib/domain/presence.ts). */
  slimPresence?: boolean | undefined;
  presenceLastUpdateId?: number | undefined;
  presenceHistoryLimitDays?: number | undefined;
}

export type StateFetcher = (ctx: Ctx, actor: Actor, options: StateOptions) => Record<string, unknown>;

/** Event type -> the state keys it contributes to the /register response. Order is the response's. */
export const STATE_FETCHERS: Readonly<Record<string, StateFetcher>> = {
  realm_user: fetchRealmUserState,
  realm_bot: fetchRealmBotState,
  subscription: fetchSubscriptionState,
  stream: fetchStreamState,
  user_group: fetchUserGroupState,
  message: fetchMessageState,
  update_message_flags: fetchUnreadState,
  user_status: fetchUserStatusState,
  user_settings: fetchUserSettingsState,
  realm_user_settings_defaults: fetchRealmUserSettingsDefaultsState,
  realm_emoji: fetchRealmEmojiState,
  realm_linkifiers: fetchLinkifierState,
  navigation_view: fetchNavigationViewState,
  drafts: fetchDraftState,
  alert_words: fetchAlertWordState,
  device: fetchDeviceState,
  presence: fetchPresenceState,
};

export function fetchInitialState(
  ctx: Ctx,
  actor: Actor,
  fetchTypes: readonly string[] | null,
  options: StateOptions,
): Record<string, unknown> {
  const state: Record<string, unknown> = {};
  for (const [type, fetch] of Object.entries(STATE_FETCHERS)) {
    if (fetchTypes === null || fetchTypes.includes(type)) Object.assign(state, fetch(ctx, actor, options));
  }
  return state;
}
