// test/notifications_push.test.ts with every channel big (PARLEY_TEST_ALL_BY_PERIOD: largeChannelSubscribers 0):
// followers of a topic and subscribers with the channel's notifications on are notified though
// they have the message by their subscription periods, with no row.
process.env.PARLEY_TEST_ALL_BY_PERIOD = '1';
await import('../notifications_push.test.js');
