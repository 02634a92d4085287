// Passwords: a new one has at least 6 characters (Zulip's PASSWORD_MIN_LENGTH), wherever it is set
// (POST /users, in-process, the admin API); a stored hash matches only when it has the scrypt
// parameters parley writes and a full-length digest: anything else never matches, and is logged
// without the hash.
import { scryptSync } from 'node:crypto';
import t from 'tap';
import type { Logger } from '../lib/logger.js';
import { startServer, type TestServer } from './helpers.js';

const WEAK = { result: 'error', msg: 'The password is too weak.', code: 'BAD_REQUEST' };
const FAILED = { result: 'error', msg: 'Your username or password is incorrect', code: 'AUTHENTICATION_FAILED' };

t.test('POST /users refuses a password under 6 characters with Zulip\'s "The password is too weak."', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  for (const password of ['', 'p', 'five5', '🔑🔑🔑🔑🔑']) {
    const reply = await s.request('POST', '/users', { as: s.owner, params: { email: 'weak@example.com', password, full_name: 'Weak' } });
    t.equal(reply.status, 400, JSON.stringify(password));
    t.same(reply.body, WEAK);
    await t.rejects(s.chat.api.users.create(s.owner.user_id, { email: 'weak@example.com', password, fullName: 'Weak' }), { code: 'BAD_REQUEST', message: WEAK.msg }, 'in-process');
  }
  await t.rejects(s.chat.admin.addUser({ email: 'weak@example.com', fullName: 'Weak', password: 'short' }), { message: WEAK.msg }, 'the admin API (and so the CLI)');
  t.equal((s.db.prepare("SELECT count(*) AS n FROM user WHERE email = 'weak@example.com'").get() as { n: number }).n, 0, 'nothing was written');
  const taken = await s.request('POST', '/users', { as: s.owner, params: { email: s.owner.email, password: 'p', full_name: 'Again' } });
  t.same(taken.body.msg, `Email '${s.owner.email}' already in use`, 'as in Zulip, a taken email is reported first');
  const six = await s.request('POST', '/users', { as: s.owner, params: { email: 'six@example.com', password: '🔑🔑🔑🔑🔑🔑', full_name: 'Six' } });
  t.equal(six.status, 200, 'six characters (code points) are enough');
  const login = await s.request('POST', '/fetch_api_key', { params: { username: 'six@example.com', password: '🔑🔑🔑🔑🔑🔑' } });
  t.equal(login.status, 200);
});

function capture(): { logger: Logger; lines: string[] } {
  const lines: string[] = [];
  const push = (level: string) => (message: string, fields?: Record<string, unknown>) => void lines.push(JSON.stringify({ level, message, ...fields }));
  return { logger: { info: push('info'), warn: push('warn'), error: push('error') }, lines };
}

const b64 = (bytes: number, fill = 7) => Buffer.alloc(bytes, fill).toString('base64');

/** The hash of `password` with other scrypt parameters than parley's. */
function foreignHash(password: string, n: number, r: number, p: number): string {
  const salt = Buffer.alloc(16, 3);
  return `scrypt$${n}$${r}$${p}$${salt.toString('base64')}$${scryptSync(password, salt, 32, { N: n, r, p, maxmem: 64 * 1024 * 1024 }).toString('base64')}`;
}

async function withHash(s: TestServer, hash: string): Promise<number> {
  const user = await s.user('member', { password: 'the-real-password' });
  s.db.prepare('UPDATE user SET password_hash = ? WHERE id = ?').run(hash, user.user_id);
  return user.user_id;
}

t.test('a stored hash that parley did not write never matches, costs no more than a normal one, and is logged without the hash', async (t) => {
  const { logger, lines } = capture();
  const s = await startServer({ logger });
  t.teardown(() => s.close());
  const crafted: [string, string][] = [
    ['an empty digest', `scrypt$16384$8$1$${b64(16)}$`],
    ['a short digest', `scrypt$16384$8$1$${b64(16)}$${b64(4)}`],
    ['a long digest', `scrypt$16384$8$1$${b64(16)}$${b64(64)}`],
    ['an unbounded p', `scrypt$16384$8$1000000$${b64(16)}$${b64(32)}`],
    ['a bad N', `scrypt$3$8$1$${b64(16)}$${b64(32)}`],
    ['a huge N', `scrypt$1099511627776$8$1$${b64(16)}$${b64(32)}`],
    ['another r', foreignHash('anything', 16384, 4, 1)],
    ['a cheaper N', foreignHash('anything', 1024, 8, 1)],
    ['an empty salt', `scrypt$16384$8$1$$${b64(32)}`],
    ['not base64', `scrypt$16384$8$1$${b64(16)}$${'*'.repeat(43)}=`],
    ['another algorithm', `pbkdf2_sha256$600000$salt$${b64(32)}`],
    ['garbage', 'x'],
    ['empty', ''],
    ['extra fields', `scrypt$16384$8$1$${b64(16)}$${b64(32)}$more`],
  ];
  for (const [what, hash] of crafted) {
    const userId = await withHash(s, hash);
    const email = (s.db.prepare('SELECT email FROM user WHERE id = ?').get(userId) as { email: string }).email;
    for (const password of ['anything', '', 'the-real-password']) {
      const reply = await s.request('POST', '/fetch_api_key', { params: { username: email, password } });
      t.same([reply.status, reply.body], [401, FAILED], `${what}: '${password}'`);
    }
    await t.rejects(s.chat.api.server.fetchApiKey(null, { username: email, password: 'anything' }), { code: 'AUTHENTICATION_FAILED' }, `${what}: in-process`);
    const logged = lines.filter((line) => line.includes('unusable password hash') && line.includes(`"user_id":${userId}`));
    t.equal(logged.length, 4, `${what}: each attempt is logged with the user id`);
    if (hash.length > 2) t.notOk(lines.some((line) => line.includes(hash)), `${what}: never the hash`);
  }
  t.notOk(lines.some((line) => line.includes('"level":"error"')), 'no 500 on the way');
});

t.test('hashes parley writes still match, and only their password', async (t) => {
  const { logger, lines } = capture();
  const s = await startServer({ logger });
  t.teardown(() => s.close());
  const user = await s.user('member', { password: 'the-real-password' });
  t.equal((await s.request('POST', '/fetch_api_key', { params: { username: user.email, password: 'the-real-password' } })).status, 200);
  t.equal((await s.request('POST', '/fetch_api_key', { params: { username: user.email, password: 'the-real-passwor' } })).status, 401);
  const bot = await s.user('member', { bot: true });
  t.equal((await s.request('POST', '/fetch_api_key', { params: { username: bot.email, password: '' } })).status, 401, 'no password set: nothing matches, nothing logged');
  t.same(lines.filter((line) => line.includes('unusable')), []);
});
