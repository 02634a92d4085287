// The message and mention suites on libsql's Database (the scale-out path, docs/operations.md
// "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../messages.test.js');
await import('../mentions.test.js');
