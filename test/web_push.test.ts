// Web Push subscriptions (parley's own endpoints): GET /web_push/key, the server's VAPID key made
// once and kept in the database; POST /web_push/subscriptions, a browser's PushSubscription for
// the caller, checked (an https: push service URL, a P-256 key, a 16-byte secret), one per
// endpoint, at most 20 per user; DELETE /web_push/subscriptions. Over HTTP and in-process.
import { createECDH, randomBytes } from 'node:crypto';
import t from 'tap';
import { MAX_WEB_PUSH_SUBSCRIPTIONS } from '../lib/domain/web_push.js';
import { startServer, type TestUser } from './helpers.js';
import { bad, bothFail, ok } from './messaging_helpers.js';

const s = await startServer();
t.teardown(() => s.close());
const api = s.chat.api;

let browsers = 0;
/** A browser's subscription, as PushSubscription gives it. */
function browser(host = 'push.example.com') {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  browsers += 1;
  return { endpoint: `https://${host}/send/${browsers}-${randomBytes(6).toString('hex')}`, p256dh: ecdh.getPublicKey('base64url'), auth: randomBytes(16).toString('base64url') };
}
const rows = (user: TestUser) =>
  s.db.prepare('SELECT endpoint, p256dh, auth FROM web_push_subscription WHERE user_id = ? ORDER BY id').all(user.user_id) as { endpoint: string; p256dh: string; auth: string }[];
const subscribe = (user: TestUser, params: Record<string, unknown>) => s.request('POST', '/web_push/subscriptions', { as: user, params });
const unsubscribe = (user: TestUser, endpoint: string) => s.request('DELETE', '/web_push/subscriptions', { as: user, params: { endpoint } });

t.test('GET /web_push/key: the VAPID public key, made once and kept', async (t) => {
  const member = await s.user('member');
  t.equal(s.db.prepare('SELECT count(*) FROM web_push_vapid_key').pluck().get(), 0, 'no key before a browser asks');
  const { public_key: key } = ok(t, await s.request('GET', '/web_push/key', { as: member }));
  const point = Buffer.from(key, 'base64url');
  t.equal(point.length, 65, 'an uncompressed P-256 point');
  t.equal(point[0], 4);
  t.equal(key, point.toString('base64url'), 'base64url without padding');
  t.same(api.webPush.key(s.owner.user_id), { public_key: key }, 'the same key for everyone, in-process too');
  const stored = s.db.prepare('SELECT public_key, private_key FROM web_push_vapid_key').get() as { public_key: string; private_key: string };
  t.equal(stored.public_key, key, 'kept in the database');
  const ecdh = createECDH('prime256v1');
  ecdh.setPrivateKey(Buffer.from(stored.private_key, 'base64url'));
  t.equal(ecdh.getPublicKey('base64url'), key, 'with its private key, which no answer carries');
});

t.test('Web Push off (webPush: false): the key and subscriptions are refused', async (t) => {
  const off = await startServer({ webPush: false });
  t.teardown(() => off.close());
  const member = await off.user('member');
  const expected = { status: 400, code: 'PUSH_SERVICE_NOT_CONFIGURED', msg: 'Web Push is not enabled on this server.' };
  await bothFail(t, () => off.request('GET', '/web_push/key', { as: member }), () => off.chat.api.webPush.key(member.user_id), expected);
  const b = browser();
  await bothFail(t, () => off.request('POST', '/web_push/subscriptions', { as: member, params: b }), () => off.chat.api.webPush.subscribe(member.user_id, b), expected);
});

t.test('POST /web_push/subscriptions: a browser of the caller; the same endpoint again takes its new keys', async (t) => {
  const member = await s.user('member');
  const first = browser();
  const second = browser('updates.push.example.net');
  ok(t, await subscribe(member, first));
  t.same(api.webPush.subscribe(member.user_id, second), {}, 'in-process too');
  t.same(rows(member), [first, second], 'several browsers per user');
  const renewed = { ...browser(), endpoint: first.endpoint };
  ok(t, await subscribe(member, renewed));
  t.same(rows(member), [renewed, second], 'one row per endpoint, with the keys given last');
});

