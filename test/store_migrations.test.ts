// Each schema version's migration of a database written by today's code and taken back to that
// version's layout: its rows are kept and read as before. The database is the test driver's
// (test/libsql/store_migrations.test.ts runs this file on libsql).
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { SCHEMA_VERSION } from '../lib/store/migrations.js';
import { FLAG } from '../lib/domain/flags.js';
import { contextOf } from '../lib/context.js';
import { open, pragma, tempFile } from './store_helpers.js';

// Back to version 3: no Web Push tables (21), no delivery outbox, missed-message entries, notification indexes or cache triggers (19), starred in bit 1 of user_message.flags, no starred_message table (17, 16), the event_by_user index (dropped by 15), no subscription notification columns or default_stream table (14), no user_setting, user_topic or muted_user tables (12), no upload or bot storage tables (11), no realm.url_chosen (10), no presence table (6), no email address visibility columns (5), no reaction or image proxy tables (4).
const STARRED_ROW = 'EXISTS (SELECT 1 FROM starred_message sm WHERE sm.user_id = user_message.user_id AND sm.message_id = user_message.message_id)';
const TO_VERSION_3 = `DROP TABLE web_push_subscription;
    DROP TABLE web_push_vapid_key;
    DROP TABLE delivery;
    DROP TABLE missed_message_email;
    DROP INDEX subscription_notification_settings;
    DROP INDEX user_message_push_active;
    DROP TRIGGER device_inserted; DROP TRIGGER device_updated; DROP TRIGGER device_deleted;
    DROP TRIGGER user_bot_inserted; DROP TRIGGER user_bot_updated;
    UPDATE user_message SET flags = flags | 2 WHERE ${STARRED_ROW};
    DROP TABLE starred_message;
    CREATE INDEX user_message_starred ON user_message (user_id, message_id) WHERE (flags & 2) <> 0;
    CREATE INDEX event_by_user ON event (user_id, id);
    ALTER TABLE subscription DROP COLUMN desktop_notifications;
    ALTER TABLE subscription DROP COLUMN audible_notifications;
    ALTER TABLE subscription DROP COLUMN push_notifications;
    ALTER TABLE subscription DROP COLUMN email_notifications;
    ALTER TABLE subscription DROP COLUMN wildcard_mentions_notify;
    DROP TABLE default_stream;
    DROP TABLE user_setting;
    DROP TABLE user_topic;
    DROP TABLE muted_user;
    DROP TABLE attachment_message;
    DROP TABLE attachment_chunk;
    DROP TABLE attachment;
    DROP TABLE upload_url_key;
    DROP TABLE bot_storage;
    ALTER TABLE realm DROP COLUMN url_chosen;
    ALTER TABLE user DROP COLUMN email_address_visibility;
    ALTER TABLE realm DROP COLUMN default_email_address_visibility;
    DROP TABLE reaction;
    DROP TABLE image_proxy_key;
    DROP TABLE presence;
    DROP TRIGGER linkifier_inserted; DROP TRIGGER linkifier_updated; DROP TRIGGER linkifier_deleted;
    DROP TRIGGER alert_word_inserted; DROP TRIGGER alert_word_updated; DROP TRIGGER alert_word_deleted;
    DROP TRIGGER user_inserted; DROP TRIGGER user_updated; DROP TRIGGER user_deleted; DROP TRIGGER realm_url_updated;
    DROP TABLE cache_version;
    CREATE TABLE user_table_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL) STRICT;
    CREATE TRIGGER user_inserted AFTER INSERT ON user BEGIN
      INSERT INTO user_table_version (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = version + 1;
    END;
    CREATE TRIGGER user_updated AFTER UPDATE ON user BEGIN
      INSERT INTO user_table_version (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = version + 1;
    END;
    CREATE TRIGGER user_deleted AFTER DELETE ON user BEGIN
      INSERT INTO user_table_version (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = version + 1;
    END;
    PRAGMA user_version = 3;`;

// Back to version 16 from today's schema: starred in the user_message.starred column and its partial index.
const TO_VERSION_16 = `ALTER TABLE user_message ADD COLUMN starred INTEGER NOT NULL DEFAULT 0 CHECK (starred IN (0, 1));
    UPDATE user_message SET starred = 1 WHERE ${STARRED_ROW};
    DROP TABLE starred_message;
    CREATE INDEX user_message_starred ON user_message (user_id, message_id) WHERE starred <> 0;
    PRAGMA user_version = 16;`;

