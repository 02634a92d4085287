// test/message_flags_narrow.test.ts on databases made in schema 23's layout (before subscription periods) and migrated forward by this parley
// (PARLEY_TEST_MIGRATED: test/schema_23.ts), as an existing installation's database is.
process.env.PARLEY_TEST_MIGRATED = '1';
await import('../message_flags_narrow.test.js');
