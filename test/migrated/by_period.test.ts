// The flag invariant on migrated databases with every channel big: subscription periods made by
// schema 24's migration (test/schema_23.ts), then messages had by period.
process.env.PARLEY_TEST_MIGRATED = '1';
process.env.PARLEY_TEST_ALL_BY_PERIOD = '1';
await import('../message_flags_invariant.test.js');
