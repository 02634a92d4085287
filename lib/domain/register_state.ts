// The initial state POST /register returns (the domain's registry; lib/events only delivers), by fetch type: each entry is a `want(type)` of
// Zulip's fetch_initial_state_data and is filled by the domain module that owns the type.
import { z } from 'zod';
import type { Ctx } from '../context.js';
import type { FetchTypes, StateFetcher, StateOptions } from './state_options.js';
import type { Actor } from './roles.js';
import { fetchRealmState } from './realm_state.js';
import { fetchRealmUserState } from './users_state.js';
import { fetchRealmBotState, realmBotStateSchema } from './bot_dicts.js';
import { alertWordsSchema, mutedUsersStateSchema, realmUserStateSchema, userStatusStateSchema } from './user_dicts.js';
import { presencesAnswerSchema } from './presence_dicts.js';
import { linkifierStateSchema, realmEmojiStateSchema, realmStateSchema } from './realm_dicts.js';
import { realmUserSettingsDefaultsStateSchema, userSettingsStateSchema } from './user_setting_types.js';
import { fetchSubscriptionState, fetchStreamState, streamStateSchema, subscriptionStateSchema } from './streams.js';
import { defaultStreamStateSchema, fetchDefaultStreamState } from './default_streams.js';
import { fetchUserGroupState, userGroupStateSchema } from './user_groups.js';
import { fetchMessageState, messageStateSchema } from './message_fetch.js';
import { fetchUnreadState, unreadStateSchema } from './unread.js';
import { fetchRecentPrivateConversationsState, fetchStarredMessagesState, recentPrivateConversationsStateSchema, starredMessagesStateSchema } from './recent_conversations.js';
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
  channelFolderStateSchema,
  customProfileFieldStateSchema,
  fetchChannelFolderState,
  fetchCustomProfileFieldState,
  fetchSavedSnippetState,
  savedSnippetStateSchema,
} from './unmodelled_state.js';
import { fetchMutedUsersState } from './muted_users.js';
import { fetchMutedTopicsState, fetchUserTopicState, mutedTopicsStateSchema, userTopicStateSchema } from './user_topics.js';

const wants = (types: FetchTypes, type: string): boolean => types === null || types.includes(type);

interface StateSource {
  /** Whether the request wants this state. */
  wanted(types: FetchTypes): boolean;
  fetch: StateFetcher;
  /** The fields this source adds to the answer (the OpenAPI document and the tests check them). */
  schema: z.ZodObject;
}

/** A fetch type, and parley's older names for it (its event types) that still fetch it. */
const type = (name: string, ...aliases: string[]) => (types: FetchTypes) => [name, ...aliases].some((t) => wants(types, t));

/** Where each part of the state comes from. Order is the response's. */
const STATE_SOURCES = [
  { wanted: type('realm'), fetch: fetchRealmState, schema: realmStateSchema },
  { wanted: type('realm_user'), fetch: fetchRealmUserState, schema: realmUserStateSchema },
  { wanted: type('realm_bot'), fetch: fetchRealmBotState, schema: realmBotStateSchema },
  { wanted: type('subscription'), fetch: fetchSubscriptionState, schema: subscriptionStateSchema },
  { wanted: type('stream'), fetch: fetchStreamState, schema: streamStateSchema },
  { wanted: type('default_streams'), fetch: fetchDefaultStreamState, schema: defaultStreamStateSchema },
  { wanted: type('realm_user_groups', 'user_group'), fetch: fetchUserGroupState, schema: userGroupStateSchema },
  { wanted: type('message'), fetch: fetchMessageState, schema: messageStateSchema },
  // Keeping unread_msgs current takes both event types (Zulip: new messages bring no flag update).
  { wanted: (types) => wants(types, 'message') && wants(types, 'update_message_flags'), fetch: fetchUnreadState, schema: unreadStateSchema },
  { wanted: type('starred_messages'), fetch: fetchStarredMessagesState, schema: starredMessagesStateSchema },
  { wanted: type('recent_private_conversations'), fetch: fetchRecentPrivateConversationsState, schema: recentPrivateConversationsStateSchema },
  { wanted: type('presence'), fetch: fetchPresenceState, schema: presencesAnswerSchema },
  { wanted: type('user_status'), fetch: fetchUserStatusState, schema: userStatusStateSchema },
  { wanted: type('user_settings'), fetch: fetchUserSettingsState, schema: userSettingsStateSchema },
  { wanted: type('realm_user_settings_defaults'), fetch: fetchRealmUserSettingsDefaultsState, schema: realmUserSettingsDefaultsStateSchema },
  { wanted: type('realm_emoji'), fetch: fetchRealmEmojiState, schema: realmEmojiStateSchema },
  { wanted: type('realm_linkifiers', 'realm_filters'), fetch: fetchLinkifierState, schema: linkifierStateSchema },
  { wanted: type('navigation_views', 'navigation_view'), fetch: fetchNavigationViewState, schema: navigationViewStateSchema },
  { wanted: type('drafts'), fetch: fetchDraftState, schema: draftStateSchema },
  { wanted: type('alert_words'), fetch: fetchAlertWordState, schema: alertWordsSchema },
  { wanted: type('device'), fetch: fetchDeviceState, schema: deviceStateSchema },
  { wanted: type('muted_users'), fetch: fetchMutedUsersState, schema: mutedUsersStateSchema },
  // Zulip leaves the legacy list out for clients that ask for its replacement, user_topic.
  { wanted: (types) => wants(types, 'muted_topics') && (types === null || !types.includes('user_topic')), fetch: fetchMutedTopicsState, schema: mutedTopicsStateSchema },
  { wanted: type('user_topic'), fetch: fetchUserTopicState, schema: userTopicStateSchema },
  { wanted: type('custom_profile_fields'), fetch: fetchCustomProfileFieldState, schema: customProfileFieldStateSchema },
  { wanted: type('saved_snippets'), fetch: fetchSavedSnippetState, schema: savedSnippetStateSchema },
  { wanted: type('channel_folders'), fetch: fetchChannelFolderState, schema: channelFolderStateSchema },
] as const satisfies readonly StateSource[];

/** The state fields of POST /register, from the sources' schemas: each optional, as fetch_event_types selects. */
export const registerStateSchema: z.ZodObject = z.object(
  Object.assign({}, ...STATE_SOURCES.map((source) => source.schema.partial().shape)) as z.ZodRawShape,
);

/** The fields one source adds, each optional. */
type SourceState<S> = S extends { schema: infer Schema extends z.ZodObject } ? Partial<z.infer<Schema>> : never;
type Intersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void ? I : never;
export type RegisterState = Intersection<SourceState<(typeof STATE_SOURCES)[number]>>;

export function fetchInitialState(ctx: Ctx, actor: Actor, fetchTypes: FetchTypes, options: StateOptions): RegisterState {
  const state: RegisterState = {};
  for (const source of STATE_SOURCES) {
    if (source.wanted(fetchTypes)) Object.assign(state, source.fetch(ctx, actor, options));
  }
  return state;
}
