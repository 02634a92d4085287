// The server's answers and events as the web client sees them: type-only imports of the zod
// schemas' types next to the domain code that builds them (erased from the bundle).
import type { z } from 'zod';
import type { ZulipEvent } from '../../lib/domain/event_types.js';
import type { RegisterState } from '../../lib/domain/register_state.js';
import type { getMessageAnswerSchema, getMessagesAnswerSchema } from '../../lib/domain/message_fetch.js';
import type { getStreamIdAnswerSchema, getStreamsAnswerSchema, getTopicsAnswerSchema } from '../../lib/domain/streams.js';
import type { subscribeAnswerSchema } from '../../lib/domain/subscriptions.js';
import type { sendMessageAnswerSchema } from '../../lib/domain/message_send.js';
import type { previewMessageAnswerSchema } from '../../lib/domain/message_render.js';
import type { defaultStreamsAnswerSchema } from '../../lib/domain/default_streams.js';
import type { serverSettingsSchema } from '../../lib/domain/realm_dicts.js';
import type { draftIdsSchema } from '../../lib/domain/draft_dicts.js';
import type { presencesAnswerSchema } from '../../lib/domain/presence_dicts.js';
import type { webPushKeySchema } from '../../lib/domain/web_push.js';
import type { sessionSchema, signedInSchema } from '../../lib/accounts/sessions.js';
import type { inviteSchema } from '../../lib/accounts/invite_dicts.js';
import type { linkInfoSchema } from '../../lib/accounts/registration.js';

export type { UserDict as User, UserStatus, MutedUser } from '../../lib/domain/user_dicts.js';
export type { SubscriptionDict as Sub, StreamDict as Stream } from '../../lib/domain/stream_dicts.js';
export type { Draft } from '../../lib/domain/draft_dicts.js';
export type { Reaction } from '../../lib/domain/reaction_dicts.js';
export type { NavigationView } from '../../lib/domain/navigation_view_dicts.js';
export type { Linkifier, RealmEmoji } from '../../lib/domain/realm_dicts.js';
export type { ModernPresence, LegacyPresence } from '../../lib/domain/presence_dicts.js';
export type { SettingValue } from '../../lib/domain/user_setting_types.js';

/** POST /register: the state of the fetch types asked for, and the queue. */
export type RegisterAnswer = RegisterState & { queue_id: string; last_event_id: number };
/** An event as GET /events delivers it. */
export type ServerEvent = ZulipEvent & { id: number };
export type EventOf<T extends ZulipEvent['type']> = Extract<ZulipEvent, { type: T }>;

export type MessagesPage = z.infer<typeof getMessagesAnswerSchema>;
/** A message of GET /messages or of a `message` event (with the user's flags). */
export type Message = MessagesPage['messages'][number];
export type OneMessage = z.infer<typeof getMessageAnswerSchema>;
export type StreamList = z.infer<typeof getStreamsAnswerSchema>;
export type StreamId = z.infer<typeof getStreamIdAnswerSchema>;
export type Topics = z.infer<typeof getTopicsAnswerSchema>;
export type SubscribeAnswer = z.infer<typeof subscribeAnswerSchema>;
export type SentMessage = z.infer<typeof sendMessageAnswerSchema>;
export type Rendered = z.infer<typeof previewMessageAnswerSchema>;
export type DefaultStreams = z.infer<typeof defaultStreamsAnswerSchema>;
export type ServerSettings = z.infer<typeof serverSettingsSchema>;
export type DraftIds = z.infer<typeof draftIdsSchema>;
export type Presences = z.infer<typeof presencesAnswerSchema>;
export type WebPushKey = z.infer<typeof webPushKeySchema>;
export type { WebPushNotification } from '../../lib/notifications/web_push.js';
export type UserSettings = NonNullable<RegisterState['user_settings']>;
/** A bot as realm_bots and the realm_bot events describe it. */
export type Bot = NonNullable<RegisterState['realm_bots']>[number];
/** An incoming webhook integration (realm_incoming_webhook_bots): what the integration URL generator offers. */
export type Integration = NonNullable<RegisterState['realm_incoming_webhook_bots']>[number];
/** POST /bots. */
export interface CreatedBot { user_id: number; api_key: string; email: string }
export type UserTopic = NonNullable<RegisterState['user_topics']>[number];
export type Unread = NonNullable<RegisterState['unread_msgs']>;
export type Session = z.infer<typeof sessionSchema>;
export type SignedIn = z.infer<typeof signedInSchema>;
export type Invite = z.infer<typeof inviteSchema>;
export type LinkInfo = z.infer<typeof linkInfoSchema>;
/** POST /fetch_api_key and POST /users/me/api_key/regenerate. */
export interface ApiKeyAnswer { api_key: string; email: string }