/**
 * A parley database written by today's code, then taken back to an older layout by `base` (version
 * 3 unless given) and `downgrade` (SQL, given the owner's id), then opened again: the migrated server.
 */
async function migratedFrom<T>(
  t: Test,
  before: (chat: ReturnType<typeof createChatServer>, ownerId: number) => T,
  downgrade: (ownerId: number) => string,
  base = TO_VERSION_3,
): Promise<{ db: Database.Database; chat: ReturnType<typeof createChatServer>; ownerId: number; kept: T }> {
  const file = tempFile(t);
  const first = new Database(file);
  const old = createChatServer(first, { logger: silentLogger });
  const owner = await old.admin.initOrganization({ email: 'owner@example.com', fullName: 'Owner' });
  const kept = before(old, owner.user_id);
  await old.close();
  first.exec(base);
  first.exec(downgrade(owner.user_id));
  first.close();
  const db = open(t, file);
  const chat = createChatServer(db, { logger: silentLogger });
  t.teardown(() => chat.close());
  return { db, chat, ownerId: owner.user_id, kept };
}

t.test('schema 2: events stored the version-1 way (shared payload, one row per user) are still delivered after migrating', async (t) => {
  const { db, chat, ownerId, kept: queue } = await migratedFrom(
    t,
    (old, ownerId) => old.api.events.register(ownerId, { eventTypes: ['drafts'] }) as { queue_id: string; last_event_id: number },
    // Back to version 1's layout: event.payload_id into event_payload, no recipients column.
    (ownerId) => `ALTER TABLE event DROP COLUMN recipients;
    ALTER TABLE event ADD COLUMN payload_id INTEGER;
    CREATE TABLE event_payload (id INTEGER PRIMARY KEY, payload TEXT NOT NULL, last_event_id INTEGER NOT NULL DEFAULT 0, created_at INTEGER NOT NULL) STRICT;
    INSERT INTO event_payload (id, payload, last_event_id, created_at) VALUES (7, '{"type":"drafts","op":"remove","draft_id":1}', 0, 0);
    INSERT INTO event (user_id, type, payload, payload_id, created_at) VALUES (${ownerId}, 'drafts', '', 7, 0);
    INSERT INTO event (user_id, type, payload, created_at) VALUES (${ownerId}, 'drafts', '{"type":"drafts","op":"remove","draft_id":2}', 0);
    INSERT INTO event (user_id, type, payload, payload_id, created_at) VALUES (${ownerId}, 'drafts', '', 99, 0);
    PRAGMA user_version = 1;`,
  );
  const owner = { user_id: ownerId };
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  t.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'event_payload'").pluck().get(), 0, 'event_payload is gone');
  const polled = await chat.api.events.get(owner.user_id, { queueId: queue.queue_id, lastEventId: queue.last_event_id, dontBlock: true });
  t.same(
    polled.events.map((e) => [e.type, e['draft_id']]),
    [
      ['drafts', 1],
      ['drafts', 2],
    ],
    'both events, the shared payload folded into its row; the row whose payload version 1 had pruned goes to no one',
  );
  const seen: unknown[] = [];
  const unsubscribe = chat.events.subscribe(owner.user_id, (event) => seen.push(event.type), { afterEventId: 0, eventTypes: ['drafts'] });
  await new Promise((resolve) => setTimeout(resolve, 50));
  unsubscribe();
  t.same(seen, ['drafts', 'drafts'], 'an in-process subscriber reading from the start gets the same two, no error');
});

t.test('schema 3: a version-2 database gets user_table_version and its triggers, and remembered callers see changes', async (t) => {
  const { db, chat, ownerId } = await migratedFrom(
    t,
    () => undefined,
    // Back to version 2: no counter, no triggers.
    () => `DROP TRIGGER user_inserted; DROP TRIGGER user_updated; DROP TRIGGER user_deleted;
    DROP TABLE user_table_version;
    PRAGMA user_version = 2;`,
  );
  const owner = { user_id: ownerId };
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  t.same(
    db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND tbl_name = 'user' ORDER BY name").pluck().all(),
    ['user_bot_inserted', 'user_bot_updated', 'user_deleted', 'user_inserted', 'user_updated'],
  );
  t.equal(chat.api.users.me(owner.user_id).full_name, 'Owner');
  db.prepare('UPDATE user SET full_name = ? WHERE id = ?').run('Owner Renamed', owner.user_id);
  t.equal(chat.api.users.me(owner.user_id).full_name, 'Owner Renamed', 'a change made after the upgrade is seen at once');
});

