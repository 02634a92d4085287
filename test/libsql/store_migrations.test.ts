// Each schema version's migration of real data on libsql's Database (the scale-out path,
// docs/operations.md "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../store_migrations.test.js');
