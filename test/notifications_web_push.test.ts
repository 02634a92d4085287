// Web Push notifications of messages, end to end: after a message commits, the browsers of each
// user the notification rules push to (as to phones) get the notification through a real push
// service stand-in on 127.0.0.1 (HTTPS), which checks the VAPID signature and decrypts the
// aes128gcm payload as the browser would. A push service's 404 or 410 deletes the subscription;
// its 5xx is retried with back-off, without sending twice to the browsers that took it; a push
// service at a private address is refused unless the operator allows it.
import t from 'tap';
import { contextOf } from '../lib/context.js';
import { makeActive, setSettings, settle } from './notification_helpers.js';
import { sendDirect, sendToStream, subscribe } from './messaging_helpers.js';
import { startServer, type TestUser } from './helpers.js';
import { startPushService, type TestBrowserSubscription } from './push_service.js';

const service = await startPushService();
t.teardown(() => service.close());
const s = await startServer({ webPush: { allowPrivateAddresses: true, fetch: service.fetch, retryDelaysMs: [20, 20] } });
t.teardown(() => s.close());
const vapidKey = (await s.request('GET', '/web_push/key', { as: s.owner })).body.public_key as string;

t.afterEach(() => {
  t.same(service.problems, [], 'every push is signed and encrypted as a browser expects');
});

async function person(name: string, browsers = 1): Promise<{ user: TestUser; browsers: TestBrowserSubscription[] }> {
  const user = await s.user('member', { fullName: name });
  const subscriptions = [];
  for (let i = 0; i < browsers; i++) {
    const b = service.subscribe();
    const reply = await s.request('POST', '/web_push/subscriptions', { as: user, params: { endpoint: b.endpoint, p256dh: b.p256dh, auth: b.auth } });
    if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
    subscriptions.push(b);
  }
  return { user, browsers: subscriptions };
}

/** The notifications a browser showed, in order. */
const shown = (b: TestBrowserSubscription) => service.received.filter((r) => r.subscription === b.id).map((r) => r.payload);
const requestsTo = (b: TestBrowserSubscription) => service.requests.filter((r) => r.subscription === b.id).map((r) => r.answer);
const subscriptionCount = (user: TestUser) => s.db.prepare('SELECT count(*) FROM web_push_subscription WHERE user_id = ?').pluck().get(user.user_id);

t.test('A direct message notifies every browser of its recipient, with the conversation to open', async (t) => {
  const ada = await person('Ada');
  const bob = await person('Bob', 2);
  const id = await sendDirect(s, ada.user, [bob.user.user_id], 'Lunch at **noon**? :smile:');
  await settle(s);
  const participants = [ada.user.user_id, bob.user.user_id].sort((a, b) => a - b).join(',');
  const expected = { type: 'message', message_id: id, title: 'Ada (to you)', body: 'Lunch at noon? 🙂', tag: `dm:${participants}`, url: `#dm/${participants}` };
  for (const b of bob.browsers) t.same(shown(b), [expected], 'each browser, once');
  t.same(shown(ada.browsers[0]!), [], 'never the sender');
  const push = service.received.find((r) => r.subscription === bob.browsers[0]!.id)!;
  t.equal(push.vapidKey, vapidKey, "signed with the server's VAPID key (GET /web_push/key)");
  t.equal(push.claims.sub, 'mailto:owner@example.com', "the subject: the first owner (the organization's URL is not https:)");
  t.equal(push.headers.ttl, '86400', 'kept a day by the push service');
  t.equal(push.headers.urgency, 'high');
});

