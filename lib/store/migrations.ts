// Column changes to existing tables, by the schema version that introduced them. New tables and
// indexes need no entry: schema.sql is re-applied (IF NOT EXISTS) after these run.
import { contentFeatures } from './content_features.js';
import type { Database } from './db.js';
import { migrateToPeriods } from './migrate_periods.js';

export interface Migration {
  /** The schema version this migration brings a database up to. */
  version: number;
  up(db: Database): void;
  /** Filling what schema.sql created for this version (run after it was applied). */
  afterSchema?(db: Database): void;
}

const SUBSCRIPTION_NOTIFICATION_COLUMNS = [
  'desktop_notifications',
  'audible_notifications',
  'push_notifications',
  'email_notifications',
  'wildcard_mentions_notify',
] as const;

function hasColumn(db: Database, table: string, column: string): boolean {
  return (db.pragma(`table_info(${table})`) as { name: string }[]).some((c) => c.name === column);
}

export const MIGRATIONS: readonly Migration[] = [
  {
    // An event for many users is one row with a recipients list; event_payload (one shared payload
    // behind one row per user) is folded back into the rows that used it.
    version: 2,
    up(db) {
      db.exec('ALTER TABLE event ADD COLUMN recipients TEXT');
      if (hasColumn(db, 'event', 'payload_id')) {
        // Version 1 pruned a shared payload while keeping the newest event row (ids are never
        // reused): such a row goes to no one (an empty recipients list) and reads as valid JSON.
        db.exec(`UPDATE event SET user_id = NULL, recipients = ',', payload = json_object('type', type)
                 WHERE payload_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM event_payload p WHERE p.id = event.payload_id)`);
        db.exec(`UPDATE event SET payload = (SELECT p.payload FROM event_payload p WHERE p.id = event.payload_id)
                 WHERE payload_id IS NOT NULL AND EXISTS (SELECT 1 FROM event_payload p WHERE p.id = event.payload_id)`);
        db.exec('ALTER TABLE event DROP COLUMN payload_id');
      }
      db.exec('DROP TABLE IF EXISTS event_payload');
    },
  },
  {
    // user_table_version and the triggers on user that bump it (the remembered callers of
    // lib/domain/auth.ts): new objects only, created when schema.sql is applied after this step.
    version: 3,
    up() {},
  },
  {
    // The reaction and image_proxy_key tables: new tables, created when schema.sql is applied after this step.
    version: 4,
    up() {},
  },
  {
    // Per-user email_address_visibility. Accounts that existed showed their real email to
    // everyone, so they keep 1; the organization's default for new accounts is 3 (schema.sql).
    version: 5,
    up(db) {
      db.exec('ALTER TABLE user ADD COLUMN email_address_visibility INTEGER NOT NULL DEFAULT 1 CHECK (email_address_visibility BETWEEN 1 AND 5)');
      db.exec('ALTER TABLE realm ADD COLUMN default_email_address_visibility INTEGER NOT NULL DEFAULT 3 CHECK (default_email_address_visibility BETWEEN 1 AND 5)');
    },
  },
  {
    // The presence table: a new table, created when schema.sql is applied after this step.
    version: 6,
    up() {},
  },
  {
    // The user_message_private index: a new index, created when schema.sql is applied after this step.
    version: 7,
    up() {},
  },
  {
    // The message_edit table: a new table, created when schema.sql is applied after this step.
    version: 8,
    up() {},
  },
  {
    // has_link, has_image, has_attachment on message, filled from the rendered HTML; the
    // message_fts full-text index and its triggers (created by schema.sql), filled from message.
    version: 9,
    up(db) {
      for (const column of ['has_link', 'has_image', 'has_attachment']) {
        if (!hasColumn(db, 'message', column)) db.exec(`ALTER TABLE message ADD COLUMN ${column} INTEGER NOT NULL DEFAULT 0`);
      }
      const page = db.prepare('SELECT id, rendered_content FROM message WHERE id > ? ORDER BY id LIMIT 1000');
      const update = db.prepare('UPDATE message SET has_link = ?, has_image = ?, has_attachment = ? WHERE id = ?');
      // In pages: a statement cannot write while another one's rows are being read.
      for (let rows = page.all(0) as { id: number; rendered_content: string }[]; rows.length > 0; rows = page.all(rows.at(-1)!.id) as typeof rows) {
        for (const row of rows) {
          const has = contentFeatures(row.rendered_content);
          if (has.link || has.image || has.attachment) update.run(Number(has.link), Number(has.image), Number(has.attachment), row.id);
        }
      }
    },
    afterSchema(db) {
      db.exec("INSERT INTO message_fts (message_fts) VALUES ('rebuild')");
    },
  },
  {
    // realm.url_chosen: a database still at parley's default URL had it chosen by no one.
    version: 10,
    up(db) {
      db.exec('ALTER TABLE realm ADD COLUMN url_chosen INTEGER NOT NULL DEFAULT 1 CHECK (url_chosen IN (0, 1))');
      db.exec("UPDATE realm SET url_chosen = 0 WHERE url = 'http://localhost:9991'");
    },
  },
  {
    // The attachment, attachment_chunk, attachment_message, upload_url_key and bot_storage
    // tables: new tables, created when schema.sql is applied after this step.
    version: 11,
    up() {},
  },
  {
    // The user_setting, user_topic and muted_user tables: new tables, created when schema.sql is
    // applied after this step.
    version: 12,
    up() {},
  },
  {
    // One cache_version table (created by schema.sql) replaces user_table_version,
    // alert_word_version and linkifier_version; the triggers that wrote those are made again by
    // schema.sql, writing cache_version.
    version: 13,
    up(db) {
      for (const trigger of ['user_inserted', 'user_updated', 'user_deleted', 'realm_url_updated', 'alert_word_inserted', 'alert_word_updated', 'alert_word_deleted']) {
        db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
      }
      for (const table of ['user_table_version', 'alert_word_version', 'linkifier_version']) db.exec(`DROP TABLE IF EXISTS ${table}`);
    },
  },
  {
    // The nullable per-channel notification settings of subscription; the default_stream table
    // is new, created when schema.sql is applied after this step.
    version: 14,
    up(db) {
      for (const column of SUBSCRIPTION_NOTIFICATION_COLUMNS) {
        if (!hasColumn(db, 'subscription', column)) db.exec(`ALTER TABLE subscription ADD COLUMN ${column} INTEGER CHECK (${column} IN (0, 1))`);
      }
    },
  },
  {
    // The event table loses its per-user index: every write paid a page for it (schema.sql).
    version: 15,
    up(db) {
      db.exec('DROP INDEX IF EXISTS event_by_user');
    },
  },
  {
    // user_message.starred: the starred flag leaves bit 1 of flags for its own column (which
    // version 17 moves into starred_message); the user_message_starred index read bit 1.
    version: 16,
    up(db) {
      db.exec('DROP INDEX IF EXISTS user_message_starred');
      if (!hasColumn(db, 'user_message', 'starred')) db.exec('ALTER TABLE user_message ADD COLUMN starred INTEGER NOT NULL DEFAULT 0 CHECK (starred IN (0, 1))');
      db.exec('UPDATE user_message SET starred = 1, flags = flags & ~2 WHERE (flags & 2) <> 0');
    },
  },
  {
    // The starred flag leaves user_message.starred for rows of starred_message (created by
    // schema.sql before this step fills it): the column's partial index goes first, since SQLite
    // drops no column an index reads.
    version: 17,
    up() {},
    afterSchema(db) {
      db.exec('DROP INDEX IF EXISTS user_message_starred');
      if (!hasColumn(db, 'user_message', 'starred')) return;
      db.exec('INSERT OR IGNORE INTO starred_message (user_id, message_id) SELECT user_id, message_id FROM user_message WHERE starred <> 0');
      db.exec('ALTER TABLE user_message DROP COLUMN starred');
    },
  },
  {
    // The delivery outbox (created by schema.sql): registrations an older server was still
    // forwarding to the bouncer become push_registration deliveries, due at once; the index that
    // found them on start goes.
    version: 19,
    up(db) {
      db.exec('DROP INDEX IF EXISTS device_forwarding');
    },
    afterSchema(db) {
      db.exec(`INSERT OR IGNORE INTO delivery (kind, key, payload, due_at, created_at)
               SELECT 'push_registration', CAST(id AS TEXT), json_object('device_id', id, 'token_id', pending_push_token_id), 0,
                      CAST(strftime('%s', 'now') AS INTEGER) * 1000
               FROM device WHERE encrypted_push_registration IS NOT NULL AND pending_push_token_id IS NOT NULL`);
    },
  },
  {
    // The web_push_vapid_key and web_push_subscription tables: new tables, created when schema.sql
    // is applied after this step.
    version: 21,
    up() {},
  },
  {
    // bot_service (outgoing webhook bots' services) and bot_owner_notice: new tables, created when
    // schema.sql is applied after this step (numbered after 21, Web Push, and 22, the sessions and
    // invitations, which a database may already have).
    version: 23,
    up() {},
  },
  {
    // Large organizations (numbered after main's 23): subscription periods in place of the
    // user_message rows that say only what a period says (lib/store/migrate_periods.ts);
    // message_fts with stream_id and prefix indexes (made again and rebuilt); event.audience (an
    // event for users named by a rule), stream.subscriber_count (counted here, then kept by the
    // triggers schema.sql creates), the user_bots, user_inactive, user_guests and user_by_name
    // indexes, and Zulip's system groups (rows of user_group).
    version: 24,
    up(db) {
      // The full-text index gains the stream_id column and prefix indexes: made again, filled below.
      for (const trigger of ['message_fts_insert', 'message_fts_delete', 'message_fts_update']) db.exec(`DROP TRIGGER IF EXISTS ${trigger}`);
      db.exec('DROP TABLE IF EXISTS message_fts');
      if (!hasColumn(db, 'event', 'audience')) db.exec('ALTER TABLE event ADD COLUMN audience TEXT');
      if (!hasColumn(db, 'message', 'by_period')) db.exec('ALTER TABLE message ADD COLUMN by_period INTEGER NOT NULL DEFAULT 0 CHECK (by_period IN (0, 1))');
      if (!hasColumn(db, 'stream', 'subscriber_count')) {
        db.exec('ALTER TABLE stream ADD COLUMN subscriber_count INTEGER NOT NULL DEFAULT 0');
        db.exec(`UPDATE stream SET subscriber_count = (
                   SELECT count(*) FROM subscription s JOIN user u ON u.id = s.user_id WHERE s.stream_id = stream.id AND u.is_active = 1)`);
      }
    },
    afterSchema(db) {
      db.exec("INSERT INTO message_fts (message_fts) VALUES ('rebuild')");
      migrateToPeriods(db);
    },
  },
];

/** The version schema.sql describes; stored in PRAGMA user_version. */
export const SCHEMA_VERSION = 24;
