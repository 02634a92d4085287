// test/message_flags_narrow.test.ts with every channel big (PARLEY_TEST_ALL_BY_PERIOD: largeChannelSubscribers 0):
// its subscribers have each message by their subscription periods, not by a row each.
process.env.PARLEY_TEST_ALL_BY_PERIOD = '1';
await import('../message_flags_narrow.test.js');
