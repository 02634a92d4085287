// Rate limits as Zulip reports them: X-RateLimit-* headers on every API
// answer while limiting is on (authenticated or not, success or error), the strictest limit when
// several apply, long-polls in a budget of their own, and none at all when it is off. test/http.test.ts covers the buckets themselves.
import t from 'tap';
import { basic, startServer, type TestUser } from './helpers.js';

const NOW = 1_700_000_000_000;

function limitHeaders(reply: { headers: Headers }): [string | null, string | null, string | null] {
  return ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((name) => reply.headers.get(name)) as [
    string | null,
    string | null,
    string | null,
  ];
}

t.test('every answer of an authenticated endpoint carries the X-RateLimit headers, errors included', async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 10 }, clock: () => NOW });
  t.teardown(() => s.close());
  const member = await s.user('member');
  const answers = [
    await s.request('GET', '/users/me', { as: member }),
    await s.request('DELETE', '/drafts/999999', { as: member }),
    await s.request('POST', '/users/me/alert_words', { as: member, params: { alert_words: 'not json' } }),
    await s.request('POST', '/realm/filters', { as: member, params: { pattern: 'x', url_template: 'y' } }),
    await s.request('PATCH', '/navigation_views/no/such/view', { as: member, params: { is_pinned: true } }),
  ];
  t.same(
    answers.map((a) => a.status),
    [200, 404, 400, 400, 404],
  );
  answers.forEach((answer, i) => {
    const [limit, remaining, reset] = limitHeaders(answer);
    t.equal(limit, '10', `answer ${i}`);
    t.equal(remaining, String(9 - i), 'each request counts, whatever its outcome');
    t.equal(reset, String(Math.ceil((NOW + (i + 1) * 6_000) / 1000)));
  });
});

t.test('endpoints without credentials are limited per address and carry the headers too', async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 3 }, clock: () => NOW });
  t.teardown(() => s.close());
  const settings = await s.request('GET', '/server_settings');
  t.same(limitHeaders(settings), ['3', '2', String(Math.ceil((NOW + 20_000) / 1000))]);
  const openapi = await s.request('GET', '/openapi.json');
  t.equal(openapi.status, 200);
  t.equal(openapi.headers.get('x-ratelimit-remaining'), '1', 'non-JSON answers too, from the same address bucket');
  t.equal((await s.request('GET', '/server_settings')).headers.get('x-ratelimit-remaining'), '0');
  const limited = await s.request('GET', '/server_settings');
  t.equal(limited.status, 429);
  t.same(limited.body, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 20 });
  t.equal(limited.headers.get('retry-after'), '20');
  t.same(limitHeaders(limited).slice(0, 2), ['3', '0']);
  const me = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(me.status, 200, "a user's requests are counted in the user's own bucket, not the address's");
  t.equal(me.headers.get('x-ratelimit-remaining'), '2');
});

t.test('POST /fetch_api_key reports the stricter of the address limit and the per-account login limit', async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 100, authAttemptsPerMinute: 2 }, clock: () => NOW });
  t.teardown(() => s.close());
  const params = { username: s.owner.email, password: 'owner-password' };
  const first = await s.request('POST', '/fetch_api_key', { params });
  t.equal(first.status, 200);
  t.same(limitHeaders(first), ['5', '4', String(Math.ceil((NOW + 360_000) / 1000))], "the account's 5 attempts per 30 minutes are the stricter");
  const wrong = await s.request('POST', '/fetch_api_key', { params: { ...params, password: 'wrong' } });
  t.equal(wrong.status, 401);
  t.same(limitHeaders(wrong).slice(0, 2), ['2', '1'], "a failed login carries the address's failure limit, given back on success");
  const again = await s.request('POST', '/fetch_api_key', { params: { ...params, password: 'wrong' } });
  t.same(limitHeaders(again).slice(0, 2), ['2', '0']);
  const limited = await s.request('POST', '/fetch_api_key', { params: { ...params, password: 'wrong' } });
  t.same([limited.status, limited.body.code, limited.body.msg], [429, 'RATE_LIMIT_HIT', 'API usage exceeded rate limit']);
  t.equal(limited.body['retry-after'], 30);
  t.equal(limited.headers.get('retry-after'), '30');
  const right = await s.request('POST', '/fetch_api_key', { params });
  t.same([right.status, right.body.api_key], [200, s.owner.api_key], "the address's failures never refuse the right password");
});

