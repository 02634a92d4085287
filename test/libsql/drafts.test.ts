// The drafts suites on libsql's Database (the scale-out path, docs/operations.md "Beyond one
// machine"). (zulip-js replaces the global FormData when loaded: one suite that uses it per
// process, last.)
process.env.PARLEY_TEST_DRIVER = 'libsql';
await import('../drafts.test.js');
await import('../drafts_edit_delete.test.js');
