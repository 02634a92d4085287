// Today's database taken back to schema 17's layout (before subscription periods), for the tests
// of schema 23's migration: test/store_migration_periods.test.ts, and every suite run on a
// migrated database (PARLEY_TEST_MIGRATED: test/migrated/).

// Back from 23 to 17: no subscription periods, message ids as SQLite hands them out, no
// subscriber counts, rules or by_period, and the full-text index without stream_id.
export const TO_VERSION_17 = `DROP VIEW user_message_all;
  DROP TRIGGER subscription_period_opened; DROP TRIGGER subscription_period_closed; DROP TRIGGER message_sequence_kept;
  DROP TRIGGER subscription_counted; DROP TRIGGER subscription_uncounted;
  DROP TABLE subscription_period; DROP TABLE message_sequence;
  DROP INDEX user_bots; DROP INDEX user_inactive; DROP INDEX user_guests; DROP INDEX message_by_period;
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
  DELETE FROM event;
  ALTER TABLE message DROP COLUMN by_period; ALTER TABLE stream DROP COLUMN subscriber_count; ALTER TABLE event DROP COLUMN audience;
  PRAGMA user_version = 17;`;
