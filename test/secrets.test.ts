// No API key, password, push key, device token, bouncer server key or image proxy key ever
// appears in a log line or an error message: one full scenario (authentication failures,
// /fetch_api_key, push registration and test notifications through a failing bouncer, image proxy
// URLs, parameter errors, forced 500s) with a
// capturing logger, then every log line and every answer is scanned for every secret.
import t from 'tap';
import type { Logger } from '../lib/logger.js';
import { keyParams, newPhone as makePhone, tokenParams, type Phone } from './bouncer.js';
import { basic, jsonBody, type Reply, type TestUser } from './helpers.js';
import { activeDevice, pushWorld } from './push_helpers.js';

const lines: string[] = [];
const capture: Logger = {
  info: (message, fields) => void lines.push(JSON.stringify({ level: 'info', message, ...fields })),
  warn: (message, fields) => void lines.push(JSON.stringify({ level: 'warn', message, ...fields })),
  error: (message, fields) => void lines.push(JSON.stringify({ level: 'error', message, ...fields })),
};

// The server's clock runs ahead once the failures used up the per-address and per-account limits.
let ahead = 0;
const { s, bouncer } = await pushWorld(t, {
  chat: { logger: capture, clock: () => Date.now() + ahead, rateLimit: { requestsPerMinute: 1000, authAttemptsPerMinute: 8 } },
  push: { retryDelaysMs: [1] },
});

/** Every answer of the scenario, with what the caller may legitimately see in it. */
const answers: { what: string; reply: Reply; mayContain: string[] }[] = [];
async function call(what: string, method: string, path: string, options: Parameters<typeof s.request>[2] = {}, mayContain: string[] = []): Promise<Reply> {
  const reply = await s.request(method, path, options);
  answers.push({ what, reply, mayContain });
  return reply;
}

const PASSWORDS = { owner: 'owner-password', member: 'Member-Pa55word-Secret', deactivated: 'Gone-Pa55word-Secret' };
const member = await s.user('member', { password: PASSWORDS.member });
const deactivated = await s.user('member', { password: PASSWORDS.deactivated });
const bot = await s.user('member', { bot: true });
s.chat.admin.deactivateUser(deactivated.user_id);
const phones: Phone[] = [];
const newPhone = (): Phone => {
  const phone = makePhone();
  phones.push(phone);
  return phone;
};
const keys = [s.owner, member, deactivated, bot].map((u) => u.api_key);
const as = (email: string, key: string) => ({ auth: basic(email, key) }) as TestUser;

