// The message flag suites on libsql's Database with every channel big (PARLEY_TEST_ALL_BY_PERIOD):
// subscription periods, read_through and the rows that differ from them, through libsql's adapter.
process.env.PARLEY_TEST_DRIVER = 'libsql';
process.env.PARLEY_TEST_ALL_BY_PERIOD = '1';
await import('../message_flags_events.test.js');
await import('../message_flags_narrow.test.js');
