// Parameter limits (docs/http.md "Limits", lib/routes/limits.ts): every list and string parameter
// that Zulip does not bound is refused over its limit with a 400 naming it,
// before anything else happens; at the limit it passes parameter decoding.
import http from 'node:http';
import net from 'node:net';
import t from 'tap';
import { MAX_FLAG_MESSAGES } from '../lib/domain/message_flags.js';
import { MAX_MESSAGES_PER_FETCH } from '../lib/domain/message_fetch.js';
import { MAX_MESSAGE_LENGTH } from '../lib/domain/message_addressee.js';
import { MAX_JSON_DEPTH } from '../lib/http/params.js';
import {
  MAX_ALERT_WORDS_PER_REQUEST,
  MAX_ALTERNATIVE_URL_TEMPLATES,
  MAX_CHANNELS_PER_REQUEST,
  MAX_DRAFTS_PER_REQUEST,
  MAX_EMAIL_LENGTH,
  MAX_ENCRYPTED_PUSH_REGISTRATION_LENGTH,
  MAX_EVENT_TYPES,
  MAX_LINKIFIER_IDS,
  MAX_NARROW_TERMS,
  MAX_PASSWORD_LENGTH,
  MAX_TEXT_LENGTH,
  MAX_USERS_PER_REQUEST,
} from '../lib/routes/limits.js';
import { startServer } from './helpers.js';

