// The push device suite (registration, bouncer forwarding, test notifications with BLOB keys) on
// libsql's Database (the scale-out path, docs/operations.md "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../push_devices.test.js');
