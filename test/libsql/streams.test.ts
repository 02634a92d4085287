// The channel and user group suites on libsql's Database (the scale-out path, docs/operations.md
// "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../streams.test.js');
await import('../user_groups.test.js');
