// test/notifications_edit.test.ts with every channel big (PARLEY_TEST_ALL_BY_PERIOD: largeChannelSubscribers 0):
// an edit that mentions a subscriber who has the message by their subscription period, with no
// row, notifies them as it does one with a row.
process.env.PARLEY_TEST_ALL_BY_PERIOD = '1';
await import('../notifications_edit.test.js');
