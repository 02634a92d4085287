// The message flag suites (flags and their events) on libsql's Database (the scale-out path,
// docs/operations.md "Beyond one machine"); the narrow suite, the slowest, runs on better-sqlite3
// only.
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../message_flags.test.js');
await import('../message_flags_events.test.js');
