// The alert word suite on libsql's Database (the scale-out path, docs/operations.md "Beyond one
// machine").
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../alert_words.test.js');
