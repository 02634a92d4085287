// The event-recipients suite on libsql's Database.
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../event_recipients.test.js');
