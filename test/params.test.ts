// Parameter decoding (lib/http/params.ts): every one of Zulip's messages as a unit test of
// the HTTP path (a request's text) and the in-process one (typed values), then over HTTP through real endpoints in the three encodings.
import t from 'tap';
import { z } from 'zod';
import { ApiError } from '../lib/index.js';
import {
  bool,
  formParams,
  ignoredParams,
  int,
  json,
  jsonOrString,
  maxCodePoints,
  pathInt,
  requiredString,
  str,
  strippedMax,
  typedParams,
  paramFields,
  validateParams,
  type ParamShape,
} from '../lib/http/params.js';
import { startServer, type Encoding } from './helpers.js';

const form = (values: Record<string, string>) => new Map(Object.entries(values));

/** HTTP's two steps for one request: its raw text validated against the parameters, and the keys none reads. */
function decodeParams(shape: ParamShape, raw: Map<string, string>, path: Record<string, string>) {
  const fields = paramFields(shape);
  return { values: validateParams(fields, formParams(raw, path)), ignored: ignoredParams(fields, raw) };
}

/** The in-process step: typed values validated against the parameters. */
const validateTyped = (shape: ParamShape, input: Record<string, unknown>) => validateParams(paramFields(shape), typedParams(input));

/** The ApiError decodeParams throws for these raw form values (or fails the test). */
function failure(shape: ParamShape, values: Record<string, string>, path: Record<string, string> = {}): Record<string, unknown> {
  try {
    decodeParams(shape, form(values), path);
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, ...error.toJSON() };
    throw error;
  }
  return { result: 'success' };
}

const bad = (msg: string) => ({ status: 400, result: 'error', msg, code: 'BAD_REQUEST' });

const drafts = json(
  z.array(z.strictObject({ type: z.enum(['stream', 'private', '']), content: requiredString(), topic: strippedMax(60).optional() })),
);