t.test('schema 4: accounts of a version-3 database keep showing their email to everyone; new accounts start at administrators only', async (t) => {
  const { chat, ownerId } = await migratedFrom(t, () => undefined, () => '');
  t.equal(pragma(contextOf(chat).db as Database.Database, 'user_version'), SCHEMA_VERSION);
  t.match(chat.api.users.me(ownerId), { email: 'owner@example.com', delivery_email: 'owner@example.com' }, 'the existing account: visibility 1');
  const added = await chat.admin.addUser({ email: 'new@example.com', fullName: 'New User' });
  t.match(chat.api.users.get(ownerId, { userId: added.user_id }).user, { email: `user${added.user_id}@parley.invalid`, delivery_email: 'new@example.com' });
  const state = chat.api.events.register(ownerId, { eventTypes: ['realm_user_settings_defaults'] }) as Record<string, unknown>;
  t.same(state.realm_user_settings_defaults, { email_address_visibility: 3 });
});

t.test('schema 9: a database from before full-text search gets has_link/has_image/has_attachment from its HTML and a full-text index of its messages', async (t) => {
  const { db, chat, ownerId, kept } = await migratedFrom(
    t,
    (old, ownerId) => {
      old.api.streams.subscribe(ownerId, { subscriptions: [{ name: 'general' }] });
      const send = (content: string) => old.api.messages.send(ownerId, { type: 'stream', to: 'general', topic: 'archive', content }).id;
      return { plain: send('plain words'), link: send('see https://example.com'), image: send('![chart](/user_uploads/1/ab/chart.png)') };
    },
    // Back before version 9 (and 5, whose columns TO_VERSION_3 dropped): no index, no triggers, no has_* columns.
    () => `DROP TRIGGER message_fts_insert; DROP TRIGGER message_fts_delete; DROP TRIGGER message_fts_update;
    DROP TABLE message_fts;
    ALTER TABLE message DROP COLUMN has_link; ALTER TABLE message DROP COLUMN has_image; ALTER TABLE message DROP COLUMN has_attachment;
    PRAGMA user_version = 4;`,
  );
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  const ids = (operator: string, operand: string) =>
    chat.api.messages.list(ownerId, { anchor: 'newest', numBefore: 10, numAfter: 0, narrow: [{ operator, operand }] }).messages.map((m) => (m as { id: number }).id);
  t.same(ids('has', 'link'), [kept.link]);
  t.same(ids('has', 'image'), [kept.image]);
  t.same(ids('has', 'attachment'), [kept.image]);
  t.same(ids('search', 'archive'), [kept.plain, kept.link, kept.image], 'old messages are in the index, topics included');
  t.same(ids('search', 'words'), [kept.plain]);
  t.doesNotThrow(() => db.exec("INSERT INTO message_fts (message_fts, rank) VALUES ('integrity-check', 1)"), 'the index matches the messages');
  const id = chat.api.messages.send(ownerId, { type: 'stream', to: 'general', topic: 'archive', content: 'fresh words' }).id;
  t.same(ids('search', 'words'), [kept.plain, id], 'and new ones go in');
});

/** Stars `ids.starred` in a database being written for a migration test; `ids.plain` stays unstarred. */
function starOne(old: ReturnType<typeof createChatServer>, ownerId: number): { starred: number; plain: number } {
  old.api.streams.subscribe(ownerId, { subscriptions: [{ name: 'general' }] });
  const send = (content: string) => old.api.messages.send(ownerId, { type: 'stream', to: 'general', topic: 'stars', content }).id;
  const ids = { starred: send('keep me'), plain: send('not me') };
  old.api.messageFlags.update(ownerId, { messages: [ids.starred], op: 'add', flag: 'starred' });
  return ids;
}