t.test('the scenario runs', async (t) => {
  // Authentication failures of every kind, with real keys in the wrong places.
  await call('another user\'s key', 'GET', '/users/me', { as: as(member.email, s.owner.api_key) });
  await call('key and email swapped', 'GET', '/users/me', { as: as(member.api_key, member.email) });
  await call('truncated key', 'GET', '/users/me', { as: as(member.email, member.api_key.slice(0, 31)) });
  await call('key with a suffix', 'GET', '/users/me', { as: as(member.email, member.api_key + 'x') });
  await call('password as key', 'GET', '/users/me', { as: as(member.email, PASSWORDS.member) });
  await call('deactivated', 'GET', '/users/me', { as: deactivated });
  await call('not basic', 'GET', '/users/me', { headers: { authorization: `Bearer ${member.api_key}` } });
  await call('undecodable', 'GET', '/users/me', { headers: { authorization: `Basic ${member.api_key}` } });
  // Logins: right, wrong, unknown, deactivated, then over the per-account limit.
  await call('login', 'POST', '/fetch_api_key', { params: { username: member.email, password: PASSWORDS.member } }, [member.api_key]);
  await call('wrong password', 'POST', '/fetch_api_key', { params: { username: member.email, password: PASSWORDS.member + '!' } });
  await call('unknown user', 'POST', '/fetch_api_key', { params: { username: 'nobody@example.com', password: PASSWORDS.member } });
  await call('deactivated login', 'POST', '/fetch_api_key', { params: { username: deactivated.email, password: PASSWORDS.deactivated } });
  for (let i = 0; i < 8; i += 1) {
    await call('login flood', 'POST', '/fetch_api_key', { params: { username: s.owner.email, password: PASSWORDS.member } });
  }
  t.equal(answers.at(-1)!.reply.status, 429, 'the login limit was reached');
  await call('refused while over', 'GET', '/users/me', { as: as(member.email, s.owner.api_key) });
  t.equal(answers.at(-1)!.reply.status, 429, 'and the failed-authentication limit');
  ahead += 120_000;
  // Secrets sent as parameters where they do not belong, and refused.
  await call('user with a bad email', 'POST', '/users', { as: s.owner, params: { email: 'not an email', password: PASSWORDS.member, full_name: 'X' } });
  await call('user by a member', 'POST', '/users', { as: member, params: { email: 'new@example.com', password: PASSWORDS.member, full_name: 'New' } });
  await call('password too long', 'POST', '/users', { as: s.owner, params: { email: 'new@example.com', password: PASSWORDS.member.repeat(100), full_name: 'New' } });

  // Push: a registration that works, key and token rotation, test notifications, and a bouncer
  // that fails in each way (its registration failures are logged).
  const { deviceId, phone } = await activeDevice(s, member, bouncer);
  phones.push(phone);
  const rotated = newPhone();
  await call('key rotation', 'POST', '/mobile_push/register', { as: member, params: { device_id: deviceId, ...keyParams(bouncer, rotated) } });
  await call('test notification', 'POST', '/mobile_push/e2ee/test_notification', { as: member, params: { device_id: deviceId } });
  const broken = newPhone();
  const pushKey = broken.pushKey.toString('base64');
  await call('malformed push key', 'POST', '/mobile_push/register', {
    as: member,
    params: { device_id: deviceId, push_key: pushKey.slice(0, -4), push_key_id: 7, ...tokenParams(bouncer, broken) },
  });
  await call('push key of a bot', 'POST', '/mobile_push/register', { as: bot, params: { device_id: deviceId, ...keyParams(bouncer, broken) } });
  for (const mode of ['server_error', 'invalid_server', 'missing_realm', 'disallowed'] as const) {
    bouncer.mode.notify = mode;
    await call(`notify ${mode}`, 'POST', '/mobile_push/e2ee/test_notification', { as: member });
  }
  bouncer.mode.notify = 'ok';
  for (const mode of ['server_error', 'invalid_server'] as const) {
    bouncer.mode.register = mode;
    const created = await call('device', 'POST', '/register_client_device', { as: member });
    const failing = newPhone();
    await call(`register ${mode}`, 'POST', '/mobile_push/register', {
      as: member,
      params: { device_id: created.body.device_id, ...keyParams(bouncer, failing), ...tokenParams(bouncer, failing) },
    });
    // Registrations are forwarded as push_registration deliveries (lib/deliveries/runner.ts logs their failures).
    const logged = () => lines.filter((line) => line.includes('"delivery failed') && line.includes('"kind":"push_registration"')).length;
    const before = logged();
    for (let i = 0; i < 200 && logged() === before; i += 1) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }
  bouncer.mode.register = 'ok';
  t.ok(lines.some((line) => line.includes('"delivery failed') && line.includes('"kind":"push_registration"')), 'bouncer failures were logged');

  // Forced 500s: tables gone under a running server, during authentication and inside a domain call.
  s.db.exec('ALTER TABLE draft RENAME TO draft_gone');
  await call('500 in a domain call', 'POST', '/drafts', { as: member, params: { drafts: [{ type: '', to: [], topic: '', content: PASSWORDS.member }] } });
  s.db.exec('ALTER TABLE draft_gone RENAME TO draft');
  s.db.exec('ALTER TABLE user RENAME TO user_gone');
  await call('500 during authentication', 'GET', '/users/me', { as: member });
  await call('500 during login', 'POST', '/fetch_api_key', { params: { username: member.email, password: PASSWORDS.member } });
  s.db.exec('ALTER TABLE user_gone RENAME TO user');
  t.ok(answers.filter((a) => a.reply.status === 500).length >= 2, 'the forced errors were 500s');
  t.ok(lines.filter((line) => line.includes('unexpected error')).length >= 2, 'and were logged');
  t.equal((await call('recovered', 'GET', '/users/me', { as: member })).status, 200);

  // The image proxy: a rendered image carries a signed URL, never the key; a forged one is refused.
  const preview = await call('image preview', 'POST', '/messages/render', { as: member, params: { content: '![x](https://images.example/x.png)' } });
  const signed = /src="([^"]+)"/.exec(preview.body.rendered as string)![1]!;
  const forged = await fetch(s.url + signed.replace(/\/external_content\/./, (p) => p.slice(0, -1) + (p.endsWith('0') ? '1' : '0')));
  answers.push({ what: 'forged image proxy URL', reply: { status: forged.status, body: await jsonBody(forged), headers: forged.headers }, mayContain: [] });
  t.equal(forged.status, 403);

  // Reading everything back: no state or list carries a secret.
  await call('register', 'POST', '/register', { as: member });
  await call('users', 'GET', '/users', { as: s.owner });
  await call('me', 'GET', '/users/me', { as: member });
});

t.test('no log line contains a secret', async (t) => {
  const secrets = allSecrets();
  t.ok(lines.length > 0);
  for (const line of lines) {
    for (const [name, secret] of secrets) t.notOk(line.includes(secret), `log line has no ${name}: ${line.slice(0, 120)}`);
  }
});

t.test('no answer contains a secret, except the caller\'s own key where it is the answer', async (t) => {
  const secrets = allSecrets();
  for (const { what, reply, mayContain } of answers) {
    const text = JSON.stringify(reply.body) + JSON.stringify([...reply.headers]);
    for (const [name, secret] of secrets) {
      if (mayContain.includes(secret) && reply.status === 200) continue;
      t.notOk(text.includes(secret), `${what} (${reply.status}) has no ${name}`);
    }
    if (reply.body.result === 'error') t.notOk(/at .*\.(ts|js):\d+/.test(reply.body.msg), `${what}: no stack trace`);
  }
});

/** Every secret of the scenario with a name, in each form it travels in. */
function allSecrets(): [string, string][] {
  const secrets: [string, string][] = [];
  keys.forEach((key, i) => secrets.push([`API key ${i}`, key]));
  for (const [who, password] of Object.entries(PASSWORDS)) secrets.push([`${who} password`, password]);
  secrets.push(['bouncer server key', bouncer.serverKey]);
  const proxyKey = s.db.prepare('SELECT key FROM image_proxy_key').pluck().get() as Buffer;
  secrets.push(['image proxy key (hex)', proxyKey.toString('hex')], ['image proxy key (base64)', proxyKey.toString('base64')]);
  for (const [id, key] of bouncer.phoneKeys) {
    secrets.push([`push key ${id}`, Buffer.from(key).toString('base64')], [`push key ${id} (hex)`, Buffer.from(key).toString('hex')]);
  }
  for (const phone of phones) {
    secrets.push([`device token ${phone.tokenId}`, phone.token], [`push key of ${phone.tokenId}`, phone.pushKey.toString('base64')]);
  }
  return secrets;
}