const s = await startServer({ socket: true });
t.teardown(() => s.close());

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1);
const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i}`);
const text = (n: number) => 'x'.repeat(n);
const draft = (extra: object = {}) => ({ type: '', to: [], topic: '', content: 'c', ...extra });
const term = (operand: unknown) => [{ operator: 'search', operand }];

interface Limit {
  /** `METHOD path` as sent. */
  at: string;
  /** The parameter under test, at the limit (`within`) and one over it (`over`). */
  name: string;
  within: unknown;
  over: unknown;
  message: string;
  /** Other parameters the endpoint needs to get as far as this one. */
  rest?: Record<string, unknown> | undefined;
  /** Where the list lives, when it is inside the parameter. */
  wrap?: (value: unknown) => unknown;
}

const items = (limit: number, name: string, make: (n: number) => unknown, rest?: Record<string, unknown>): Pick<Limit, 'within' | 'over' | 'message' | 'rest'> => ({
  within: make(limit),
  over: make(limit + 1),
  message: `${name} is too long (limit: ${limit} items)`,
  rest,
});
const chars = (limit: number, name: string, rest?: Record<string, unknown>): Pick<Limit, 'within' | 'over' | 'message' | 'rest'> => ({
  within: text(limit),
  over: text(limit + 1),
  message: `${name} is too long (limit: ${limit} characters)`,
  rest,
});

const linkifier = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://example.com/{id}' };

const LIMITS: Limit[] = [
  { at: 'POST /users/me/alert_words', name: 'alert_words', ...items(MAX_ALERT_WORDS_PER_REQUEST, 'alert_words', words) },
  { at: 'DELETE /users/me/alert_words', name: 'alert_words', ...items(MAX_ALERT_WORDS_PER_REQUEST, 'alert_words', words) },
  { at: 'POST /drafts', name: 'drafts', ...items(MAX_DRAFTS_PER_REQUEST, 'drafts', (n) => Array.from({ length: n }, () => draft())) },
  { at: 'POST /drafts', name: 'drafts', ...items(MAX_USERS_PER_REQUEST, 'drafts[0]["to"]', ids), wrap: (to) => [draft({ type: 'private', to })] },
  { at: 'PATCH /drafts/1', name: 'draft', ...items(MAX_USERS_PER_REQUEST, 'draft["to"]', ids), wrap: (to) => draft({ type: 'private', to }) },
  { at: 'POST /register', name: 'event_types', ...items(MAX_EVENT_TYPES, 'event_types', words) },
  { at: 'POST /register', name: 'fetch_event_types', ...items(MAX_EVENT_TYPES, 'fetch_event_types', words) },
  { at: 'POST /register', name: 'event_types', ...chars(MAX_TEXT_LENGTH, 'event_types[0]'), wrap: (type) => [type] },
  { at: 'POST /register', name: 'narrow', ...items(MAX_NARROW_TERMS, 'narrow', (n) => Array.from({ length: n }, () => ['is', 'starred'])) },
  { at: 'GET /events', name: 'queue_id', ...chars(MAX_TEXT_LENGTH, 'queue_id') },
  { at: 'DELETE /events', name: 'queue_id', ...chars(MAX_TEXT_LENGTH, 'queue_id') },
  { at: 'POST /realm/filters', name: 'pattern', ...chars(MAX_TEXT_LENGTH, 'pattern', { url_template: 'https://example.com' }) },
  { at: 'POST /realm/filters', name: 'url_template', ...chars(MAX_TEXT_LENGTH, 'url_template', { pattern: 'x' }) },
  { at: 'POST /realm/filters', name: 'example_input', ...chars(MAX_TEXT_LENGTH, 'example_input', linkifier) },
  { at: 'POST /realm/filters', name: 'reverse_template', ...chars(MAX_TEXT_LENGTH, 'reverse_template', linkifier) },
  { at: 'PATCH /realm/filters/1', name: 'pattern', ...chars(MAX_TEXT_LENGTH, 'pattern', { url_template: 'https://example.com' }) },
  {
    at: 'POST /realm/filters',
    name: 'alternative_url_templates',
    ...items(MAX_ALTERNATIVE_URL_TEMPLATES, 'alternative_url_templates', (n) => Array.from({ length: n }, (_, i) => `https://example.com/${i}/{id}`), linkifier),
  },
  { at: 'POST /realm/filters', name: 'alternative_url_templates', ...chars(MAX_TEXT_LENGTH, 'alternative_url_templates[0]', linkifier), wrap: (u) => [u] },
  { at: 'PATCH /realm/linkifiers', name: 'ordered_linkifier_ids', ...items(MAX_LINKIFIER_IDS, 'ordered_linkifier_ids', ids) },
  { at: 'POST /messages', name: 'to', ...items(MAX_USERS_PER_REQUEST, 'to', ids, { type: 'direct', content: 'hi' }) },
  { at: 'GET /messages', name: 'narrow', ...items(MAX_NARROW_TERMS, 'narrow', (n) => Array.from({ length: n }, () => ['is', 'starred'])) },
  { at: 'GET /messages', name: 'narrow', ...chars(MAX_TEXT_LENGTH, 'narrow[0]["operand"]'), wrap: term },
  { at: 'GET /messages', name: 'narrow', ...items(MAX_USERS_PER_REQUEST, 'narrow[0]["operand"]', ids), wrap: (list) => [{ operator: 'dm', operand: list }] },
  { at: 'GET /messages', name: 'narrow', ...chars(MAX_TEXT_LENGTH, 'narrow[0][1]'), wrap: (operand) => [['search', operand]] },
  { at: 'GET /messages', name: 'message_ids', ...items(MAX_MESSAGES_PER_FETCH, 'message_ids', ids) },
  { at: 'GET /messages', name: 'anchor', ...chars(MAX_TEXT_LENGTH, 'anchor') },
  { at: 'POST /messages/render', name: 'content', ...chars(MAX_MESSAGE_LENGTH, 'content') },
  { at: 'POST /messages/flags', name: 'messages', ...items(MAX_FLAG_MESSAGES, 'messages', ids, { op: 'add', flag: 'starred' }) },
  {
    at: 'POST /messages/flags/narrow',
    name: 'narrow',
    ...items(MAX_NARROW_TERMS, 'narrow', (n) => Array.from({ length: n }, () => ['is', 'starred']), { anchor: 'newest', num_before: 1, num_after: 0, op: 'add', flag: 'starred' }),
  },
  { at: 'POST /navigation_views', name: 'fragment', ...chars(MAX_TEXT_LENGTH, 'fragment', { is_pinned: true, name: 'N' }) },
  { at: 'POST /navigation_views', name: 'name', ...chars(MAX_TEXT_LENGTH, 'name', { is_pinned: true, fragment: 'narrow/x' }) },
  { at: 'PATCH /navigation_views/inbox', name: 'name', ...chars(MAX_TEXT_LENGTH, 'name') },
  { at: 'POST /mobile_push/register', name: 'push_key', ...chars(MAX_TEXT_LENGTH, 'push_key', { device_id: 1 }) },
  { at: 'POST /mobile_push/register', name: 'token_id', ...chars(MAX_TEXT_LENGTH, 'token_id', { device_id: 1 }) },
  { at: 'POST /mobile_push/register', name: 'bouncer_public_key', ...chars(MAX_TEXT_LENGTH, 'bouncer_public_key', { device_id: 1 }) },
  {
    at: 'POST /mobile_push/register',
    name: 'encrypted_push_registration',
    ...chars(MAX_ENCRYPTED_PUSH_REGISTRATION_LENGTH, 'encrypted_push_registration', { device_id: 1 }),
  },
  { at: 'POST /fetch_api_key', name: 'username', ...chars(MAX_EMAIL_LENGTH, 'username', { password: 'p' }) },
  { at: 'POST /fetch_api_key', name: 'password', ...chars(MAX_PASSWORD_LENGTH, 'password', { username: 'nobody@example.com' }) },
  {
    at: 'POST /users/me/subscriptions',
    name: 'subscriptions',
    ...items(MAX_CHANNELS_PER_REQUEST, 'subscriptions', (n) => Array.from({ length: n }, (_, i) => ({ name: `limits ${i}` })), { principals: [0] }),
  },
  { at: 'POST /users/me/subscriptions', name: 'principals', ...items(MAX_USERS_PER_REQUEST, 'principals', ids, { subscriptions: [] }) },
  { at: 'DELETE /users/me/subscriptions', name: 'subscriptions', ...items(MAX_CHANNELS_PER_REQUEST, 'subscriptions', words) },
  { at: 'DELETE /users/me/subscriptions', name: 'principals', ...items(MAX_USERS_PER_REQUEST, 'principals', (n) => words(n).map((w) => `${w}@example.com`), { subscriptions: [] }) },
  { at: 'GET /get_stream_id', name: 'stream', ...chars(MAX_TEXT_LENGTH, 'stream') },
  { at: 'POST /user_groups/create', name: 'members', ...items(MAX_USERS_PER_REQUEST, 'members', ids, { name: 'g', description: 'd' }) },
  { at: 'POST /user_groups/1/members', name: 'add', ...items(MAX_USERS_PER_REQUEST, 'add', ids) },
  { at: 'POST /user_groups/1/members', name: 'delete', ...items(MAX_USERS_PER_REQUEST, 'delete', ids) },
  { at: 'POST /users/me/status', name: 'emoji_name', ...chars(MAX_TEXT_LENGTH, 'emoji_name') },
  { at: 'POST /users/1/status', name: 'emoji_code', ...chars(MAX_TEXT_LENGTH, 'emoji_code', { emoji_name: 'x' }) },
  { at: 'POST /users/1/status', name: 'reaction_type', ...chars(MAX_TEXT_LENGTH, 'reaction_type', { emoji_name: 'x' }) },
  { at: 'POST /users', name: 'email', ...chars(MAX_EMAIL_LENGTH, 'email', { password: 'p', full_name: 'Name' }) },
  { at: 'POST /users', name: 'password', ...chars(MAX_PASSWORD_LENGTH, 'password', { email: 'limits@example.com', full_name: 'N' }) },
  { at: 'POST /bots', name: 'short_name', ...chars(MAX_EMAIL_LENGTH, 'short_name', { full_name: 'Bot' }) },
];

