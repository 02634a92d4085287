// The narrow suites of search, has: and with (full-text index, triggers, migrations of the has_*
// columns) on libsql's Database (the scale-out path, docs/operations.md "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../search.test.js');
await import('../narrow_has_with.test.js');
