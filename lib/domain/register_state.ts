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
import { fetchIncomingWebhookBotState, incomingWebhookBotStateSchema } from '../integrations/registry.js';
import { fetchMutedTopicsState, fetchUserTopicState, mutedTopicsStateSchema, userTopicStateSchema } from './user_topics.js';

const wants = (types: FetchTypes, type: string): boolean => types === null || types.includes(type);

interface StateSource {
  /** Whether the request wants this state. */
  wanted(types: FetchTypes): boolean;
  fetch: StateFetcher;
  /** The fields this source adds to the answer (the OpenAPI document and the tests check them). */
  schema: z.ZodObject;
}

/** A state source: its fetcher must return what its schema says. */
const source = <S extends z.ZodObject>(
  wanted: StateSource['wanted'],
  fetch: (ctx: Ctx, actor: Actor, options: StateOptions) => z.infer<S>,
  schema: S,
) => ({ wanted, fetch, schema });

/** A fetch type, and parley's older names for it (its event types) that still fetch it. */
const type = (name: string, ...aliases: string[]) => (types: FetchTypes) => [name, ...aliases].some((t) => wants(types, t));

/** Where each part of the state comes from. Order is the response's. */
const STATE_SOURCES = [
  source(type('realm'), fetchRealmState, realmStateSchema),
  source(type('realm_user'), fetchRealmUserState, realmUserStateSchema),
  source(type('realm_bot'), fetchRealmBotState, realmBotStateSchema),
  source(type('realm_incoming_webhook_bots'), fetchIncomingWebhookBotState, incomingWebhookBotStateSchema),
  source(type('subscription'), fetchSubscriptionState, subscriptionStateSchema),
  source(type('stream'), fetchStreamState, streamStateSchema),
  source(type('default_streams'), fetchDefaultStreamState, defaultStreamStateSchema),
  source(type('realm_user_groups', 'user_group'), fetchUserGroupState, userGroupStateSchema),
  source(type('message'), fetchMessageState, messageStateSchema),
  // Keeping unread_msgs current takes both event types (Zulip: new messages bring no flag update).
  source((types) => wants(types, 'message') && wants(types, 'update_message_flags'), fetchUnreadState, unreadStateSchema),
  source(type('starred_messages'), fetchStarredMessagesState, starredMessagesStateSchema),
  source(type('recent_private_conversations'), fetchRecentPrivateConversationsState, recentPrivateConversationsStateSchema),
  source(type('presence'), fetchPresenceState, presencesAnswerSchema),
  source(type('user_status'), fetchUserStatusState, userStatusStateSchema),
  source(type('user_settings'), fetchUserSettingsState, userSettingsStateSchema),
  source(type('realm_user_settings_defaults'), fetchRealmUserSettingsDefaultsState, realmUserSettingsDefaultsStateSchema),
  source(type('realm_emoji'), fetchRealmEmojiState, realmEmojiStateSchema),
  source(type('realm_linkifiers', 'realm_filters'), fetchLinkifierState, linkifierStateSchema),
  source(type('navigation_views', 'navigation_view'), fetchNavigationViewState, navigationViewStateSchema),
  source(type('drafts'), fetchDraftState, draftStateSchema),
  source(type('alert_words'), fetchAlertWordState, alertWordsSchema),
  source(type('device'), fetchDeviceState, deviceStateSchema),
  source(type('muted_users'), fetchMutedUsersState, mutedUsersStateSchema),
  // Zulip leaves the legacy list out for clients that ask for its replacement, user_topic.
  source((types) => wants(types, 'muted_topics') && (types === null || !types.includes('user_topic')), fetchMutedTopicsState, mutedTopicsStateSchema),
  source(type('user_topic'), fetchUserTopicState, userTopicStateSchema),
  source(type('custom_profile_fields'), fetchCustomProfileFieldState, customProfileFieldStateSchema),
  source(type('saved_snippets'), fetchSavedSnippetState, savedSnippetStateSchema),
  source(type('channel_folders'), fetchChannelFolderState, channelFolderStateSchema),
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
