// test/outgoing_webhooks.test.ts with every channel big (PARLEY_TEST_ALL_BY_PERIOD: largeChannelSubscribers 0):
// a mentioned outgoing webhook bot is triggered though the channel's subscribers have the message
// by their subscription periods.
process.env.PARLEY_TEST_ALL_BY_PERIOD = '1';
await import('../outgoing_webhooks.test.js');