/** After migrating: the starred message is a starred_message row, and every read and write of the flag works. */
function checkStarredMoved(t: Test, db: Database.Database, chat: ReturnType<typeof createChatServer>, ownerId: number, kept: { starred: number; plain: number }): void {
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  t.notOk((db.pragma('table_info(user_message)') as { name: string }[]).some((c) => c.name === 'starred'), 'no starred column');
  t.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'user_message_starred'").pluck().get(), 0, 'no starred index');
  t.same(db.prepare('SELECT message_id, flags & 2 FROM user_message WHERE user_id = ? ORDER BY message_id').raw().all(ownerId), [[kept.starred, 0], [kept.plain, 0]], 'bit 1 of flags stays 0');
  t.same(db.prepare('SELECT user_id, message_id FROM starred_message').raw().all(), [[ownerId, kept.starred]], 'one starred_message row');
  t.ok(chat.api.messages.get(ownerId, { messageId: kept.starred }).message.flags.includes('starred'), 'the flag list');
  t.notOk(chat.api.messages.get(ownerId, { messageId: kept.plain }).message.flags.includes('starred'));
  const starred = () => chat.api.messages.list(ownerId, { anchor: 'newest', numBefore: 10, numAfter: 0, narrow: [{ operator: 'is', operand: 'starred' }] }).messages.map((m) => (m as { id: number }).id);
  t.same(starred(), [kept.starred], 'the is:starred narrow');
  t.same((chat.api.events.register(ownerId, { eventTypes: ['starred_messages'] }) as Record<string, unknown>).starred_messages, [kept.starred]);
  chat.api.messageFlags.update(ownerId, { messages: [kept.starred], op: 'remove', flag: 'starred' });
  chat.api.messageFlags.update(ownerId, { messages: [kept.plain], op: 'add', flag: 'starred' });
  t.same(starred(), [kept.plain], 'and stars can be moved');
  chat.api.messages.delete(ownerId, { messageId: kept.plain });
  t.same(db.prepare('SELECT count(*) FROM starred_message').pluck().get(), 0, 'deleting a starred message deletes its star');
}

t.test('schema 16 and 17: a message starred in an old database (bit 1 of flags) is still starred, in starred_message', async (t) => {
  const { db, chat, ownerId, kept } = await migratedFrom(t, starOne, () => '');
  checkStarredMoved(t, db, chat, ownerId, kept);
});

t.test('schema 17: a version-16 database (the starred column and its index) gets starred_message rows', async (t) => {
  const { db, chat, ownerId, kept } = await migratedFrom(t, starOne, () => TO_VERSION_16, '');
  checkStarredMoved(t, db, chat, ownerId, kept);
});

t.test('schema 13: one cache_version table replaces the three version tables, and what is kept follows writes made by hand', async (t) => {
  const { db, chat, ownerId } = await migratedFrom(
    t,
    () => undefined,
    // Version 12 had alert_word_version and linkifier_version too, and their triggers.
    () => `CREATE TABLE alert_word_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL) STRICT;
    CREATE TRIGGER alert_word_inserted AFTER INSERT ON alert_word BEGIN
      INSERT INTO alert_word_version (id, version) VALUES (1, 1) ON CONFLICT (id) DO UPDATE SET version = version + 1;
    END;
    CREATE TABLE linkifier_version (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL) STRICT;`,
  );
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  const tables = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'table' AND name LIKE '%version%' ORDER BY name").pluck().all();
  t.same(tables, ['cache_version'], 'the old version tables are gone');
  const triggers = db.prepare("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND sql LIKE '%cache_version%' ORDER BY name").pluck().all();
  t.same(triggers, [
    'alert_word_deleted', 'alert_word_inserted', 'alert_word_updated', 'device_deleted', 'device_inserted', 'device_updated',
    'linkifier_deleted', 'linkifier_inserted', 'linkifier_updated', 'realm_url_updated', 'user_bot_inserted', 'user_bot_updated',
    'user_deleted', 'user_inserted', 'user_setting_deleted', 'user_setting_inserted', 'user_setting_updated', 'user_updated',
    'web_push_subscription_deleted', 'web_push_subscription_inserted', 'web_push_subscription_updated',
  ]);

  chat.api.streams.subscribe(ownerId, { subscriptions: [{ name: 'general' }] });
  const send = (content: string) => chat.api.messages.send(ownerId, { type: 'stream', to: 'general', topic: 't', content }).id;
  const rendered = (id: number) => db.prepare('SELECT rendered_content FROM message WHERE id = ?').pluck().get(id) as string;
  t.equal(rendered(send('see #12')), '<p>see #12</p>', 'no linkifier yet (and the empty list is kept)');
  db.prepare("INSERT INTO linkifier (pattern, url_template, example_input, reverse_template, alternative_url_templates) VALUES ('#(?P<id>[0-9]+)', 'https://t/{id}', NULL, NULL, '[]')").run();
  t.match(rendered(send('see #12')), /href="https:\/\/t\/12"/, 'a linkifier written by hand links the next message');
  const flags = (id: number) => db.prepare('SELECT flags FROM user_message WHERE user_id = ? AND message_id = ?').pluck().get(ownerId, id) as number;
  t.equal(flags(send('zebra')) & FLAG.has_alert_word, 0, 'no alert word yet');
  db.prepare("INSERT INTO alert_word (user_id, word) VALUES (?, 'zebra')").run(ownerId);
  t.equal(flags(send('zebra')) & FLAG.has_alert_word, FLAG.has_alert_word, 'an alert word written by hand alerts the next message');

  // A transaction that renamed the user and read the renamed row, then rolled back: its version
  // is never the one a later commit makes, so the rolled-back row is not served.
  t.equal(chat.api.users.me(ownerId).full_name, 'Owner');
  t.throws(() =>
    contextOf(chat).tx(() => {
      db.prepare("UPDATE user SET full_name = 'Never' WHERE id = ?").run(ownerId);
      t.equal(chat.api.users.me(ownerId).full_name, 'Never', 'seen inside its transaction');
      throw new Error('roll back');
    }),
  );
  t.equal(chat.api.users.me(ownerId).full_name, 'Owner', 'gone after the rollback');
  db.prepare("UPDATE user SET timezone = 'Europe/Paris' WHERE id = ?").run(ownerId);
  t.match(chat.api.users.me(ownerId), { full_name: 'Owner', timezone: 'Europe/Paris' }, 'and after the next commit');
});

