// The message flag suites (flags, events, narrows) on libsql's Database (the scale-out path, README "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../message_flags.test.js');
await import('../message_flags_events.test.js');
await import('../message_flags_narrow.test.js');
