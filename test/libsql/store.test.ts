// Opening a database (pragmas, re-opening, migrations, :memory:) on libsql's Database (the
// scale-out path, docs/operations.md "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../store.test.js');
