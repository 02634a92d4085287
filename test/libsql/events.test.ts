// The event system suite (register, long-polls, queues across restarts and processes) on libsql's
// Database (the scale-out path, docs/operations.md "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../events.test.js');