t.test('failed authentications carry the headers of the per-address attempt limit, and 429 once it is used up', async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 100, authAttemptsPerMinute: 3 }, clock: () => NOW });
  t.teardown(() => s.close());
  const wrong = { auth: basic(s.owner.email, 'y'.repeat(32)) } as TestUser;
  const malformed = { auth: basic(s.owner.email, 'short') } as TestUser;
  const missing = await s.request('GET', '/users/me');
  t.same([missing.status, missing.body.msg], [401, 'Missing authorization header for basic auth']);
  t.same(limitHeaders(missing).slice(0, 2), ['3', '2'], 'a missing header is a failed attempt too');
  const bad = await s.request('GET', '/users/me', { as: malformed });
  t.same([bad.status, bad.body.msg], [401, 'Malformed API key']);
  t.equal(bad.headers.get('x-ratelimit-remaining'), '1');
  t.equal(bad.headers.get('retry-after'), null, 'no Retry-After on a 401');
  const invalid = await s.request('GET', '/users/me', { as: wrong });
  t.same([invalid.status, invalid.body.msg], [401, 'Invalid API key']);
  t.equal(invalid.headers.get('x-ratelimit-remaining'), '0');
  t.equal(invalid.headers.get('www-authenticate'), 'Basic realm="zulip"');
  const limited = await s.request('GET', '/users/me', { as: wrong });
  t.same(limited.body, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 20 });
  t.same(limitHeaders(limited).slice(0, 2), ['3', '0']);
  const right = await s.request('GET', '/users/me', { as: s.owner });
  t.equal(right.status, 200, 'while the address is over, a right key still works');
});

t.test("GET /events counts against a per-user budget of its own: polls never spend the user's other requests, nor they the polls'", async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 3 }, clock: () => NOW });
  t.teardown(() => s.close());
  const member = await s.user('member');
  const queue = await s.request('POST', '/register', { as: member, params: { event_types: ['message'] } });
  t.equal(queue.headers.get('x-ratelimit-remaining'), '2', 'POST /register is one of the user\'s requests');
  const poll = () => s.request('GET', '/events', { as: member, params: { queue_id: queue.body.queue_id, last_event_id: -1, dont_block: true } });
  const polls = [await poll(), await poll(), await poll()];
  t.same(polls.map((p) => [p.status, ...limitHeaders(p).slice(0, 2)]), [[200, '3', '2'], [200, '3', '1'], [200, '3', '0']], 'three polls: the long-poll budget');
  const limited = await poll();
  t.equal(limited.status, 429, 'a fourth poll is over its own budget');
  t.same(limited.body, { result: 'error', msg: 'API usage exceeded rate limit', code: 'RATE_LIMIT_HIT', 'retry-after': 20 });
  const me = await s.request('GET', '/users/me', { as: member });
  t.equal(me.status, 200, 'the user\'s own requests still have theirs');
  t.equal(me.headers.get('x-ratelimit-remaining'), '1');
  t.equal((await s.request('GET', '/users/me', { as: member })).status, 200);
  t.equal((await s.request('GET', '/users/me', { as: member })).status, 429, 'and are limited as before');
});

t.test('with rate limiting off (createChatServer default) no answer carries the headers', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const answers = [
    await s.request('GET', '/users/me', { as: s.owner }),
    await s.request('GET', '/server_settings'),
    await s.request('GET', '/users/me', { as: { auth: basic('x@example.com', 'z'.repeat(32)) } as TestUser }),
    await s.request('POST', '/fetch_api_key', { params: { username: s.owner.email, password: 'owner-password' } }),
  ];
  t.same(
    answers.map((a) => a.status),
    [200, 200, 401, 200],
  );
  for (const answer of answers) t.same(limitHeaders(answer), [null, null, null]);
  for (let i = 0; i < 50; i += 1) await s.request('GET', '/users/me', { as: { auth: basic('x@example.com', 'z'.repeat(32)) } as TestUser });
  t.equal((await s.request('GET', '/users/me', { as: s.owner })).status, 200, 'no per-address limit either');
});

t.test('in-process calls are never rate limited', async (t) => {
  const s = await startServer({ rateLimit: { requestsPerMinute: 1 }, clock: () => NOW });
  t.teardown(() => s.close());
  for (let i = 0; i < 5; i += 1) t.equal(s.chat.api.users.me(s.owner.user_id).user_id, s.owner.user_id);
  t.equal((await s.request('GET', '/users/me', { as: s.owner })).status, 200);
  t.equal((await s.request('GET', '/users/me', { as: s.owner })).status, 429);
});
