// The initial state POST /register returns (the domain's registry; lib/events only delivers), by fetch type: each entry is a `want(type)` of
// Zulip's fetch_initial_state_data and is filled by the domain module that owns the type.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { FetchTypes, StateFetcher, StateOptions } from './state_options.js';
import type { Actor } from './roles.js';
import { fetchRealmState } from './realm_state.js';
import { fetchRealmUserState } from './users_state.js';
import { fetchRealmBotState } from './bot_dicts.js';
import { fetchSubscriptionState, fetchStreamState } from './streams.js';
import { fetchDefaultStreamState } from './default_streams.js';
import { fetchUserGroupState } from './user_groups.js';
import { fetchMessageState } from './message_fetch.js';
import { fetchUnreadState } from './unread.js';
import { fetchRecentPrivateConversationsState, fetchStarredMessagesState } from './recent_conversations.js';
import { fetchPresenceState } from './presence.js';
import { fetchUserStatusState } from './user_status.js';
import { fetchRealmUserSettingsDefaultsState, fetchUserSettingsState } from './user_settings.js';
import { fetchRealmEmojiState } from './realm_emoji.js';
import { fetchLinkifierState } from './linkifiers.js';
import { fetchNavigationViewState } from './navigation_views.js';
import { navigationViewStateSchema } from './navigation_view_dicts.js';
import { fetchDraftState } from './drafts.js';
import { draftStateSchema } from './draft_dicts.js';
import { fetchAlertWordState } from './alert_words.js';
import { fetchDeviceState } from './push.js';
import { deviceStateSchema } from './device_dicts.js';
import {
  fetchChannelFolderState,
  fetchCustomProfileFieldState,
  fetchSavedSnippetState,
} from './unmodelled_state.js';
import { fetchMutedUsersState } from './muted_users.js';
import { fetchMutedTopicsState, fetchUserTopicState } from './user_topics.js';

const wants = (types: FetchTypes, type: string): boolean => types === null || types.includes(type);

interface StateSource {
  /** Whether the request wants this state. */
  wanted(types: FetchTypes): boolean;
  fetch: StateFetcher;
  /** The fields this source adds to the answer (the OpenAPI document and the tests check them). */
  schema?: z.ZodObject;
}

/** A fetch type, and parley's older names for it (its event types) that still fetch it. */
const type = (name: string, ...aliases: string[]) => (types: FetchTypes) => [name, ...aliases].some((t) => wants(types, t));

/** Where each part of the state comes from. Order is the response's. */
const STATE_SOURCES = [
  { wanted: type('realm'), fetch: fetchRealmState },
  { wanted: type('realm_user'), fetch: fetchRealmUserState },
  { wanted: type('realm_bot'), fetch: fetchRealmBotState },
  { wanted: type('subscription'), fetch: fetchSubscriptionState },
  { wanted: type('stream'), fetch: fetchStreamState },
  { wanted: type('default_streams'), fetch: fetchDefaultStreamState },
  { wanted: type('realm_user_groups', 'user_group'), fetch: fetchUserGroupState },
  { wanted: type('message'), fetch: fetchMessageState },
  // Keeping unread_msgs current takes both event types (Zulip: new messages bring no flag update).
  { wanted: (types) => wants(types, 'message') && wants(types, 'update_message_flags'), fetch: fetchUnreadState },
  { wanted: type('starred_messages'), fetch: fetchStarredMessagesState },
  { wanted: type('recent_private_conversations'), fetch: fetchRecentPrivateConversationsState },
  { wanted: type('presence'), fetch: fetchPresenceState },
  { wanted: type('user_status'), fetch: fetchUserStatusState },
  { wanted: type('user_settings'), fetch: fetchUserSettingsState },
  { wanted: type('realm_user_settings_defaults'), fetch: fetchRealmUserSettingsDefaultsState },
  { wanted: type('realm_emoji'), fetch: fetchRealmEmojiState },
  { wanted: type('realm_linkifiers', 'realm_filters'), fetch: fetchLinkifierState },
  { wanted: type('navigation_views', 'navigation_view'), fetch: fetchNavigationViewState, schema: navigationViewStateSchema },
  { wanted: type('drafts'), fetch: fetchDraftState, schema: draftStateSchema },
  { wanted: type('alert_words'), fetch: fetchAlertWordState },
  { wanted: type('device'), fetch: fetchDeviceState, schema: deviceStateSchema },
  { wanted: type('muted_users'), fetch: fetchMutedUsersState },
  // Zulip leaves the legacy list out for clients that ask for its replacement, user_topic.
  { wanted: (types) => wants(types, 'muted_topics') && (types === null || !types.includes('user_topic')), fetch: fetchMutedTopicsState },
  { wanted: type('user_topic'), fetch: fetchUserTopicState },
  { wanted: type('custom_profile_fields'), fetch: fetchCustomProfileFieldState },
  { wanted: type('saved_snippets'), fetch: fetchSavedSnippetState },
  { wanted: type('channel_folders'), fetch: fetchChannelFolderState },
] as const satisfies readonly StateSource[];

/**
 * The state fields of POST /register, from the sources' schemas: each optional, as
 * fetch_event_types selects. Loose while some source does not declare its fields yet.
 */
export const registerStateSchema = (() => {
  const sources: readonly StateSource[] = STATE_SOURCES;
  const shape = Object.assign({}, ...sources.map((source) => source.schema?.partial().shape ?? {})) as z.ZodRawShape;
  const schema = sources.every((source) => source.schema !== undefined) ? z.object(shape) : z.looseObject(shape);
  // Statically an open object: RegisterState is the type of its fields.
  return schema as unknown as z.ZodObject<Record<never, z.ZodType>, z.core.$loose>;
})();

/** The fields one source adds: its schema's, each optional; any field while it declares none. */
type SourceState<S> = S extends { schema: infer Schema extends z.ZodObject } ? Partial<z.infer<Schema>> : Record<string, unknown>;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
export type RegisterState = Intersection<SourceState<(typeof STATE_SOURCES)[number]>>;

export function fetchInitialState(ctx: Ctx, actor: Actor, fetchTypes: FetchTypes, options: StateOptions): RegisterState {
  const state: RegisterState = {};
  for (const source of STATE_SOURCES) {
    if (source.wanted(fetchTypes)) Object.assign(state, source.fetch(ctx, actor, options));
  }
  return state;
}
