// The user status suites on libsql's Database (the scale-out path, docs/operations.md "Beyond one
// machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../user_status.test.js');
await import('../user_status_events.test.js');