t.test("a missing required parameter is REQUEST_VARIABLE_MISSING \"Missing 'x' argument\" with var_name", async (t) => {
  t.same(failure({ x: str() }, {}), { status: 400, result: 'error', msg: "Missing 'x' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'x' });
  t.same(decodeParams({ x: str().optional() }, form({}), {}), { values: {}, ignored: [] }, 'optional parameters may be absent');
  t.throws(() => validateTyped({ x: int() }, {}), { code: 'REQUEST_VARIABLE_MISSING', message: "Missing 'x' argument", extra: { var_name: 'x' } });
});

t.test('text that is not JSON for a JSON parameter is "x is not valid JSON"', async (t) => {
  t.same(failure({ x: json(z.array(z.int())) }, { x: '[1,' }), bad('x is not valid JSON'));
  t.same(failure({ x: int() }, { x: 'abc' }), bad('x is not valid JSON'));
  t.same(failure({ x: bool() }, { x: 'True' }), bad('x is not valid JSON'));
  t.same(failure({ x: int() }, { x: '' }), bad('x is not valid JSON'));
});

t.test('"x is not a list", "x is not a dict"', async (t) => {
  t.same(failure({ x: json(z.array(z.string())) }, { x: '{"a":1}' }), bad('x is not a list'));
  t.same(failure({ x: json(z.array(z.string()).nullable()) }, { x: '5' }), bad('x is not a list'));
  t.same(failure({ x: json(z.record(z.string(), z.unknown())) }, { x: '[]' }), bad('x is not a dict'));
});

t.test('"x is not an integer" for 1.5, a JSON string, a boolean', async (t) => {
  t.same(failure({ x: int() }, { x: '1.5' }), bad('x is not an integer'));
  t.same(failure({ x: int() }, { x: '"abc"' }), bad('x is not an integer'));
  t.same(failure({ x: int() }, { x: '"5"' }), bad('x is not an integer'));
  t.same(failure({ x: int() }, { x: 'true' }), bad('x is not an integer'));
  t.same(decodeParams({ x: int() }, form({ x: '42' }), {}).values, { x: 42 });
  t.throws(() => validateTyped({ x: int() }, { x: 1.5 }), { message: 'x is not an integer' });
  t.throws(() => validateTyped({ x: int() }, { x: '5' }), { message: 'x is not an integer' }, 'in-process values are typed');
});

t.test('"x is not a float" for a number parameter given something else', async (t) => {
  t.same(failure({ x: json(z.number()) }, { x: '"1.5"' }), bad('x is not a float'));
  t.same(decodeParams({ x: json(z.number()) }, form({ x: '1.5' }), {}).values, { x: 1.5 });
});

t.test('"x is not a boolean"', async (t) => {
  t.same(failure({ x: bool() }, { x: '1' }), bad('x is not a boolean'));
  t.same(failure({ x: bool() }, { x: '"true"' }), bad('x is not a boolean'));
  t.same(decodeParams({ x: bool() }, form({ x: 'false' }), {}).values, { x: false });
});

t.test('"x is not a string" for a JSON parameter that must hold a string', async (t) => {
  t.same(failure({ x: json(z.string()) }, { x: '5' }), bad('x is not a string'));
  t.same(failure({ x: json(z.array(z.string())) }, { x: '["a", 2]' }), bad('x[1] is not a string'));
  t.throws(() => validateTyped({ x: str() }, { x: 5 }), { message: 'x is not a string' });
});

t.test('a value outside an enum or literal is "Invalid x"', async (t) => {
  t.same(failure({ x: str(z.enum(['a', 'b'])) }, { x: 'c' }), bad('Invalid x'));
  t.same(failure({ x: json(z.literal(1)) }, { x: '2' }), bad('Invalid x'));
  t.same(failure({ x: json(z.union([z.boolean(), z.literal('partial')])) }, { x: '"all"' }), bad('Invalid x'));
});

t.test('a blank required string is "x cannot be blank"', async (t) => {
  t.same(failure({ x: str(requiredString()) }, { x: '' }), bad('x cannot be blank'));
  t.same(failure({ x: str(requiredString()) }, { x: ' \t\n ' }), bad('x cannot be blank'));
  t.same(decodeParams({ x: str(requiredString()) }, form({ x: '  a ' }), {}).values, { x: 'a' }, 'stripped');
});

t.test('"x is too long (limit: N characters)" counts Unicode code points', async (t) => {
  t.same(decodeParams({ x: str(maxCodePoints(3)) }, form({ x: '😀😀😀' }), {}).values, { x: '😀😀😀' }, '3 emoji are 6 UTF-16 units but 3 code points');
  t.same(failure({ x: str(maxCodePoints(3)) }, { x: '😀😀😀😀' }), bad('x is too long (limit: 3 characters)'));
  t.same(decodeParams({ x: str(strippedMax(3)) }, form({ x: '  abc  ' }), {}).values, { x: 'abc' }, 'strippedMax strips first');
  t.same(failure({ x: str(strippedMax(3)) }, { x: 'abcd' }), bad('x is too long (limit: 3 characters)'));
  t.same(failure({ x: str(z.string().max(2)) }, { x: 'abc' }), bad('x is too long (limit: 2 characters)'));
});

t.test('"x is too small" and "x is too large" for numbers out of range', async (t) => {
  t.same(failure({ x: json(z.int().min(1)) }, { x: '0' }), bad('x is too small'));
  t.same(failure({ x: json(z.int().max(10)) }, { x: '11' }), bad('x is too large'));
});

t.test('nested values are named Zulip-style: drafts[0]["content"], ordered_linkifier_ids[0]', async (t) => {
  t.same(failure({ drafts }, { drafts: '[{"type":"stream","content":"  "}]' }), bad('drafts[0]["content"] cannot be blank'));
  t.same(failure({ drafts }, { drafts: '[{"type":"stream","content":"a"},{"type":"x","content":"b"}]' }), bad('Invalid drafts[1]["type"]'));
  t.same(failure({ drafts }, { drafts: '[{"type":"stream","content":5}]' }), bad('drafts[0]["content"] is not a string'));
  t.same(
    failure({ drafts }, { drafts: `[{"type":"stream","content":"a","topic":"${'t'.repeat(61)}"}]` }),
    bad('drafts[0]["topic"] is too long (limit: 60 characters)'),
  );
  const ids = { ordered_linkifier_ids: json(z.array(z.int())) };
  t.same(failure(ids, { ordered_linkifier_ids: '[1, 2.5]' }), bad('ordered_linkifier_ids[1] is not an integer'));
  t.same(failure(ids, { ordered_linkifier_ids: '["1"]' }), bad('ordered_linkifier_ids[0] is not an integer'));
});

t.test('an unexpected key in a strict object is \'Argument "k" at x is unexpected\'', async (t) => {
  t.same(failure({ drafts }, { drafts: '[{"type":"stream","content":"a","k":1}]' }), bad('Argument "k" at drafts[0] is unexpected'));
  t.same(failure({ x: json(z.strictObject({ a: z.int() })) }, { x: '{"a":1,"b":2}' }), bad('Argument "b" at x is unexpected'));
});

t.test('a missing field inside an object is "x[..] field is missing"', async (t) => {
  t.same(failure({ drafts }, { drafts: '[{"type":"stream"}]' }), bad('drafts[0]["content"] field is missing: Field required'));
});

t.test('parameters are decoded in alphabetical order: the first failing one wins', async (t) => {
  const shape = { zeta: int(), alpha: bool(), mid: str(requiredString()) };
  t.same(failure(shape, { zeta: 'x', alpha: 'x', mid: '' }), bad('alpha is not valid JSON'));
  t.same(failure(shape, { zeta: 'x', alpha: 'true', mid: '' }), bad('mid cannot be blank'));
  t.same(failure(shape, { zeta: 'x', alpha: 'true', mid: 'm' }), bad('zeta is not valid JSON'));
  t.same(failure(shape, { zeta: 'x', mid: '' }), { status: 400, result: 'error', msg: "Missing 'alpha' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'alpha' });
  t.throws(() => validateTyped(shape, { zeta: 'x', alpha: 1, mid: '' }), { message: 'alpha is not a boolean' }, 'in-process too');
});

t.test('a parameter is named in camelCase and sent under its snake_case wire name, which its errors use', async (t) => {
  const shape = { draftId: pathInt(), isPinned: bool().optional(), numBefore: int() };
  t.same(paramFields(shape).map((field) => [field.name, field.wire]), [['draftId', 'draft_id'], ['isPinned', 'is_pinned'], ['numBefore', 'num_before']]);
  t.same(decodeParams(shape, form({ is_pinned: 'true', num_before: '3', numBefore: '4' }), { draft_id: '7' }), {
    values: { draftId: 7, isPinned: true, numBefore: 3 },
    ignored: ['numBefore'],
  }, 'the camelCase name is not a wire name');
  t.same(failure(shape, { is_pinned: 'true' }, { draft_id: '7' }), { status: 400, result: 'error', msg: "Missing 'num_before' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'num_before' });
  t.same(validateTyped(shape, { draftId: 7, numBefore: 1 }), { draftId: 7, numBefore: 1 }, 'in-process, by the camelCase name');
  t.throws(() => validateTyped(shape, { draftId: 7, numBefore: 'x' }), { message: 'num_before is not an integer' }, 'with the errors of the wire name');
});

t.test("aliases are accepted; sending two names is REQUEST_CONFUSING_VAR \"Can't decide between 'a' and 'b' arguments\"", async (t) => {
  const shape = { device_id: int().alias('push_account_id') };
  t.same(decodeParams(shape, form({ push_account_id: '7' }), {}), { values: { device_id: 7 }, ignored: [] }, 'the alias is read, not ignored');
  t.same(failure(shape, { push_account_id: '7', device_id: '8' }), {
    status: 400,
    result: 'error',
    msg: "Can't decide between 'device_id' and 'push_account_id' arguments",
    code: 'REQUEST_CONFUSING_VAR',
  });
  t.same(failure(shape, {}), { status: 400, result: 'error', msg: "Missing 'device_id' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'device_id' });
});

t.test('ignored_parameters_unsupported: every request key not read, sorted; path params are not keys', async (t) => {
  const shape = { user_id: pathInt(), b: int().optional() };
  const { values, ignored } = decodeParams(shape, form({ zz: '1', b: '3', aa: '2', user_id: '9' }), { user_id: '5' });
  t.same(values, { user_id: 5, b: 3 }, 'the path value wins over a form field of the same name');
  t.same(ignored, ['aa', 'user_id', 'zz']);
  t.same(decodeParams({ b: int().optional() }, form({}), {}).ignored, []);
});

t.test('jsonOrString: JSON when it parses, else the text', async (t) => {
  const shape = { to: jsonOrString(z.union([z.string(), z.array(z.int())])) };
  t.same(decodeParams(shape, form({ to: '[1,2]' }), {}).values, { to: [1, 2] });
  t.same(decodeParams(shape, form({ to: 'general' }), {}).values, { to: 'general' });
});

// Over HTTP, through real endpoints: the three encodings give the same answer.
const ENCODINGS: Encoding[] = ['urlencoded', 'multipart', 'query'];

t.test('the same call as urlencoded body, multipart body and query string gives the same result', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const cases: [string, string, Record<string, unknown>, number, Record<string, unknown>][] = [
    ['PATCH', `/users/${member.user_id}`, { role: 'abc' }, 400, { result: 'error', msg: 'role is not valid JSON', code: 'BAD_REQUEST' }],
    ['PATCH', `/users/${member.user_id}`, { role: '1.5' }, 400, { result: 'error', msg: 'role is not an integer', code: 'BAD_REQUEST' }],
    ['PATCH', `/users/${member.user_id}`, { role: '"400"' }, 400, { result: 'error', msg: 'role is not an integer', code: 'BAD_REQUEST' }],
    ['PATCH', `/users/${member.user_id}`, { role: 7 }, 400, { result: 'error', msg: 'Invalid role', code: 'BAD_REQUEST' }],
    ['POST', '/register', { event_types: '{"a":1}' }, 400, { result: 'error', msg: 'event_types is not a list', code: 'BAD_REQUEST' }],
    ['POST', '/register', { event_types: '["realm_user", 5]' }, 400, { result: 'error', msg: 'event_types[1] is not a string', code: 'BAD_REQUEST' }],
    ['POST', '/register', { apply_markdown: 'yes' }, 400, { result: 'error', msg: 'apply_markdown is not valid JSON', code: 'BAD_REQUEST' }],
    ['POST', '/register', { apply_markdown: 1 }, 400, { result: 'error', msg: 'apply_markdown is not a boolean', code: 'BAD_REQUEST' }],
    ['POST', '/register', { client_capabilities: [] }, 400, { result: 'error', msg: 'client_capabilities is not a dict', code: 'BAD_REQUEST' }],
    ['POST', '/register', { event_types: 5, apply_markdown: 5, client_capabilities: 5 }, 400, { result: 'error', msg: 'apply_markdown is not a boolean', code: 'BAD_REQUEST' }],
    ['POST', '/register', { event_types: 5, client_capabilities: 5 }, 400, { result: 'error', msg: 'client_capabilities is not a dict', code: 'BAD_REQUEST' }],
  ];
  for (const [method, path, params, status, body] of cases) {
    for (const encoding of ENCODINGS) {
      const reply = await s.request(method, path, { as: s.owner, params, encoding });
      t.equal(reply.status, status, `${method} ${path} ${JSON.stringify(params)} as ${encoding}`);
      t.same(reply.body, body);
    }
  }
  for (const encoding of ENCODINGS) {
    const reply = await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { full_name: `Name ${encoding}`, role: 300 }, encoding });
    t.same(reply.body, { result: 'success', msg: '' }, `success as ${encoding}`);
    t.match(s.chat.api.users.get(s.owner.user_id, { userId: member.user_id }).user, { full_name: `Name ${encoding}`, role: 300 });
    const register = await s.request('POST', '/register', {
      as: member,
      params: { event_types: ['realm_user'], apply_markdown: true, client_capabilities: { notification_settings_null: true } },
      encoding,
    });
    t.equal(register.status, 200, `POST /register as ${encoding}`);
    t.ok(Array.isArray(register.body.realm_users));
    t.notOk('ignored_parameters_unsupported' in register.body);
  }
});

t.test('a parameter in both the query string and the body: the body wins', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  const reply = await fetch(`${s.url}/api/v1/users/${member.user_id}?full_name=From+query`, {
    method: 'PATCH',
    headers: { authorization: s.owner.auth, 'content-type': 'application/x-www-form-urlencoded' },
    body: 'full_name=From+body',
  });
  t.equal(reply.status, 200);
  t.equal(s.chat.api.users.get(s.owner.user_id, { userId: member.user_id }).user.full_name, 'From body');
});

t.test('ignored_parameters_unsupported over HTTP: only on success, sorted, never path params', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  for (const encoding of ENCODINGS) {
    const ok = await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { zebra: 1, full_name: 'Mia', apple: 'x' }, encoding });
    t.same(ok.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['apple', 'zebra'] }, encoding);
    const failed = await s.request('PATCH', `/users/${member.user_id}`, { as: s.owner, params: { zebra: 1, role: 'x' }, encoding });
    t.same(failed.body, { result: 'error', msg: 'role is not valid JSON', code: 'BAD_REQUEST' }, 'errors never carry it');
  }
  const me = await s.request('GET', '/users/me', { as: s.owner, params: { b: 1, a: 2 } });
  t.same(me.body.ignored_parameters_unsupported, ['a', 'b']);
  const plain = await s.request('GET', `/users/${member.user_id}`, { as: s.owner });
  t.notOk('ignored_parameters_unsupported' in plain.body, 'absent when nothing was ignored; user_id is a path parameter');
  const register = await s.request('POST', '/register', { as: s.owner, params: { event_types: ['realm_user'], not_a_param: true } });
  t.same(register.body.ignored_parameters_unsupported, ['not_a_param']);
});

t.test('in-process calls run the same schemas with camelCase keys and typed values', async (t) => {
  const s = await startServer();
  t.teardown(() => s.close());
  const member = await s.user('member');
  t.throws(() => s.chat.api.users.update(s.owner.user_id, { userId: member.user_id, role: 1.5 }), { code: 'BAD_REQUEST', message: 'role is not an integer' });
  t.throws(() => s.chat.api.users.update(s.owner.user_id, { role: 400 } as never), { code: 'REQUEST_VARIABLE_MISSING', message: "Missing 'user_id' argument" });
  t.throws(() => s.chat.api.events.register(member.user_id, { eventTypes: 'realm_user' as never }), { message: 'event_types is not a list' });
  t.same(s.chat.api.users.update(s.owner.user_id, { userId: member.user_id, fullName: 'Typed' }), {});
});
