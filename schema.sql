-- parley's whole schema. Applied by lib/store/open.ts to a new database, and re-applied (every
-- statement is IF NOT EXISTS) when an older parley database is migrated forward; column changes
-- to existing tables go in lib/store/migrations.ts. All tables are STRICT; foreign keys are on.
-- Times are unix seconds (INTEGER) unless a column says otherwise.

------------------------------------------------------------------------------------------------
-- Organization and users (lib/domain/realm.ts, lib/domain/users.ts)
------------------------------------------------------------------------------------------------

-- The one organization a database holds (Zulip's realm). id is always 1.
CREATE TABLE IF NOT EXISTS realm (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  name TEXT NOT NULL,
  url TEXT NOT NULL,
  uuid TEXT NOT NULL,
  description TEXT NOT NULL DEFAULT '',
  date_created INTEGER NOT NULL,
  -- Copied from the push bouncer's realm_push_status.can_push when it answers (lib/domain/push.ts).
  push_notifications_enabled INTEGER NOT NULL DEFAULT 1,
  -- The email_address_visibility new users start with (Zulip's realm_user_settings_defaults;
  -- 3, administrators only, as Zulip's default for new organizations). Bots always get 1.
  default_email_address_visibility INTEGER NOT NULL DEFAULT 3 CHECK (default_email_address_visibility BETWEEN 1 AND 5),
  -- 1 when the URL was chosen (realm.url, --url, initOrganization's url); 0: `parley serve` sets
  -- it to the address it listens on, so clients' logins reach it (lib/domain/realm.ts).
  url_chosen INTEGER NOT NULL DEFAULT 1 CHECK (url_chosen IN (0, 1))
) STRICT;

-- Users and bots. A bot has a bot_type (1 generic, 2 incoming webhook, 3 outgoing webhook,
-- 4 embedded) and an owner. Rows are never deleted: deactivation clears is_active.
CREATE TABLE IF NOT EXISTS user (
  id INTEGER PRIMARY KEY,
  -- COLLATE NOCASE: emails are unique and looked up case-insensitively (auth, fetch_api_key).
  email TEXT NOT NULL UNIQUE COLLATE NOCASE,
  full_name TEXT NOT NULL,
  -- 100 owner, 200 administrator, 300 moderator, 400 member, 600 guest (Zulip's values).
  role INTEGER NOT NULL CHECK (role IN (100, 200, 300, 400, 600)),
  is_active INTEGER NOT NULL DEFAULT 1 CHECK (is_active IN (0, 1)),
  -- 32 alphanumeric characters; compared in constant time by lib/domain/auth.ts.
  api_key TEXT NOT NULL UNIQUE,
  -- scrypt$<N>$<r>$<p>$<salt b64>$<hash b64>; NULL when the account has no password.
  password_hash TEXT,
  bot_type INTEGER CHECK (bot_type IN (1, 2, 3, 4)),
  bot_owner_id INTEGER REFERENCES user(id),
  date_joined INTEGER NOT NULL,
  timezone TEXT NOT NULL DEFAULT '',
  -- Zulip's presence_enabled; the deprecated status `away` flag is its negation.
  presence_enabled INTEGER NOT NULL DEFAULT 1 CHECK (presence_enabled IN (0, 1)),
  enable_drafts_synchronization INTEGER NOT NULL DEFAULT 1 CHECK (enable_drafts_synchronization IN (0, 1)),
  -- Who sees the real email (Zulip's values): 1 everyone, 2 members, 3 administrators, 4 nobody,
  -- 5 moderators. Others see user{id}@{organization host} (lib/domain/email_visibility.ts).
  email_address_visibility INTEGER NOT NULL DEFAULT 1 CHECK (email_address_visibility BETWEEN 1 AND 5)
) STRICT;
-- Mentions by name (lib/domain/user_list.ts): a name's users without reading every user.
CREATE INDEX IF NOT EXISTS user_by_name ON user (full_name COLLATE NOCASE);

-- Bots (the partial subscriber lists and user lists of POST /register: lib/domain/subscribers.ts),
-- deactivated accounts (left out of subscriber lists) and guests: few rows each, read without a scan.
CREATE INDEX IF NOT EXISTS user_bots ON user (id) WHERE bot_type IS NOT NULL;
CREATE INDEX IF NOT EXISTS user_inactive ON user (id) WHERE is_active = 0;
-- Guests: a public channel's viewers are every non-guest and its subscribed guests (lib/domain/stream_access.ts).
CREATE INDEX IF NOT EXISTS user_guests ON user (id) WHERE role = 600;

-- What each process keeps in memory of some tables' rows (ctx.cached, lib/context.ts) is valid
-- while that name's version stays where it was. Triggers on those tables give the name a new
-- random version on every insert, update and delete, by any process or tool writing to the file;
-- random, not counted up, so a version written by a transaction that rolled back is never
-- reached again by one that commits. Names: 'user' (the callers of lib/domain/auth.ts, and the
-- organization URL their API emails take their domain from), 'alert_word', 'linkifier',
-- 'user_setting' (the notification settings of lib/notifications/settings.ts), 'device' (who has
-- a phone to push to), 'bot' (which users are bots), 'web_push' (who has a browser to notify).
CREATE TABLE IF NOT EXISTS cache_version (
  name TEXT PRIMARY KEY,
  version INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE TRIGGER IF NOT EXISTS user_inserted AFTER INSERT ON user BEGIN
  INSERT INTO cache_version (name, version) VALUES ('user', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS user_updated AFTER UPDATE ON user BEGIN
  INSERT INTO cache_version (name, version) VALUES ('user', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS user_deleted AFTER DELETE ON user BEGIN
  INSERT INTO cache_version (name, version) VALUES ('user', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
-- Which users are bots (never notified, lib/notifications/decide.ts): 'bot'.
CREATE TRIGGER IF NOT EXISTS user_bot_inserted AFTER INSERT ON user WHEN new.bot_type IS NOT NULL BEGIN
  INSERT INTO cache_version (name, version) VALUES ('bot', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS user_bot_updated AFTER UPDATE OF bot_type ON user BEGIN
  INSERT INTO cache_version (name, version) VALUES ('bot', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS realm_url_updated AFTER UPDATE OF url ON realm BEGIN
  INSERT INTO cache_version (name, version) VALUES ('user', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;

------------------------------------------------------------------------------------------------
-- Events (lib/events/): the transactional outbox and the durable event queues
------------------------------------------------------------------------------------------------

-- Every event a domain change produced, written in the same transaction as the change.
-- Ids are never reused: pruning always keeps the newest row, so max(id) never goes back and a
-- queue's last_event_id stays meaningful (cheaper than AUTOINCREMENT's sqlite_sequence write).
CREATE TABLE IF NOT EXISTS event (
  id INTEGER PRIMARY KEY,
  -- The one user the event is for; NULL for an event every user receives (realm-wide) or for
  -- the users listed in recipients or named by audience.
  user_id INTEGER REFERENCES user(id),
  -- An event for many users (a message to a big channel, with one row per distinct flags): their
  -- ids as text ',3,17,42,', matched with instr(). One row instead of one per user keeps a send
  -- to 1,000 subscribers from writing 1,000 rows. NULL otherwise.
  recipients TEXT,
  -- An event for users named by rules rather than listed (lib/events/audience.ts), as JSON: one
  -- rule's conditions, or {"anyOf": [rules]}, with "except": [ids] left out. A rule holds for an
  -- active user meeting all its conditions: "maxRole"/"roleAbove" (the user's role),
  -- "subscribedTo" (a channel), "received" ({"stream", "messages"}: one of them had by a
  -- subscription period), "unread" (such a message, read or not). Decided for each reader when the
  -- event is read, so an event for 100,000 users is one short row. Listed users (recipients) get
  -- it too. NULL otherwise.
  audience TEXT,
  type TEXT NOT NULL,
  -- The event as JSON, without its id (added on delivery).
  payload TEXT NOT NULL,
  created_at INTEGER NOT NULL
) STRICT;
-- No index on user_id: "this user's events after id N" (GET /events, queue garbage collection)
-- reads the range of ids after N, which for a client that keeps up is a few rows, and an index
-- entry would cost every write a page (lib/store/events.ts).

-- One row per event queue (POST /register). Survives restarts; expired and capped per user by
-- lib/events/queues.ts.
CREATE TABLE IF NOT EXISTS event_queue (
  id TEXT PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES user(id),
  -- JSON list of event types, or NULL for all types.
  event_types TEXT,
  client_capabilities TEXT NOT NULL DEFAULT '{}',
  apply_markdown INTEGER NOT NULL DEFAULT 0,
  -- The newest event id when the queue was created: the queue holds only events after it.
  created_event_id INTEGER NOT NULL,
  -- The highest event id the client has confirmed (its last_event_id); older events may be pruned.
  acked_event_id INTEGER NOT NULL,
  created_at INTEGER NOT NULL,
  -- Milliseconds; a queue expires lifespan_secs after its last poll ended.
  last_poll_at INTEGER NOT NULL,
  lifespan_secs INTEGER NOT NULL
) STRICT;
-- Queue expiry sweeps and the pruning floor (min acked_event_id).
CREATE INDEX IF NOT EXISTS event_queue_by_user ON event_queue (user_id);

------------------------------------------------------------------------------------------------
-- Channels, subscriptions, user groups, messages (lib/domain/streams.ts, messages.ts, ...)
------------------------------------------------------------------------------------------------

-- Channels (Zulip's streams). Names are unique case-insensitively.
CREATE TABLE IF NOT EXISTS stream (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  rendered_description TEXT NOT NULL DEFAULT '',
  invite_only INTEGER NOT NULL DEFAULT 0 CHECK (invite_only IN (0, 1)),
  history_public_to_subscribers INTEGER NOT NULL DEFAULT 1 CHECK (history_public_to_subscribers IN (0, 1)),
  is_archived INTEGER NOT NULL DEFAULT 0 CHECK (is_archived IN (0, 1)),
  date_created INTEGER NOT NULL,
  creator_id INTEGER REFERENCES user(id),
  -- The channel's first message (Zulip's first_message_id), set when it is sent: reading
  -- min(id) per channel would scan the channel's whole index range.
  first_message_id INTEGER,
  -- Its active subscribers (Zulip's subscriber_count), kept by the triggers on subscription and by
  -- lib/store/users.ts: counting a channel of 100,000 costs milliseconds, and every new user joins
  -- the default channels.
  subscriber_count INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Who is subscribed to which channel. Unsubscribing deletes the row.
CREATE TABLE IF NOT EXISTS subscription (
  user_id INTEGER NOT NULL REFERENCES user(id),
  stream_id INTEGER NOT NULL REFERENCES stream(id),
  color TEXT NOT NULL DEFAULT '#76ce90',
  is_muted INTEGER NOT NULL DEFAULT 0 CHECK (is_muted IN (0, 1)),
  pin_to_top INTEGER NOT NULL DEFAULT 0 CHECK (pin_to_top IN (0, 1)),
  date_subscribed INTEGER NOT NULL,
  -- Per-channel notification settings (POST /users/me/subscriptions/properties); NULL follows
  -- the user's global setting, as Zulip's nullable Subscription fields do.
  desktop_notifications INTEGER CHECK (desktop_notifications IN (0, 1)),
  audible_notifications INTEGER CHECK (audible_notifications IN (0, 1)),
  push_notifications INTEGER CHECK (push_notifications IN (0, 1)),
  email_notifications INTEGER CHECK (email_notifications IN (0, 1)),
  wildcard_mentions_notify INTEGER CHECK (wildcard_mentions_notify IN (0, 1)),
  PRIMARY KEY (user_id, stream_id)
) STRICT, WITHOUT ROWID;
-- Fan-out of a channel message to its subscribers.
CREATE INDEX IF NOT EXISTS subscription_by_stream ON subscription (stream_id, user_id);
-- stream.subscriber_count: a subscription of an active user counts (deactivating or reactivating
-- a user changes the counts of their channels: lib/store/users.ts updateUserActive).
CREATE TRIGGER IF NOT EXISTS subscription_counted AFTER INSERT ON subscription BEGIN
  UPDATE stream SET subscriber_count = subscriber_count + (SELECT is_active FROM user WHERE id = new.user_id) WHERE id = new.stream_id;
END;
CREATE TRIGGER IF NOT EXISTS subscription_uncounted AFTER DELETE ON subscription BEGIN
  UPDATE stream SET subscriber_count = subscriber_count - (SELECT is_active FROM user WHERE id = old.user_id) WHERE id = old.stream_id;
END;
-- The subscribers whose notifications for the channel differ from their global settings (a
-- setting of their own, or the channel muted): what a send reads to decide them
-- (lib/notifications/decide.ts), usually a few rows.
CREATE INDEX IF NOT EXISTS subscription_notification_settings ON subscription (stream_id, user_id)
  WHERE is_muted = 1 OR push_notifications IS NOT NULL OR email_notifications IS NOT NULL OR wildcard_mentions_notify IS NOT NULL;

-- The organization's default channels (Zulip's DefaultStream): new users are subscribed to them.
CREATE TABLE IF NOT EXISTS default_stream (
  stream_id INTEGER PRIMARY KEY REFERENCES stream(id)
) STRICT;

-- Channels a user was subscribed to and left: Zulip's `unsubscribed` list in /register (Zulip
-- keeps an inactive subscription row; parley deletes the row so fan-out never filters).
CREATE TABLE IF NOT EXISTS former_subscription (
  user_id INTEGER NOT NULL REFERENCES user(id),
  stream_id INTEGER NOT NULL REFERENCES stream(id),
  PRIMARY KEY (user_id, stream_id)
) STRICT, WITHOUT ROWID;

-- User groups, enough for @*group* mentions.
CREATE TABLE IF NOT EXISTS user_group (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE COLLATE NOCASE,
  description TEXT NOT NULL DEFAULT '',
  date_created INTEGER NOT NULL,
  creator_id INTEGER REFERENCES user(id)
) STRICT;

-- Zulip's role-based system groups (https://zulip.com/api/group-setting-values#system-groups), made
-- once per database in Zulip's order; their members are the active accounts of each role, read
-- from user (lib/domain/system_groups.ts), never user_group_member rows.
INSERT OR IGNORE INTO user_group (name, description, date_created, creator_id) VALUES
  ('role:owners', 'Owners of this organization', CAST(strftime('%s', 'now') AS INTEGER), NULL),
  ('role:administrators', 'Administrators of this organization, including owners', CAST(strftime('%s', 'now') AS INTEGER), NULL),
  ('role:moderators', 'Moderators of this organization, including administrators', CAST(strftime('%s', 'now') AS INTEGER), NULL),
  ('role:fullmembers', 'Members of this organization, not including new accounts and guests', CAST(strftime('%s', 'now') AS INTEGER), NULL),
  ('role:members', 'Everyone except guests', CAST(strftime('%s', 'now') AS INTEGER), NULL),
  ('role:everyone', 'Everyone including guests', CAST(strftime('%s', 'now') AS INTEGER), NULL),
  ('role:internet', 'Everyone on the internet', CAST(strftime('%s', 'now') AS INTEGER), NULL),
  ('role:nobody', 'Nobody', CAST(strftime('%s', 'now') AS INTEGER), NULL);

-- A group's direct members (@*group* mentions, GET /user_groups, POST /user_groups/{id}/members).
CREATE TABLE IF NOT EXISTS user_group_member (
  group_id INTEGER NOT NULL REFERENCES user_group(id),
  user_id INTEGER NOT NULL REFERENCES user(id),
  PRIMARY KEY (group_id, user_id)
) STRICT, WITHOUT ROWID;
-- A user's groups (GET /user_groups, register state).
CREATE INDEX IF NOT EXISTS user_group_member_by_user ON user_group_member (user_id, group_id);

-- The participants of a direct-message conversation (1:1, self, or group). member_key is the
-- sorted, comma-separated user ids, so one conversation has one row.
CREATE TABLE IF NOT EXISTS direct_group (
  id INTEGER PRIMARY KEY,
  member_key TEXT NOT NULL UNIQUE
) STRICT;

-- The users of a direct-message conversation, one row each (recipients of a direct message).
CREATE TABLE IF NOT EXISTS direct_group_member (
  direct_group_id INTEGER NOT NULL REFERENCES direct_group(id),
  user_id INTEGER NOT NULL REFERENCES user(id),
  PRIMARY KEY (direct_group_id, user_id)
) STRICT, WITHOUT ROWID;

-- Messages. Exactly one of stream_id and direct_group_id is set.
CREATE TABLE IF NOT EXISTS message (
  id INTEGER PRIMARY KEY,
  sender_id INTEGER NOT NULL REFERENCES user(id),
  stream_id INTEGER REFERENCES stream(id),
  direct_group_id INTEGER REFERENCES direct_group(id),
  topic TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  rendered_content TEXT NOT NULL,
  -- JSON [{"text","url"}]: linkifier matches and URLs in the topic (lib/render/topic_links.ts).
  topic_links TEXT NOT NULL DEFAULT '[]',
  date_sent INTEGER NOT NULL,
  last_edit_time INTEGER,
  sending_client TEXT NOT NULL DEFAULT '',
  -- Zulip's has_link, has_image, has_attachment (has: narrows), from the rendered HTML at every
  -- render (lib/render/content_features.ts).
  has_link INTEGER NOT NULL DEFAULT 0,
  has_image INTEGER NOT NULL DEFAULT 0,
  has_attachment INTEGER NOT NULL DEFAULT 0,
  -- 1: sent to a channel of at least ChatOptions.largeChannelSubscribers subscribers, which have it
  -- by their subscription periods (a user_message row only where flags differ); 0: every
  -- recipient has a user_message row.
  by_period INTEGER NOT NULL DEFAULT 0 CHECK (by_period IN (0, 1)),
  CHECK ((stream_id IS NULL) <> (direct_group_id IS NULL))
) STRICT;
-- Channel and topic narrows, topic participants for @**topic**.
CREATE INDEX IF NOT EXISTS message_by_stream_topic ON message (stream_id, topic COLLATE NOCASE, id);
-- Channel narrows in id order (GET /messages over a channel's history), unsubscribing (unread in a channel).
CREATE INDEX IF NOT EXISTS message_by_stream ON message (stream_id, id);
-- Direct-message narrows.
CREATE INDEX IF NOT EXISTS message_by_direct_group ON message (direct_group_id, id);
-- The messages users have by their subscription periods (GET /messages, unread state): a
-- period's range of its channel, without the messages sent with a row per recipient.
CREATE INDEX IF NOT EXISTS message_by_period ON message (stream_id, id) WHERE by_period = 1;
-- Sender narrows and topic participants.
CREATE INDEX IF NOT EXISTS message_by_sender ON message (sender_id, id);

-- Full-text index of each message's topic and Markdown source (search: narrows,
-- lib/domain/search.ts), rowid = message.id. An external-content table: the text stays in message
-- only. The triggers keep it in the transaction of every insert, edit and delete of a message,
-- whoever writes it. stream_id is indexed too (one token, the channel's id): a search within a
-- channel ANDs it with the words, so FTS5 skips to that channel's matches instead of walking the
-- organization's (lib/store/message_query.ts). The prefix indexes serve words of 2 to 6 letters
-- matched as prefixes ("word"*, every search word) without reading every matching term first.
CREATE VIRTUAL TABLE IF NOT EXISTS message_fts USING fts5(
  topic, content, stream_id, content = 'message', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3 4 5 6'
);
CREATE TRIGGER IF NOT EXISTS message_fts_insert AFTER INSERT ON message BEGIN
  INSERT INTO message_fts (rowid, topic, content, stream_id) VALUES (new.id, new.topic, new.content, new.stream_id);
END;
CREATE TRIGGER IF NOT EXISTS message_fts_delete AFTER DELETE ON message BEGIN
  INSERT INTO message_fts (message_fts, rowid, topic, content, stream_id) VALUES ('delete', old.id, old.topic, old.content, old.stream_id);
END;
CREATE TRIGGER IF NOT EXISTS message_fts_update AFTER UPDATE OF topic, content, stream_id ON message BEGIN
  INSERT INTO message_fts (message_fts, rowid, topic, content, stream_id) VALUES ('delete', old.id, old.topic, old.content, old.stream_id);
  INSERT INTO message_fts (rowid, topic, content, stream_id) VALUES (new.id, new.topic, new.content, new.stream_id);
END;

-- The highest message id ever handed out once the newest message was deleted (SQLite would give
-- its id again): message ids never go back, so a subscription_period's bounds keep their meaning.
-- One row; id is always 1. lib/store/messages.ts gives each new message the next id after both.
CREATE TABLE IF NOT EXISTS message_sequence (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  last_id INTEGER NOT NULL
) STRICT;
CREATE TRIGGER IF NOT EXISTS message_sequence_kept AFTER DELETE ON message BEGIN
  INSERT INTO message_sequence (id, last_id) VALUES (1, old.id) ON CONFLICT (id) DO UPDATE SET last_id = max(last_id, excluded.last_id);
END;

-- What a user received by being subscribed to a channel: one row per period during which the
-- user, active and subscribed, received every message of the channel, the ids from
-- first_message_id to before end_message_id (NULL while the period lasts). Such a message has no
-- user_message row unless its flags differ from the period's default, which is read for the ids
-- up to read_through and unread after (lib/store/subscription_periods.ts): a message to a channel
-- of 100,000 writes no row per subscriber, and a user who reads in order moves read_through.
-- Opened and closed by the triggers below on subscribing and leaving (for any writer), and by
-- lib/store/users.ts on deactivating and reactivating.
CREATE TABLE IF NOT EXISTS subscription_period (
  user_id INTEGER NOT NULL REFERENCES user(id),
  stream_id INTEGER NOT NULL REFERENCES stream(id),
  first_message_id INTEGER NOT NULL,
  end_message_id INTEGER,
  read_through INTEGER NOT NULL,
  PRIMARY KEY (user_id, stream_id, first_message_id)
) STRICT, WITHOUT ROWID;
-- Who received a channel message: the periods of its channel that began by it.
CREATE INDEX IF NOT EXISTS subscription_period_by_stream ON subscription_period (stream_id, first_message_id);
CREATE TRIGGER IF NOT EXISTS subscription_period_opened AFTER INSERT ON subscription
WHEN (SELECT is_active FROM user WHERE id = new.user_id) = 1 BEGIN
  INSERT OR REPLACE INTO subscription_period (user_id, stream_id, first_message_id, end_message_id, read_through)
  SELECT new.user_id, new.stream_id, next, NULL, next - 1
  FROM (SELECT max(coalesce((SELECT max(id) FROM message), 0), coalesce((SELECT last_id FROM message_sequence WHERE id = 1), 0)) + 1 AS next);
END;
CREATE TRIGGER IF NOT EXISTS subscription_period_closed AFTER DELETE ON subscription BEGIN
  UPDATE subscription_period SET end_message_id = (
    SELECT max(coalesce((SELECT max(id) FROM message), 0), coalesce((SELECT last_id FROM message_sequence WHERE id = 1), 0)) + 1)
  WHERE user_id = old.user_id AND stream_id = old.stream_id AND end_message_id IS NULL;
  DELETE FROM subscription_period WHERE user_id = old.user_id AND stream_id = old.stream_id AND end_message_id = first_message_id;
END;

-- One row per (user, message) that is not a subscription_period's default: every recipient of a
-- direct message; for a channel message, a recipient whose flags differ from their period's
-- default (mentioned, starred, read out of order, alert words, the sender's own), and a user who
-- has the message without a period (historical rows, mentioned bots that are not subscribed).
-- The personal flags as bits in Zulip's order: 0 read, 1 starred, 2 collapsed, 3 mentioned,
-- 4 stream_wildcard_mentioned, 5 topic_wildcard_mentioned, 6 group_mentioned, 7 force_expand,
-- 8 force_collapse, 9 has_alert_word, 10 historical, 11 is_private,
-- 12 active_mobile_push_notification. Starred is a row of starred_message, never bit 1 of
-- `flags` (always 0). Reads report `flags | (starred_message row exists) << 1`.
CREATE TABLE IF NOT EXISTS user_message (
  user_id INTEGER NOT NULL REFERENCES user(id),
  message_id INTEGER NOT NULL REFERENCES message(id),
  flags INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (user_id, message_id)
) STRICT, WITHOUT ROWID;
-- Recomputing mention and alert-word flags for every recipient of an edited message.
CREATE INDEX IF NOT EXISTS user_message_by_message ON user_message (message_id);
-- unread_msgs in /register, is:unread narrows, first_unread anchors.
CREATE INDEX IF NOT EXISTS user_message_unread ON user_message (user_id, message_id) WHERE (flags & 1) = 0;
-- recent_private_conversations in /register: the user's newest direct messages (is_private).
CREATE INDEX IF NOT EXISTS user_message_private ON user_message (user_id, message_id) WHERE (flags & 2048) <> 0;
-- The messages a user's phones show a push notification for (active_mobile_push_notification),
-- to withdraw once read or deleted (lib/notifications/push.ts): a few rows per user.
CREATE INDEX IF NOT EXISTS user_message_push_active ON user_message (user_id, message_id) WHERE (flags & 4096) <> 0;

-- The starred flag: one row per (user, message) the user starred, for is:starred narrows,
-- starred_messages in /register and the flag in every read of user_message. A star or unstar is
-- one INSERT or DELETE here: it writes this table's page and no page of user_message or of its
-- partial indexes on `flags` (an UPDATE rewrites a row's entry in every partial index whose WHERE
-- reads an assigned column). The foreign key cascades rather than each delete of user_message
-- rows deleting here too: no delete path (today one message's rows; any added later) can leave an
-- orphan, and the cascade looks rows up by this primary key, so no index on message_id is needed.
-- Starring also relies on it: a star of a message the user has no row for fails the key, which
-- is how the flags operation learns it must create a historical row.
CREATE TABLE IF NOT EXISTS starred_message (
  user_id INTEGER NOT NULL,
  message_id INTEGER NOT NULL,
  PRIMARY KEY (user_id, message_id),
  FOREIGN KEY (user_id, message_id) REFERENCES user_message (user_id, message_id) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

-- Emoji reactions: one row per (message, user, emoji). reaction_type is Zulip's
-- (unicode_emoji, realm_emoji, zulip_extra_emoji); emoji_code is unique within its type.
CREATE TABLE IF NOT EXISTS reaction (
  id INTEGER PRIMARY KEY,
  message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES user(id),
  emoji_name TEXT NOT NULL,
  emoji_code TEXT NOT NULL,
  reaction_type TEXT NOT NULL,
  UNIQUE (message_id, user_id, reaction_type, emoji_code)
) STRICT;
-- The unique key answers "has the user reacted with this emoji"; reactions of a message (message
-- dicts, has:reaction narrows) read the same index by its message_id prefix.

-- Message edit history (Zulip's Message.edit_history): one row per edit or move of a message, by
-- whom and when, with what it changed (NULL columns: unchanged). Deleting the message deletes it.
CREATE TABLE IF NOT EXISTS message_edit (
  id INTEGER PRIMARY KEY,
  message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES user(id),
  timestamp INTEGER NOT NULL,
  prev_content TEXT,
  prev_rendered_content TEXT,
  prev_topic TEXT,
  topic TEXT,
  CHECK ((prev_content IS NULL) = (prev_rendered_content IS NULL)),
  CHECK ((prev_topic IS NULL) = (topic IS NULL))
) STRICT;
-- GET /messages/{id}/history and edit_history in message objects (one message, or a page of them).
CREATE INDEX IF NOT EXISTS message_edit_by_message ON message_edit (message_id, id);

-- Alert words: one row per user and word (original casing kept; matched case-insensitively).
-- id gives insertion order, which GET /users/me/alert_words reports.
CREATE TABLE IF NOT EXISTS alert_word (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES user(id),
  word TEXT NOT NULL
) STRICT;
-- One word per user, case-insensitively.
CREATE UNIQUE INDEX IF NOT EXISTS alert_word_by_user ON alert_word (user_id, lower(word));

-- The organization-wide alert-word matcher message sends keep (lib/domain/message_render.ts).
CREATE TRIGGER IF NOT EXISTS alert_word_inserted AFTER INSERT ON alert_word BEGIN
  INSERT INTO cache_version (name, version) VALUES ('alert_word', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS alert_word_updated AFTER UPDATE ON alert_word BEGIN
  INSERT INTO cache_version (name, version) VALUES ('alert_word', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS alert_word_deleted AFTER DELETE ON alert_word BEGIN
  INSERT INTO cache_version (name, version) VALUES ('alert_word', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;

------------------------------------------------------------------------------------------------
-- User status and custom emoji (lib/domain/user_status.ts, lib/domain/realm_emoji.ts)
------------------------------------------------------------------------------------------------

-- One status per user (Zulip's UserStatus), created on the first status update and never deleted:
-- clearing stores empty strings. The deprecated `away` flag lives in user.presence_enabled.
CREATE TABLE IF NOT EXISTS user_status (
  user_id INTEGER PRIMARY KEY REFERENCES user(id),
  status_text TEXT NOT NULL DEFAULT '',
  -- '' when the status has no emoji (emoji_code is then '' and reaction_type 'unicode_emoji').
  emoji_name TEXT NOT NULL DEFAULT '',
  emoji_code TEXT NOT NULL DEFAULT '',
  -- The built-in extra emoji's type is kept as the request spelled it ('service_extra_emoji', or
  -- Zulip's 'zulip_extra_emoji'), and reported in that spelling.
  reaction_type TEXT NOT NULL DEFAULT 'unicode_emoji'
    CHECK (reaction_type IN ('unicode_emoji', 'realm_emoji', 'service_extra_emoji', 'zulip_extra_emoji')),
  updated_at INTEGER NOT NULL
) STRICT;

-- Presence (Zulip's UserPresence; lib/domain/presence.ts): one row per user who ever reported it,
-- never deleted. Times are unix seconds; last_active_time is NULL until the user reports "active".
-- last_update_id is max(last_update_id) + 1 at each change, so a client that passes the newest id
-- it saw (POST /users/me/presence last_update_id) gets only the rows changed since.
CREATE TABLE IF NOT EXISTS presence (
  user_id INTEGER PRIMARY KEY REFERENCES user(id),
  last_active_time INTEGER,
  last_connected_time INTEGER NOT NULL,
  last_update_id INTEGER NOT NULL
) STRICT;
-- The next last_update_id (max), and the rows changed after a client's last_update_id.
CREATE INDEX IF NOT EXISTS presence_by_update_id ON presence (last_update_id);

-- Custom emoji (Zulip's RealmEmoji) with their images. Removing one only deactivates it: old
-- messages, reactions and statuses still show it, so the row and the image stay.
CREATE TABLE IF NOT EXISTS realm_emoji (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  author_id INTEGER REFERENCES user(id),
  deactivated INTEGER NOT NULL DEFAULT 0 CHECK (deactivated IN (0, 1)),
  -- <random hex>.<ext>: the last part of source_url, not guessable from the id (the image route
  -- needs no credentials, like Zulip's salted names).
  file_name TEXT NOT NULL UNIQUE,
  -- image/png, image/gif, image/jpeg, image/webp or image/avif, as sniffed from the content.
  content_type TEXT NOT NULL,
  image BLOB NOT NULL,
  date_created INTEGER NOT NULL
) STRICT;
-- One active emoji per name: uploads refuse a taken name; status and reaction lookups by name.
CREATE UNIQUE INDEX IF NOT EXISTS realm_emoji_active_name ON realm_emoji (name) WHERE deactivated = 0;

------------------------------------------------------------------------------------------------
-- Linkifiers (lib/domain/linkifiers.ts)
------------------------------------------------------------------------------------------------

-- The organization's linkifiers (Zulip's RealmFilter): GET /realm/linkifiers lists them by
-- (sort_order, id), the order lib/render/linkifiers.ts applies them in.
CREATE TABLE IF NOT EXISTS linkifier (
  id INTEGER PRIMARY KEY,
  -- An RE2 pattern, stored stripped. UNIQUE backs the domain's duplicate check.
  pattern TEXT NOT NULL UNIQUE,
  -- An RFC 6570 template whose variables are exactly the pattern's named groups.
  url_template TEXT NOT NULL,
  -- NULL when absent (an empty string is stored as NULL).
  example_input TEXT,
  reverse_template TEXT,
  -- JSON list of RFC 6570 templates (reverse linkification in clients only).
  alternative_url_templates TEXT NOT NULL DEFAULT '[]',
  -- Zulip's `order`: max + 1 on creation, the list index after a reorder; ties go by id.
  sort_order INTEGER NOT NULL DEFAULT 0
) STRICT;
-- GET /realm/linkifiers, the realm_linkifiers event and rendering read in this order.
CREATE INDEX IF NOT EXISTS linkifier_by_order ON linkifier (sort_order, id);

-- The compiled linkifiers rendering keeps (lib/render/linkifiers.ts).
CREATE TRIGGER IF NOT EXISTS linkifier_inserted AFTER INSERT ON linkifier BEGIN
  INSERT INTO cache_version (name, version) VALUES ('linkifier', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS linkifier_updated AFTER UPDATE ON linkifier BEGIN
  INSERT INTO cache_version (name, version) VALUES ('linkifier', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS linkifier_deleted AFTER DELETE ON linkifier BEGIN
  INSERT INTO cache_version (name, version) VALUES ('linkifier', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;

------------------------------------------------------------------------------------------------
-- Navigation views, drafts (lib/domain/navigation_views.ts, lib/domain/drafts.ts)
------------------------------------------------------------------------------------------------

-- A user's left-sidebar views: a setting for a built-in view (name NULL, fragment in the
-- built-in list of lib/domain/navigation_views.ts) or a custom view (with a name).
-- id gives insertion order, which GET /navigation_views reports.
CREATE TABLE IF NOT EXISTS navigation_view (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES user(id),
  fragment TEXT NOT NULL,
  is_pinned INTEGER NOT NULL DEFAULT 0 CHECK (is_pinned IN (0, 1)),
  name TEXT
) STRICT;
-- Lookups by fragment (PATCH/DELETE /navigation_views/{fragment}); one view per fragment and user.
CREATE UNIQUE INDEX IF NOT EXISTS navigation_view_by_fragment ON navigation_view (user_id, fragment);
-- The name check of POST/PATCH (exact, case-sensitive, as Zulip); NULL names never collide.
CREATE UNIQUE INDEX IF NOT EXISTS navigation_view_by_name ON navigation_view (user_id, name);

-- Saved message drafts, synchronized between a user's clients. type is 'stream', 'private' or ''
-- (unaddressed); to_ids is the JSON list the API shows as `to`: [channel id], the recipients
-- without the owner (only the owner for a self-DM), or [].
CREATE TABLE IF NOT EXISTS draft (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES user(id),
  type TEXT NOT NULL CHECK (type IN ('stream', 'private', '')),
  to_ids TEXT NOT NULL DEFAULT '[]',
  topic TEXT NOT NULL DEFAULT '',
  content TEXT NOT NULL,
  -- REAL: unix seconds with microseconds (Zulip's last_edit_time); the API shows it truncated.
  last_edit_time REAL NOT NULL
) STRICT;
-- GET /drafts (oldest edit first) and the /register state (newest first).
CREATE INDEX IF NOT EXISTS draft_by_user ON draft (user_id, last_edit_time);

------------------------------------------------------------------------------------------------
-- Client devices and E2EE push registration (lib/domain/push.ts)
------------------------------------------------------------------------------------------------

-- A user's logged-in client devices (POST /register_client_device) and their E2EE push
-- registration (POST /mobile_push/register, lib/domain/push.ts). A device is pending while
-- pending_push_token_id is set without an error code, active once push_token_id is set, failed
-- when push_registration_error_code is set.
CREATE TABLE IF NOT EXISTS device (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES user(id),
  -- 33 bytes: 0x31 (libsodium crypto_secretbox_easy) then the 32-byte secret key. Never logged.
  push_key BLOB CHECK (push_key IS NULL OR length(push_key) = 33),
  -- The client's uint32 name for push_key, sent with every payload so the phone picks the key.
  push_key_id INTEGER,
  -- Token ids are canonical standard Base64 of 8 bytes (the first 8 bytes of SHA-256(token)).
  -- The token the bouncer has confirmed; the test notification goes to devices where it is set.
  push_token_id TEXT,
  -- The token being registered with the bouncer.
  pending_push_token_id TEXT,
  push_token_kind TEXT CHECK (push_token_kind IN ('fcm', 'apns')),
  -- When pending_push_token_id was last set.
  push_token_last_updated_timestamp INTEGER,
  -- The bouncer's error code when the registration failed; NULL while pending or once active.
  push_registration_error_code TEXT,
  -- The registration being forwarded to the bouncer (a push_registration delivery,
  -- lib/domain/push_bouncer.ts), kept until it succeeds or fails. Both are opaque to this server.
  bouncer_public_key TEXT,
  encrypted_push_registration TEXT,
  date_created INTEGER NOT NULL
) STRICT;
-- The devices state of POST /register and the test notification's "devices with a token".
CREATE INDEX IF NOT EXISTS device_by_user ON device (user_id, id);
-- Who has a phone to push to is kept in memory (lib/notifications/decide.ts) while cache_version
-- 'device' stays where it is.
CREATE TRIGGER IF NOT EXISTS device_inserted AFTER INSERT ON device BEGIN
  INSERT INTO cache_version (name, version) VALUES ('device', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS device_updated AFTER UPDATE OF push_token_id ON device BEGIN
  INSERT INTO cache_version (name, version) VALUES ('device', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS device_deleted AFTER DELETE ON device BEGIN
  INSERT INTO cache_version (name, version) VALUES ('device', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;

------------------------------------------------------------------------------------------------
-- Deliveries (lib/deliveries/): what leaves the process after a commit
------------------------------------------------------------------------------------------------

-- The one outbox of everything sent out of the process: a registration forwarded to the push
-- bouncer, a push notification, an email, a call of the embedding application's hook. A domain
-- transaction decides it and writes the row; lib/deliveries/runner.ts sends it after the commit,
-- retries it with back-off, and deletes it once it succeeded or failed for good. A row that a
-- rolled-back transaction wrote never existed; a row survives a crash and is sent by the next
-- server on the database.
CREATE TABLE IF NOT EXISTS delivery (
  id INTEGER PRIMARY KEY,
  -- Which DeliveryKind sends it (lib/deliveries/outbox.ts): 'push_registration', 'email', ...
  kind TEXT NOT NULL,
  -- At most one pending delivery per (kind, key): a later decision joins the pending one (one
  -- missed-message batch per user) or replaces it. NULL: no such limit.
  key TEXT,
  -- The kind's JSON.
  payload TEXT NOT NULL,
  -- Milliseconds: when it is next due. While a process sends it, the end of that process's lease
  -- (the kind's timeout and a margin), so that a crashed sender's rows come due again.
  due_at INTEGER NOT NULL,
  -- The random number of the attempt under way; NULL when none is. Outcomes are written only by
  -- the attempt that still holds the row, so a row succeeds at most once.
  claim INTEGER,
  -- Attempts started (the retry delays are counted on it).
  attempts INTEGER NOT NULL DEFAULT 0,
  -- Why the last attempt did not succeed (no secrets: a code or a short reason).
  last_error TEXT,
  -- Milliseconds.
  created_at INTEGER NOT NULL
) STRICT;
-- The runner's "what is due now" and "when is the next one due".
CREATE INDEX IF NOT EXISTS delivery_by_due ON delivery (due_at);
-- One pending delivery per key.
CREATE UNIQUE INDEX IF NOT EXISTS delivery_by_key ON delivery (kind, key) WHERE key IS NOT NULL;

-- Messages a user missed that their next missed-message email may include (Zulip's
-- ScheduledMessageNotificationEmail): written when the message is sent, read when the user's
-- batching period ends (a missed_message_email delivery keyed by the user), then deleted.
CREATE TABLE IF NOT EXISTS missed_message_email (
  user_id INTEGER NOT NULL REFERENCES user(id),
  message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
  -- Zulip's NotificationTriggers value that decided the email ('direct_message', 'mentioned', ...).
  trigger TEXT NOT NULL,
  -- The mentioned group the email names instead of "you" (the smallest one), if any.
  mentioned_group_id INTEGER,
  PRIMARY KEY (user_id, message_id)
) STRICT, WITHOUT ROWID;

------------------------------------------------------------------------------------------------
-- Web Push (lib/domain/web_push.ts, lib/notifications/web_push.ts): notifications to browsers
-- whose parley tab is closed
------------------------------------------------------------------------------------------------

-- The VAPID key pair push services know this server by (RFC 8292): made once, when a browser
-- first asks for the public key (GET /web_push/key). base64url: the uncompressed P-256 point (65
-- bytes) and the private scalar (32 bytes). The private key is never logged nor answered. One
-- row; id is always 1.
CREATE TABLE IF NOT EXISTS web_push_vapid_key (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  public_key TEXT NOT NULL,
  private_key TEXT NOT NULL
) STRICT;

-- A browser's push subscription (the PushSubscription a browser gave when its user turned
-- "Notify this browser when the tab is closed" on): the push service's URL for it and the keys
-- its notifications are encrypted to (RFC 8291). One per browser profile: the same endpoint
-- registered again (another user signing in there) moves to the new user.
CREATE TABLE IF NOT EXISTS web_push_subscription (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES user(id),
  -- An https: URL of the browser's push service.
  endpoint TEXT NOT NULL UNIQUE,
  -- base64url: the browser's P-256 public key (65 bytes) and its authentication secret (16 bytes).
  p256dh TEXT NOT NULL,
  auth TEXT NOT NULL,
  -- Milliseconds; the oldest of a user's subscriptions goes when there are too many.
  created_at INTEGER NOT NULL
) STRICT;
-- A user's browsers: the notifications of a message, and the limit per user.
CREATE INDEX IF NOT EXISTS web_push_subscription_by_user ON web_push_subscription (user_id, created_at);
-- Who has a browser to notify is kept in memory (lib/notifications/decide.ts) while cache_version
-- 'web_push' stays where it is.
CREATE TRIGGER IF NOT EXISTS web_push_subscription_inserted AFTER INSERT ON web_push_subscription BEGIN
  INSERT INTO cache_version (name, version) VALUES ('web_push', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS web_push_subscription_updated AFTER UPDATE OF user_id ON web_push_subscription BEGIN
  INSERT INTO cache_version (name, version) VALUES ('web_push', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS web_push_subscription_deleted AFTER DELETE ON web_push_subscription BEGIN
  INSERT INTO cache_version (name, version) VALUES ('web_push', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;

------------------------------------------------------------------------------------------------
-- Server secrets (lib/domain/external_content.ts)
------------------------------------------------------------------------------------------------

-- The key that signs image proxy URLs (/external_content/<HMAC-SHA1 digest>/<hex URL>, Zulip's
-- camo scheme): 32 random bytes made once, on the first start with the proxy on. Never logged
-- nor answered by any endpoint. One row; id is always 1.
CREATE TABLE IF NOT EXISTS image_proxy_key (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  key BLOB NOT NULL CHECK (length(key) >= 16)
) STRICT;

------------------------------------------------------------------------------------------------
-- Uploaded files, bot storage and bot services (lib/domain/uploads.ts, attachments.ts, bot_storage.ts, bot_services.ts)
------------------------------------------------------------------------------------------------

-- A file a user uploaded (Zulip's Attachment): path_id is its URL below /user_uploads/
-- ("1/ab/<random>/<sanitized name>"), file_name the name it was uploaded with, create_time in
-- milliseconds. Its bytes are the attachment_chunk rows.
CREATE TABLE IF NOT EXISTS attachment (
  -- Never reused (a download streaming a deleted file must not continue with another's bytes).
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  path_id TEXT NOT NULL UNIQUE,
  file_name TEXT NOT NULL,
  owner_id INTEGER NOT NULL REFERENCES user(id),
  size INTEGER NOT NULL CHECK (size >= 0),
  content_type TEXT NOT NULL,
  create_time INTEGER NOT NULL
) STRICT;
-- GET /attachments lists one owner's files.
CREATE INDEX IF NOT EXISTS attachment_owner ON attachment (owner_id);

-- An uploaded file's bytes in pieces of at most 1 MiB, seq 0, 1, ...: a file is written and read
-- one piece at a time, never whole in memory. Deleting the attachment deletes them.
CREATE TABLE IF NOT EXISTS attachment_chunk (
  id INTEGER PRIMARY KEY,
  attachment_id INTEGER NOT NULL REFERENCES attachment(id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  data BLOB NOT NULL,
  UNIQUE (attachment_id, seq)
) STRICT;

-- Which messages link an uploaded file (Zulip's Attachment.messages, claim_attachment): who may
-- download it besides its owner. Deleting the message or the file deletes the row.
CREATE TABLE IF NOT EXISTS attachment_message (
  attachment_id INTEGER NOT NULL REFERENCES attachment(id) ON DELETE CASCADE,
  message_id INTEGER NOT NULL REFERENCES message(id) ON DELETE CASCADE,
  PRIMARY KEY (attachment_id, message_id)
) STRICT, WITHOUT ROWID;
-- Editing or deleting a message finds its claims.
CREATE INDEX IF NOT EXISTS attachment_message_message ON attachment_message (message_id);

-- The key that signs temporary download URLs (/user_uploads/temporary/<token>/<name>): 32 random
-- bytes made on the first request for one. Never logged nor answered. One row; id is always 1.
CREATE TABLE IF NOT EXISTS upload_url_key (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  key BLOB NOT NULL CHECK (length(key) >= 16)
) STRICT;

-- A bot's key-value storage (Zulip's BotStorageData, GET/PUT/DELETE /bot_storage).
CREATE TABLE IF NOT EXISTS bot_storage (
  user_id INTEGER NOT NULL REFERENCES user(id),
  key TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (user_id, key)
) STRICT, WITHOUT ROWID;

-- An outgoing webhook or embedded bot's service (Zulip's Service; one per bot, as Zulip allows):
-- where an outgoing webhook bot's triggering messages are POSTed (base_url, may be empty), in which
-- format (interface: 1 Zulip's, 2 Slack-compatible) and the token the bot's server checks them by.
-- The token is sent with every request and shown to the bot's owners (realm_bots), so it is kept as
-- it is, like API keys (lib/domain/bot_services.ts).
CREATE TABLE IF NOT EXISTS bot_service (
  id INTEGER PRIMARY KEY,
  bot_id INTEGER NOT NULL REFERENCES user(id),
  name TEXT NOT NULL,
  base_url TEXT NOT NULL,
  token TEXT NOT NULL,
  interface INTEGER NOT NULL CHECK (interface IN (1, 2))
) STRICT;
-- A bot's services (realm_bots, the triggers of outgoing webhooks).
CREATE INDEX IF NOT EXISTS bot_service_by_bot ON bot_service (bot_id);

-- When a bot's owner was last told that the bot sent to a channel that does not exist or has no
-- subscribers (Zulip's UserProfile.last_reminder for bots): at most one notice per 5 minutes
-- (lib/integrations/incoming.ts).
CREATE TABLE IF NOT EXISTS bot_owner_notice (
  bot_id INTEGER PRIMARY KEY REFERENCES user(id),
  last_sent INTEGER NOT NULL
) STRICT;

------------------------------------------------------------------------------------------------
-- Personal settings and muting (lib/domain/user_settings.ts, user_topics.ts, muted_users.ts)
------------------------------------------------------------------------------------------------

-- A user's settings of Zulip's user_settings that differ from Zulip's defaults (PATCH /settings);
-- value is JSON. presence_enabled, enable_drafts_synchronization, timezone and
-- email_address_visibility live on user. Read whole per user by /register.
CREATE TABLE IF NOT EXISTS user_setting (
  user_id INTEGER NOT NULL REFERENCES user(id),
  name TEXT NOT NULL,
  value TEXT NOT NULL,
  PRIMARY KEY (user_id, name)
) STRICT, WITHOUT ROWID;
-- The notification settings every send reads (lib/notifications/settings.ts) are kept in memory
-- while cache_version 'user_setting' stays where it is.
CREATE TRIGGER IF NOT EXISTS user_setting_inserted AFTER INSERT ON user_setting BEGIN
  INSERT INTO cache_version (name, version) VALUES ('user_setting', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS user_setting_updated AFTER UPDATE ON user_setting BEGIN
  INSERT INTO cache_version (name, version) VALUES ('user_setting', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;
CREATE TRIGGER IF NOT EXISTS user_setting_deleted AFTER DELETE ON user_setting BEGIN
  INSERT INTO cache_version (name, version) VALUES ('user_setting', random()) ON CONFLICT (name) DO UPDATE SET version = excluded.version;
END;

-- Zulip's UserTopic: a user's visibility policy for a topic (1 muted, 2 unmuted, 3 followed; no
-- row is 0, inherit). Topics match case-insensitively, as messages' topics do in narrows; the
-- spelling first given is kept. Read by /register, narrows (is:muted, is:followed) and unread counts.
CREATE TABLE IF NOT EXISTS user_topic (
  user_id INTEGER NOT NULL REFERENCES user(id),
  stream_id INTEGER NOT NULL REFERENCES stream(id),
  topic TEXT NOT NULL COLLATE NOCASE,
  visibility_policy INTEGER NOT NULL CHECK (visibility_policy IN (1, 2, 3)),
  -- Unix seconds of the last change.
  last_updated INTEGER NOT NULL,
  PRIMARY KEY (user_id, stream_id, topic)
) STRICT, WITHOUT ROWID;
-- Who follows or muted the topic a message is sent to (lib/notifications/decide.ts).
CREATE INDEX IF NOT EXISTS user_topic_by_topic ON user_topic (stream_id, topic);

-- Zulip's MutedUser: user_id muted muted_user_id at date_muted (unix seconds).
CREATE TABLE IF NOT EXISTS muted_user (
  user_id INTEGER NOT NULL REFERENCES user(id),
  muted_user_id INTEGER NOT NULL REFERENCES user(id),
  date_muted INTEGER NOT NULL,
  PRIMARY KEY (user_id, muted_user_id)
) STRICT, WITHOUT ROWID;
-- Who muted a sender: their copies of its new messages arrive read (lib/domain/message_send.ts).
CREATE INDEX IF NOT EXISTS muted_user_by_muted ON muted_user (muted_user_id, user_id);

------------------------------------------------------------------------------------------------
-- Ways in and accounts (lib/accounts/): web sessions, invitations, links sent by email
------------------------------------------------------------------------------------------------

-- The web client's sessions (lib/accounts/sessions.ts): the browser holds a random token in an
-- HttpOnly cookie and parley keeps only its SHA-256, looked up on each request the cookie comes
-- with. A session ends by losing its row: sign-out, revocation in settings, the account's
-- deactivation, a password change (the other sessions) or reset (all of them), its expiry.
CREATE TABLE IF NOT EXISTS web_session (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES user(id),
  token_hash BLOB NOT NULL UNIQUE,
  created_at INTEGER NOT NULL,
  -- Brought forward at most once a minute by the requests that use it.
  last_used_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  -- The browser that signed in, as it named itself (shown in the list of sessions).
  user_agent TEXT NOT NULL DEFAULT ''
) STRICT;
-- A user's sessions: listing them, ending them all.
CREATE INDEX IF NOT EXISTS web_session_by_user ON web_session (user_id);

-- Invitations (Zulip's PreregistrationUser with a referrer, and MultiuseInvite): an email
-- invitation names its address; a reusable link (multiuse) has none and is never used up.
CREATE TABLE IF NOT EXISTS invitation (
  id INTEGER PRIMARY KEY,
  email TEXT COLLATE NOCASE,
  invited_by INTEGER NOT NULL REFERENCES user(id),
  invited_as INTEGER NOT NULL CHECK (invited_as IN (100, 200, 300, 400, 600)),
  include_realm_default_subscriptions INTEGER NOT NULL CHECK (include_realm_default_subscriptions IN (0, 1)),
  notify_referrer_on_join INTEGER NOT NULL CHECK (notify_referrer_on_join IN (0, 1)),
  created_at INTEGER NOT NULL,
  -- NULL: never expires.
  expires_at INTEGER,
  -- 0 pending, 1 used (the account was made), 2 revoked (by its referrer or an administrator,
  -- or because the address joined through another invitation).
  status INTEGER NOT NULL DEFAULT 0 CHECK (status IN (0, 1, 2)),
  created_user_id INTEGER REFERENCES user(id)
) STRICT;
-- The pending invitations of an address (revoked when it joins).
CREATE INDEX IF NOT EXISTS invitation_by_email ON invitation (email) WHERE email IS NOT NULL;
-- The invitations sent in the last day (the organization's daily limit).
CREATE INDEX IF NOT EXISTS invitation_by_created ON invitation (created_at);

-- The channels an invitation's account joins.
CREATE TABLE IF NOT EXISTS invitation_stream (
  invitation_id INTEGER NOT NULL REFERENCES invitation(id),
  stream_id INTEGER NOT NULL REFERENCES stream(id),
  PRIMARY KEY (invitation_id, stream_id)
) STRICT, WITHOUT ROWID;

-- Links sent by email (Zulip's Confirmation): an invitation's, a reusable invitation link's, a
-- sign-up's address confirmation, a password reset's, a new email address's. The link carries a
-- random key; only its SHA-256 is kept, so a link cannot be rebuilt from the database. A request
-- that sent no link (a password reset for an address without an account) keeps a row without a
-- key: the rows of the last day are what the per-address, per-account and per-client-address
-- limits count (lib/accounts/links.ts), and older spent ones are removed as new ones come.
CREATE TABLE IF NOT EXISTS confirmation (
  id INTEGER PRIMARY KEY,
  key_hash BLOB UNIQUE,
  kind TEXT NOT NULL CHECK (kind IN ('invitation', 'multiuse_invite', 'registration', 'password_reset', 'email_change')),
  -- The address the link was sent to (the new one for an email change); '' for a reusable link.
  email TEXT NOT NULL COLLATE NOCASE,
  invitation_id INTEGER REFERENCES invitation(id),
  -- The account a reset or email change is for.
  user_id INTEGER REFERENCES user(id),
  -- The client address that asked (public requests), '' otherwise.
  ip TEXT NOT NULL DEFAULT '',
  created_at INTEGER NOT NULL,
  -- NULL: never expires (an invitation made so).
  expires_at INTEGER,
  -- Set when a single-use link is followed, or when it is replaced or revoked.
  used_at INTEGER
) STRICT;
-- Requests per address and kind (the limits); an invitation's links; a user's resets and changes.
CREATE INDEX IF NOT EXISTS confirmation_by_email ON confirmation (email, kind, created_at);
CREATE INDEX IF NOT EXISTS confirmation_by_invitation ON confirmation (invitation_id) WHERE invitation_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS confirmation_by_user ON confirmation (user_id, kind) WHERE user_id IS NOT NULL;
CREATE INDEX IF NOT EXISTS confirmation_by_ip ON confirmation (ip, created_at) WHERE ip <> '';
