// test/message_flags_narrow.test.ts on databases made in schema 17's layout and migrated forward by this parley
// (PARLEY_TEST_MIGRATED: test/schema_17.ts), as an existing installation's database is.
process.env.PARLEY_TEST_MIGRATED = '1';
await import('../message_flags_narrow.test.js');