t.test('A browser another user turns it on in becomes theirs (one browser profile, one subscription)', async (t) => {
  const [ann, ben] = [await s.user('member'), await s.user('member')];
  const shared = browser();
  ok(t, await subscribe(ann, shared));
  ok(t, await subscribe(ben, shared));
  t.same(rows(ann), [], "no longer Ann's");
  t.same(rows(ben), [shared], "Ben's");
});

t.test(`A user's browsers past ${MAX_WEB_PUSH_SUBSCRIPTIONS}: the oldest goes`, async (t) => {
  const member = await s.user('member');
  const all = Array.from({ length: MAX_WEB_PUSH_SUBSCRIPTIONS + 1 }, () => browser());
  for (const b of all) ok(t, await subscribe(member, b), 'subscribed');
  t.same(rows(member).map((r) => r.endpoint), all.slice(1).map((b) => b.endpoint));
});

t.test('POST /web_push/subscriptions: what is not a push subscription is refused, and nothing is stored', async (t) => {
  const member = await s.user('member');
  const good = browser();
  const offCurve = Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 1)]).toString('base64url');
  const cases: [Record<string, unknown>, string][] = [
    [{ endpoint: 'not a url' }, 'Invalid endpoint: not a URL'],
    [{ endpoint: 'http://push.example.com/send/1' }, 'Invalid endpoint: not an https: URL'],
    [{ endpoint: 'javascript:alert(1)' }, 'Invalid endpoint: not an https: URL'],
    [{ endpoint: 'https://user:pass@push.example.com/send/1' }, 'Invalid endpoint: a push service URL has no credentials or fragment'],
    [{ endpoint: 'https://push.example.com/send/1#x' }, 'Invalid endpoint: a push service URL has no credentials or fragment'],
    [{ p256dh: Buffer.concat([Buffer.from([4]), Buffer.alloc(64, 0xfb)]).toString('base64') }, 'Invalid p256dh: not a base64url P-256 public key'],
    [{ p256dh: good.p256dh.slice(0, 40) }, 'Invalid p256dh: not a base64url P-256 public key'],
    [{ p256dh: offCurve }, 'Invalid p256dh: not a point of P-256'],
    [{ auth: randomBytes(15).toString('base64url') }, 'Invalid auth: not a base64url 16-byte secret'],
    [{ auth: '!!!!' }, 'Invalid auth: not a base64url 16-byte secret'],
  ];
  for (const [change, msg] of cases) {
    const params = { ...good, ...change };
    await bothFail(t, () => subscribe(member, params), () => api.webPush.subscribe(member.user_id, params as typeof good), bad(msg));
  }
  const long = { ...good, endpoint: `https://push.example.com/${'a'.repeat(2048)}` };
  t.equal((await subscribe(member, long)).body.msg, 'endpoint is too long (limit: 2048 characters)');
  t.same(rows(member), [], 'nothing stored');
});

t.test('DELETE /web_push/subscriptions: the caller\'s browser goes; another\'s or an unknown one is an error', async (t) => {
  const [ann, ben] = [await s.user('member'), await s.user('member')];
  const [a1, a2] = [browser(), browser()];
  ok(t, await subscribe(ann, a1));
  ok(t, await subscribe(ann, a2));
  const expected = bad('Subscription does not exist');
  await bothFail(t, () => unsubscribe(ben, a1.endpoint), () => api.webPush.unsubscribe(ben.user_id, { endpoint: a1.endpoint }), expected);
  ok(t, await unsubscribe(ann, a1.endpoint));
  t.same(rows(ann), [a2], 'only that browser');
  await bothFail(t, () => unsubscribe(ann, a1.endpoint), () => api.webPush.unsubscribe(ann.user_id, { endpoint: a1.endpoint }), expected);
  await bothFail(t, () => unsubscribe(ann, 'not a url'), () => api.webPush.unsubscribe(ann.user_id, { endpoint: 'not a url' }), expected);
  t.same(api.webPush.unsubscribe(ann.user_id, { endpoint: a2.endpoint }), {}, 'in-process');
  t.same(rows(ann), []);
});
