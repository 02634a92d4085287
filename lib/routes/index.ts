// The route table: every group of routes, by the name the in-process API uses (`api.drafts.delete`).
import { eventRoutes } from './events.js';
import { serverRoutes } from './server.js';
import { userRoutes } from './users.js';
import { pushRoutes } from './push.js';
import { navigationViewRoutes } from './navigation_views.js';
import { draftRoutes } from './drafts.js';
import { alertWordRoutes } from './alert_words.js';
import { userStatusRoutes } from './user_status.js';
import { userSettingsRoutes } from './user_settings.js';
import { realmEmojiRoutes } from './realm_emoji.js';
import { openApiRoutesFor } from './openapi.js';
import { linkifierRoutes } from './linkifiers.js';
import { streamRoutes } from './streams.js';
import { userGroupRoutes } from './user_groups.js';
import { messageRoutes } from './messages.js';
import { messageFlagRoutes } from './message_flags.js';
import { reactionRoutes } from './reactions.js';
import { externalContentRoutes } from './external_content.js';
import { typingRoutes } from './typing.js';
import { presenceRoutes } from './presence.js';
import { emojiDataRoutes } from './emoji_data.js';
import { uploadRoutes } from './uploads.js';
import { botStorageRoutes } from './bot_storage.js';
import { mutedUserRoutes } from './muted_users.js';
import { userTopicRoutes } from './user_topics.js';
import { webPushRoutes } from './web_push.js';
import { realmRoutes } from './realm.js';
import { integrationRoutes } from './integrations.js';
import { sessionRoutes } from './sessions.js';
import { inviteRoutes } from './invites.js';
import { accountRoutes } from './accounts.js';
import type { RouteDef } from './route.js';

// RouteDef<any, any>: each group's routes keep their own parameter and answer types.
type RouteTable = Readonly<Record<string, Readonly<Record<string, RouteDef<any, any>>>>>;

export const routeGroups = {
  server: serverRoutes,
  users: userRoutes,
  events: eventRoutes,
  streams: streamRoutes,
  userGroups: userGroupRoutes,
  messages: messageRoutes,
  messageFlags: messageFlagRoutes,
  reactions: reactionRoutes,
  push: pushRoutes,
  navigationViews: navigationViewRoutes,
  drafts: draftRoutes,
  alertWords: alertWordRoutes,
  userStatus: userStatusRoutes,
  userSettings: userSettingsRoutes,
  realmEmoji: realmEmojiRoutes,
  openApi: openApiRoutesFor((): RouteTable => routeGroups),
  linkifiers: linkifierRoutes,
  externalContent: externalContentRoutes,
  typing: typingRoutes,
  presence: presenceRoutes,
  emojiData: emojiDataRoutes,
  uploads: uploadRoutes,
  botStorage: botStorageRoutes,
  userTopics: userTopicRoutes,
  mutedUsers: mutedUserRoutes,
  webPush: webPushRoutes,
  realm: realmRoutes,
  integrations: integrationRoutes,
  sessions: sessionRoutes,
  invites: inviteRoutes,
  accounts: accountRoutes,
};

export const allRoutes: readonly RouteDef[] = Object.values(routeGroups).flatMap(
  (group) => Object.values(group) as RouteDef[],
);
