// Schema 24's layout from the outside: today's database taken back to schema 23's layout (before
// subscription periods), for the tests of schema 24's migration (test/store_migration_periods.test.ts,
// and every suite run on a migrated database: PARLEY_TEST_MIGRATED, test/migrated/); and what the
// user_message rows and the subscription periods say together (USER_MESSAGE_ALL).

// Back from 24 to 23: no subscription periods or system groups, message ids as SQLite hands them out, no
// subscriber counts, rules or by_period, and the full-text index without stream_id.
export const TO_VERSION_23 = `DROP TRIGGER subscription_period_opened; DROP TRIGGER subscription_period_closed; DROP TRIGGER message_sequence_kept;
  DROP TRIGGER subscription_counted; DROP TRIGGER subscription_uncounted;
  DROP TABLE subscription_period; DROP TABLE message_sequence;
  DROP INDEX user_bots; DROP INDEX user_inactive; DROP INDEX user_by_name; DROP INDEX user_guests; DROP INDEX message_by_period;
  DROP TRIGGER message_fts_insert; DROP TRIGGER message_fts_delete; DROP TRIGGER message_fts_update; DROP TABLE message_fts;
  CREATE VIRTUAL TABLE message_fts USING fts5(topic, content, content = 'message', content_rowid = 'id', tokenize = 'unicode61 remove_diacritics 2');
  CREATE TRIGGER message_fts_insert AFTER INSERT ON message BEGIN
    INSERT INTO message_fts (rowid, topic, content) VALUES (new.id, new.topic, new.content);
  END;
  CREATE TRIGGER message_fts_delete AFTER DELETE ON message BEGIN
    INSERT INTO message_fts (message_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content);
  END;
  CREATE TRIGGER message_fts_update AFTER UPDATE OF topic, content ON message BEGIN
    INSERT INTO message_fts (message_fts, rowid, topic, content) VALUES ('delete', old.id, old.topic, old.content);
    INSERT INTO message_fts (rowid, topic, content) VALUES (new.id, new.topic, new.content);
  END;
  INSERT INTO message_fts (message_fts) VALUES ('rebuild');
  DELETE FROM event; DELETE FROM user_group WHERE name LIKE 'role:%';
  ALTER TABLE message DROP COLUMN by_period; ALTER TABLE stream DROP COLUMN subscriber_count; ALTER TABLE event DROP COLUMN audience;
  PRAGMA user_version = 23;`;

/**
 * SQL (a subquery with user_id, message_id, flags) for every (user, message) a user has and its
 * full flags (starred as bit 1): the rows, and the messages of each subscription period without a
 * row, with the period's default. What the two tables mean together, written independently of
 * lib/store, for the suites' checks (test/messaging_helpers.ts, test/message_flags_helpers.ts).
 */
export const USER_MESSAGE_ALL = `SELECT um.user_id, um.message_id,
    um.flags | (EXISTS (SELECT 1 FROM starred_message sm WHERE sm.user_id = um.user_id AND sm.message_id = um.message_id) << 1) AS flags
  FROM user_message um
  UNION ALL
  SELECT p.user_id, m.id, CASE WHEN m.id <= p.read_through THEN 1 ELSE 0 END
  FROM subscription_period p JOIN message m ON m.stream_id = p.stream_id AND m.by_period = 1 AND m.id >= p.first_message_id
    AND (p.end_message_id IS NULL OR m.id < p.end_message_id)
  WHERE NOT EXISTS (SELECT 1 FROM user_message x WHERE x.user_id = p.user_id AND x.message_id = m.id)`;
