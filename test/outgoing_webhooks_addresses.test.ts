// Outgoing webhooks reach only public addresses unless the operator allows private ones
// (outgoingWebhooks.allowPrivateAddresses, PARLEY_WEBHOOKS_ALLOW_PRIVATE=1): the image proxy's rule
// (lib/proxy/public_fetch.ts), checked on the address a host name resolves to and on every
// redirect. A refused target fails as Zulip's outgoing proxy makes it fail: a 407.
import t, { type Test } from 'tap';
import nodeFetch from 'node-fetch';
import { startServer } from './helpers.js';
import { sendDirect } from './messaging_helpers.js';
import { outgoingBot, outgoingServer, postedBy, settle, startTarget } from './outgoing_helpers.js';

const REFUSED = 'The URL configured for the webhook is for a private or disallowed network.';

/** A server that refuses private addresses (the default), its bot's owner, and what the bot posted. */
async function refusing(t: Test, options: Parameters<typeof startServer>[0] = {}) {
  const s = await startServer({ realm: { name: 'Acme', url: 'https://chat.acme.test' }, ...options });
  t.teardown(() => s.close());
  const iago = await s.user('member', { fullName: 'Iago' });
  return { s, iago };
}

for (const host of ['127.0.0.1', 'localhost']) {
  t.test(`by default a target at ${host} is refused without a request: "Third party responded with 407", the owner told why`, async (t) => {
    const { s, iago } = await refusing(t);
    const target = await startTarget(t, { body: { content: 'should not be reached' } });
    const bot = await outgoingBot(s, iago, target.url.replace('127.0.0.1', host));
    await sendDirect(s, iago, [bot.user_id], 'hello');
    await settle(s);
    t.equal(target.requests.length, 0, 'no request reached it');
    const posted = postedBy(s, bot.user_id).map((m) => m.content);
    t.equal(posted[0], 'Failure! Third party responded with 407');
    t.match(posted[1], new RegExp(`triggered an outgoing webhook\\.\\n${REFUSED.replaceAll('.', '\\.')}$`));
  });
}

t.test('a public target that redirects to a private address: the redirect is refused, never followed', async (t) => {
  const inside = await startTarget(t, { body: { content: 'internal secrets' } });
  const outside = await startTarget(t, { redirect: `${inside.url}/admin`, status: 307 });
  // bots.example.test stands for a public host: this fetch takes its requests to the local target.
  const fetch = ((url: string, init: object) => nodeFetch(url.replace('http://bots.example.test', outside.url), { ...init, agent: undefined })) as unknown as typeof nodeFetch;
  const { s, iago } = await refusing(t, { outgoingWebhooks: { fetch } });
  const bot = await outgoingBot(s, iago, 'http://bots.example.test/hook');
  await sendDirect(s, iago, [bot.user_id], 'hello');
  await settle(s);
  t.equal(outside.requests.length, 1, 'the public target was asked');
  t.equal(inside.requests.length, 0, 'the private address never was');
  t.equal(postedBy(s, bot.user_id)[0]!.content, 'Failure! Third party responded with 407');
});

t.test('with private addresses allowed, redirects are followed: a 307 POSTs the payload again, a 302 goes on as a GET', async (t) => {
  const s = await outgoingServer();
  t.teardown(() => s.close());
  const iago = await s.user('member');
  const final = await startTarget(t, { body: { content: 'moved here' } });
  const first = await startTarget(t, { redirect: `${final.url}/new`, status: 307 });
  const bot = await outgoingBot(s, iago, first.url);
  await sendDirect(s, iago, [bot.user_id], 'hello');
  await final.received(1);
  await settle(s);
  t.match(final.requests[0], { method: 'POST', path: '/new' });
  t.equal(JSON.parse(final.requests[0]!.body).data, 'hello');
  t.same(postedBy(s, bot.user_id).map((m) => m.content), ['moved here']);
  first.script.push({ redirect: `${final.url}/get`, status: 302 });
  await sendDirect(s, iago, [bot.user_id], 'again');
  await final.received(2);
  await settle(s);
  t.match(final.requests[1], { method: 'GET', path: '/get', body: '' });
});

t.test('a redirect loop ends after 5 hops: "TooManyRedirects"', async (t) => {
  const s = await outgoingServer();
  t.teardown(() => s.close());
  const iago = await s.user('member');
  const loop = await startTarget(t);
  loop.fallback = { redirect: `${loop.url}/again`, status: 307 };
  const bot = await outgoingBot(s, iago, loop.url);
  await sendDirect(s, iago, [bot.user_id], 'round and round');
  await settle(s);
  t.equal(loop.requests.length, 6);
  t.equal(postedBy(s, bot.user_id)[0]!.content, 'Failure! An exception of type *TooManyRedirects* occurred for message `round and round`! See the Zulip server logs for more information.');
});