t.test('A group direct message names how many others; a mention in a channel names channel and topic', async (t) => {
  const [ada, bob, cy] = [await person('Ada'), await person('Bob'), await person('Cy')];
  await sendDirect(s, ada.user, [bob.user.user_id, cy.user.user_id], 'hi both');
  await subscribe(s, ada.user, ['web-push'], { principals: [ada.user.user_id, bob.user.user_id, cy.user.user_id] });
  const channelId = s.db.prepare("SELECT id FROM stream WHERE name = 'web-push'").pluck().get() as number;
  const mention = await sendToStream(s, ada.user, 'web-push', 'Plans', '@**Bob** can you check?');
  await sendToStream(s, ada.user, 'web-push', 'Plans', 'nobody mentioned');
  await settle(s);
  t.match(shown(bob.browsers[0]!), [{ title: 'Ada (to you and 1 more)', body: 'hi both' }, { message_id: mention, title: 'Ada (#web-push > Plans)', body: '@Bob can you check?', tag: `channel:${channelId}\u0000plans`, url: `#channel/${channelId}/topic/Plans` }]);
  t.equal(shown(cy.browsers[0]!).length, 1, 'Cy: the direct message only (no mention, channel pushes off by default)');
});

t.test('The rules are mobile push\'s: an active recipient is pushed to only with enable_online_push_notifications', async (t) => {
  const ada = await person('Ada');
  const [bob, cy] = [await person('Bob'), await person('Cy')];
  await makeActive(s, bob.user);
  await makeActive(s, cy.user);
  await setSettings(s, cy.user, { enable_online_push_notifications: false });
  await sendDirect(s, ada.user, [bob.user.user_id], 'to Bob');
  await sendDirect(s, ada.user, [cy.user.user_id], 'to Cy');
  await settle(s);
  t.equal(shown(bob.browsers[0]!).length, 1, 'active, online push on (the default): pushed');
  t.same(shown(cy.browsers[0]!), [], 'active, online push off: not');
});

t.test('Without pm_content_in_desktop_notifications a direct message shows no text; push.redactContent hides every text', async (t) => {
  const ada = await person('Ada');
  const bob = await person('Bob');
  await setSettings(s, bob.user, { pm_content_in_desktop_notifications: false });
  await sendDirect(s, ada.user, [bob.user.user_id], 'a secret');
  await settle(s);
  t.match(shown(bob.browsers[0]!), [{ title: 'Ada (to you)', body: 'New direct message from Ada' }]);

  const redacting = await startServer({ push: { redactContent: true }, webPush: { allowPrivateAddresses: true, fetch: service.fetch } });
  t.teardown(() => redacting.close());
  const [sender, receiver] = [await redacting.user('member', { fullName: 'Sam' }), await redacting.user('member')];
  const b = service.subscribe();
  await redacting.request('POST', '/web_push/subscriptions', { as: receiver, params: { endpoint: b.endpoint, p256dh: b.p256dh, auth: b.auth } });
  await sendDirect(redacting, sender, [receiver.user_id], 'a secret');
  await settle(redacting);
  t.match(shown(b), [{ title: 'Sam (to you)', body: 'New message' }]);
});

t.test("A push service's 404 or 410 deletes the subscription; nothing more goes to it", async (t) => {
  const ada = await person('Ada');
  const bob = await person('Bob', 3);
  const [gone, expired, fine] = bob.browsers as [TestBrowserSubscription, TestBrowserSubscription, TestBrowserSubscription];
  service.script.set(gone.id, [410]);
  service.script.set(expired.id, [404]);
  await sendDirect(s, ada.user, [bob.user.user_id], 'first');
  await settle(s);
  t.equal(subscriptionCount(bob.user), 1, 'two deleted');
  await sendDirect(s, ada.user, [bob.user.user_id], 'second');
  await settle(s);
  t.same([requestsTo(gone), requestsTo(expired)], [[410], [404]], 'asked once each');
  t.same(shown(fine).map((p) => p.body), ['first', 'second'], 'the other browser got both');
});