t.test('schema 15: the event table loses its per-user index, and queued events are still delivered', async (t) => {
  const { db, chat, ownerId, kept: queue } = await migratedFrom(
    t,
    (old, ownerId) => {
      const registered = old.api.events.register(ownerId, { eventTypes: ['drafts'] }) as { queue_id: string; last_event_id: number };
      old.api.drafts.create(ownerId, { drafts: [{ type: '', to: [], topic: '', content: 'kept', timestamp: 1 }] });
      return registered;
    },
    // Version 14's layout as far as events go: today's, with the per-user index.
    () => 'CREATE INDEX event_by_user ON event (user_id, id); PRAGMA user_version = 14;',
    '',
  );
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  t.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'event_by_user'").pluck().get(), 0, 'event_by_user is gone');
  const polled = await chat.api.events.get(ownerId, { queueId: queue.queue_id, lastEventId: queue.last_event_id, dontBlock: true });
  t.same(
    polled.events.map((e) => [e.type, e['op']]),
    [['drafts', 'add']],
  );
});

t.test('schema 19: a registration a version-17 server was forwarding to the bouncer becomes a delivery, due at once', async (t) => {
  const { db } = await migratedFrom(
    t,
    () => undefined,
    // Back to version 17: no delivery table; a device in the middle of its registration and the
    // index that found it on start.
    (ownerId) => `DROP TABLE delivery;
    INSERT INTO device (id, user_id, push_key_id, pending_push_token_id, push_token_kind, bouncer_public_key, encrypted_push_registration, date_created)
      VALUES (7, ${ownerId}, 1, 'AAAAAAAAAAE=', 'fcm', 'pk', 'sealed', 0);
    INSERT INTO device (id, user_id, push_token_id, date_created) VALUES (8, ${ownerId}, 'AAAAAAAAAAI=', 0);
    CREATE INDEX device_forwarding ON device (id) WHERE encrypted_push_registration IS NOT NULL;
    PRAGMA user_version = 17;`,
    '',
  );
  t.equal(pragma(db, 'user_version'), SCHEMA_VERSION);
  t.same(db.prepare('SELECT kind, key, payload, due_at, attempts FROM delivery').all(), [
    { kind: 'push_registration', key: '7', payload: '{"device_id":7,"token_id":"AAAAAAAAAAE="}', due_at: 0, attempts: 0 },
  ]);
  t.equal(db.prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'device_forwarding'").pluck().get(), 0, 'the index is gone');
});
