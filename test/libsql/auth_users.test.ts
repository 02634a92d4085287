// The authentication and user suites on libsql's Database (the scale-out path, docs/operations.md
// "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../auth.test.js');
await import('../users.test.js');
