// The custom emoji suite (uploads, images, deactivation) on libsql's Database (the scale-out path,
// docs/operations.md "Beyond one machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../realm_emoji.test.js');