/** A form body with any method: long lists do not fit in a query string (Node limits headers to 16 KiB). */
function send(limit: Limit, value: unknown): Promise<{ status: number; body: Record<string, any> }> {
  const [method, path] = limit.at.split(' ') as [string, string];
  const params = { ...limit.rest, [limit.name]: limit.wrap ? limit.wrap(value) : value };
  const body = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)])).toString();
  return new Promise((resolve, reject) => {
    const req = http.request(`${s.url}/api/v1${path}`, {
      method,
      headers: { authorization: s.owner.auth, 'content-type': 'application/x-www-form-urlencoded', 'content-length': Buffer.byteLength(body) },
    });
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const limit of LIMITS) {
  t.test(`${limit.at}: ${limit.message}`, async (t) => {
    const over = await send(limit, limit.over);
    t.equal(over.status, 400);
    t.same(over.body, { result: 'error', msg: limit.message, code: 'BAD_REQUEST' });
    const within = await send(limit, limit.within);
    t.not(within.body.msg, limit.message, 'at the limit the parameter is accepted');
    t.notMatch(within.body.msg ?? '', /is too long \(limit/, 'and no other limit is hit');
  });
}

t.test('JSON parameters nest at most 100 levels (deeper ones would overflow the stack when stored)', async (t) => {
  const deep = (n: number) => '{"a":'.repeat(n - 1) + '{}' + '}'.repeat(n - 1);
  const within = await s.request('POST', '/register', { as: s.owner, params: { client_capabilities: deep(MAX_JSON_DEPTH) } });
  t.equal(within.status, 200);
  for (const n of [MAX_JSON_DEPTH + 1, 20_000]) {
    const over = await s.request('POST', '/register', { as: s.owner, params: { client_capabilities: deep(n) }, encoding: 'multipart' });
    t.equal(over.status, 400, `${n} levels`);
    t.same(over.body, { result: 'error', msg: `client_capabilities is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`, code: 'BAD_REQUEST' });
  }
  const inString = await s.request('POST', '/users/me/alert_words', { as: s.owner, params: { alert_words: JSON.stringify(['['.repeat(99)]) } });
  t.equal(inString.status, 200, 'brackets inside strings do not count');
  const list = await s.request('GET', '/messages', { as: s.owner, params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: '['.repeat(101) + ']'.repeat(101) } });
  t.equal(list.body.msg, `narrow is nested too deeply (limit: ${MAX_JSON_DEPTH} levels)`);
});

t.test('the client name (the client parameter or the User-Agent) is cut to 30 characters, as Zulip stores it', async (t) => {
  s.chat.api.streams.subscribe(s.owner.user_id, { subscriptions: [{ name: 'limits' }] });
  const sent = await s.request('POST', '/messages', {
    as: s.owner,
    params: { type: 'stream', to: 'limits', topic: 't', content: 'hi', client: 'é'.repeat(5_000) },
  });
  t.equal(sent.status, 200);
  t.equal(s.db.prepare('SELECT sending_client FROM message WHERE id = ?').pluck().get(sent.body.id), 'é'.repeat(30));
});

t.test('string limits count Unicode code points, not UTF-16 units', async (t) => {
  const astral = '😀'.repeat(MAX_TEXT_LENGTH);
  const within = await s.request('POST', '/navigation_views', { as: s.owner, params: { fragment: 'narrow/emoji', is_pinned: true, name: astral } });
  t.equal(within.status, 200, `${MAX_TEXT_LENGTH} emoji are ${MAX_TEXT_LENGTH * 2} UTF-16 units and fit`);
  const over = await s.request('POST', '/navigation_views', { as: s.owner, params: { fragment: 'narrow/emoji2', is_pinned: true, name: astral + '😀' } });
  t.equal(over.body.msg, `name is too long (limit: ${MAX_TEXT_LENGTH} characters)`);
});

t.test('the in-process API applies the same limits', async (t) => {
  t.throws(() => s.chat.api.alertWords.add(s.owner.user_id, { alertWords: words(MAX_ALERT_WORDS_PER_REQUEST + 1) }), {
    code: 'BAD_REQUEST',
    message: `alert_words is too long (limit: ${MAX_ALERT_WORDS_PER_REQUEST} items)`,
  });
  t.throws(() => s.chat.api.drafts.create(s.owner.user_id, { drafts: Array.from({ length: MAX_DRAFTS_PER_REQUEST + 1 }, () => draft()) as never }), {
    message: `drafts is too long (limit: ${MAX_DRAFTS_PER_REQUEST} items)`,
  });
  t.throws(() => s.chat.api.linkifiers.add(s.owner.user_id, { pattern: text(MAX_TEXT_LENGTH + 1), urlTemplate: 'https://example.com' }), {
    message: `pattern is too long (limit: ${MAX_TEXT_LENGTH} characters)`,
  });
});

t.test('a request over a limit changes nothing', async (t) => {
  const before = s.chat.api.alertWords.list(s.owner.user_id).alert_words;
  const drafts = s.chat.api.drafts.list(s.owner.user_id).count;
  await s.request('POST', '/users/me/alert_words', { as: s.owner, params: { alert_words: words(MAX_ALERT_WORDS_PER_REQUEST + 1) } });
  await s.request('POST', '/drafts', { as: s.owner, params: { drafts: Array.from({ length: MAX_DRAFTS_PER_REQUEST + 1 }, () => draft()) } });
  t.same(s.chat.api.alertWords.list(s.owner.user_id).alert_words, before);
  t.equal(s.chat.api.drafts.list(s.owner.user_id).count, drafts);
});

t.test('a request line and headers over 16 KiB get a JSON 431; bytes that are not HTTP a JSON 400', async (t) => {
  const long = await s.request('GET', '/messages', { as: s.owner, params: { message_ids: ids(5000) } });
  t.equal(long.status, 431);
  t.same(long.body, {
    result: 'error',
    msg: 'Request header fields too large (the query string counts)',
    code: 'REQUEST_HEADER_FIELDS_TOO_LARGE',
  });
  const port = Number(new URL(s.url).port);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write('\u0000\u0001 nonsense\r\n\r\n'));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (text += chunk));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  t.match(answer, /^HTTP\/1\.1 400 Bad Request\r\n/);
  t.match(answer, /\r\nX-Content-Type-Options: nosniff\r\n/, 'nosniff, as every JSON answer');
  t.same(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), { result: 'error', msg: 'Malformed HTTP request', code: 'BAD_REQUEST' });
  t.equal((await s.request('GET', '/users/me', { as: s.owner })).status, 200, 'the server keeps serving');
});