t.test("A push service's 5xx or 429 is tried again after a delay; the browsers that took it are not sent it twice", async (t) => {
  const ada = await person('Ada');
  const bob = await person('Bob', 3);
  const [failing, limited, fine] = bob.browsers as [TestBrowserSubscription, TestBrowserSubscription, TestBrowserSubscription];
  service.script.set(failing.id, [500, 503]);
  service.script.set(limited.id, [429]);
  await sendDirect(s, ada.user, [bob.user.user_id], 'persistent');
  for (let i = 0; i < 3; i++) {
    await new Promise((resolve) => setTimeout(resolve, 40));
    await settle(s);
  }
  t.same(requestsTo(failing), [500, 503, 201], 'the failing one until it took it');
  t.same(requestsTo(limited), [429, 201]);
  t.same(requestsTo(fine), [201], 'the one that took it at once: once');
  for (const b of bob.browsers) t.match(shown(b), [{ body: 'persistent' }]);
});

t.test('A message read before its retry is not pushed again; one deleted is not pushed', async (t) => {
  const ada = await person('Ada');
  const bob = await person('Bob');
  service.script.set(bob.browsers[0]!.id, [500]);
  const id = await sendDirect(s, ada.user, [bob.user.user_id], 'soon read');
  await settle(s);
  await s.request('POST', '/messages/flags', { as: bob.user, params: { messages: [id], op: 'add', flag: 'read' } });
  await new Promise((resolve) => setTimeout(resolve, 40));
  await settle(s);
  t.same(requestsTo(bob.browsers[0]!), [500], 'not tried again once read');
  t.equal(s.db.prepare("SELECT count(*) FROM delivery WHERE kind = 'web_push_message'").pluck().get(), 0, 'the delivery is done');
});

t.test('A browser turned off (DELETE /web_push/subscriptions) is notified no more', async (t) => {
  const ada = await person('Ada');
  const bob = await person('Bob');
  await s.request('DELETE', '/web_push/subscriptions', { as: bob.user, params: { endpoint: bob.browsers[0]!.endpoint } });
  await sendDirect(s, ada.user, [bob.user.user_id], 'after');
  await settle(s);
  t.same(requestsTo(bob.browsers[0]!), []);
});

t.test('A push service at a loopback or private address is refused unless webPush.allowPrivateAddresses', async (t) => {
  // node-fetch's own agent: the refusing lookup decides before any connection (the stand-in's certificate is not trusted either).
  const strict = await startServer({ webPush: {} });
  t.teardown(() => strict.close());
  const logged: string[] = [];
  contextOf(strict.chat).logger.warn = (message: string, fields?: Record<string, unknown>) => void logged.push(`${message} ${String(fields?.reason)}`);
  const [sender, receiver] = [await strict.user('member'), await strict.user('member')];
  const literal = service.subscribe();
  const named = service.subscribe();
  for (const b of [literal, { ...named, endpoint: named.endpoint.replace('127.0.0.1', 'localhost') }]) {
    await strict.request('POST', '/web_push/subscriptions', { as: receiver, params: { endpoint: b.endpoint, p256dh: b.p256dh, auth: b.auth } });
  }
  const connections = service.connections;
  await sendDirect(strict, sender, [receiver.user_id], 'to a private address');
  await settle(strict);
  t.equal(service.connections, connections, 'no connection to the private address, named by IP or by a name resolving to it');
  t.same(logged, ['web push not taken refused address', 'web push not taken refused address']);
});

t.test('Web Push off: a message decides no Web Push delivery', async (t) => {
  const off = await startServer({ webPush: false });
  t.teardown(() => off.close());
  const [sender, receiver] = [await off.user('member'), await off.user('member')];
  off.db.prepare("INSERT INTO web_push_subscription (user_id, endpoint, p256dh, auth, created_at) VALUES (?, 'https://push.example.com/x', 'k', 'a', 0)").run(receiver.user_id);
  await sendDirect(off, sender, [receiver.user_id], 'hello');
  t.equal(off.db.prepare('SELECT count(*) FROM delivery').pluck().get(), 0);
});
