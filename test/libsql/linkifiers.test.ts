// The linkifier suites (validation, events) on libsql's Database (the scale-out path,
// docs/operations.md "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../linkifiers.test.js');
await import('../linkifier_events.test.js');
