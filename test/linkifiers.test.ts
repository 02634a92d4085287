// Linkifiers: the endpoints and every
// validation rule over HTTP and in-process, ordering, the realm_linkifiers event and its state.
import t, { type Test } from 'tap';
import fc from 'fast-check';
import { ApiError } from '../lib/index.js';
import { parseTemplate } from '../lib/render/uri_template.js';
import { startServer, type Reply, type TestServer, type TestUser } from './helpers.js';
import { linkifierSchema, type Linkifier } from './linkifier_schemas.js';

interface Expected {
  status?: number;
  code?: string;
  msg: string;
  errors?: Record<string, string[]>;
}

const NOT_ADMIN: Expected = { status: 400, code: 'UNAUTHORIZED_PRINCIPAL', msg: 'Must be an organization administrator' };
const NOT_FOUND: Expected = { msg: 'Linkifier not found.' };
const TICKET = { pattern: '#(?P<id>[0-9]+)', url_template: 'https://trac.example.com/ticket/{id}' };

type Params = Record<string, unknown>;
const camel = (params: Params): Params =>
  Object.fromEntries(Object.entries(params).map(([k, v]) => [k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()), v]));

function isError(t: Test, reply: Reply, e: Expected): void {
  t.equal(reply.status, e.status ?? 400, 'HTTP status');
  t.equal(reply.body.result, 'error');
  t.equal(reply.body.code, e.code ?? 'BAD_REQUEST', 'code');
  t.equal(reply.body.msg, e.msg, 'msg');
  if (e.errors !== undefined) t.same(reply.body.errors, e.errors, 'errors');
  else t.notOk('errors' in reply.body, 'no errors field');
}

function throwsApiError(t: Test, call: () => unknown, e: Expected): void {
  try {
    call();
    t.fail(`expected ${e.msg}`);
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    t.same({ status: error.status, code: error.code, msg: error.message }, { status: e.status ?? 400, code: e.code ?? 'BAD_REQUEST', msg: e.msg });
    if (e.errors !== undefined) t.same(error.extra.errors, e.errors, 'in-process errors');
  }
}

/** The rule over HTTP and in-process: POST /realm/filters with these parameters fails so. */
async function addFails(t: Test, s: TestServer, params: Params, e: Expected, as: TestUser = s.owner): Promise<void> {
  isError(t, await s.request('POST', '/realm/filters', { as, params }), e);
  throwsApiError(t, () => s.chat.api.linkifiers.add(as.user_id, camel(params) as never), e);
  t.same(await list(s), [], 'nothing was added');
}

async function add(s: TestServer, params: Params, as: TestUser = s.owner): Promise<number> {
  const reply = await s.request('POST', '/realm/filters', { as, params });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return reply.body.id;
}

/** The listed linkifiers reduced to the given fields, for exact comparison. */
async function listed(s: TestServer, keys: (keyof Linkifier)[]): Promise<Partial<Linkifier>[]> {
  return (await list(s)).map((l) => Object.fromEntries(keys.map((k) => [k, l[k]])));
}

async function list(s: TestServer, as: TestUser = s.owner): Promise<Linkifier[]> {
  return (await s.request('GET', '/realm/linkifiers', { as })).body.linkifiers;
}

// One server for the file (starting one per test costs more than the tests); each test starts
// with no linkifiers.
const shared = await startServer({ file: false });
t.teardown(() => shared.close());
const users = {
  admin: await shared.user('admin'),
  adminBot: await shared.user('admin', { bot: true }),
  moderator: await shared.user('moderator'),
  member: await shared.user('member'),
  guest: await shared.user('guest'),
};

async function setup(_t: Test): Promise<TestServer> {
  shared.db.exec('DELETE FROM linkifier');
  return shared;
}

t.test('POST /realm/filters adds a linkifier and returns its id; GET /realm/linkifiers lists it for any user', async (t) => {
  const s = await setup(t);
  const reply = await s.request('POST', '/realm/filters', { as: s.owner, params: TICKET });
  t.equal(reply.status, 200);
  t.same(Object.keys(reply.body).sort(), ['id', 'msg', 'result']);
  const viaApi = s.chat.api.linkifiers.add(s.owner.user_id, { pattern: 'ZUL-(?P<id>\\d+)', urlTemplate: 'https://z/{id}' });
  const guest = users.guest;
  const got = await s.request('GET', '/realm/linkifiers', { as: guest });
  t.equal(got.status, 200);
  t.same(got.body.linkifiers, [
    { ...TICKET, id: reply.body.id, example_input: null, reverse_template: null, alternative_url_templates: [] },
    { pattern: 'ZUL-(?P<id>\\d+)', url_template: 'https://z/{id}', id: viaApi.id, example_input: null, reverse_template: null, alternative_url_templates: [] },
  ]);
  for (const l of got.body.linkifiers) t.ok(linkifierSchema.safeParse(l).success, 'Zulip\'s LinkifierDict shape');
  t.same(s.chat.api.linkifiers.list(guest.user_id).linkifiers, got.body.linkifiers, 'in-process list');
});

t.test('writes are for administrators only, checked before the parameters (UNAUTHORIZED_PRINCIPAL, HTTP 400)', async (t) => {
  const s = await setup(t);
  const id = await add(s, TICKET);
  const { admin, adminBot } = users;
  for (const role of ['moderator', 'member', 'guest'] as const) {
    const user = users[role];
    isError(t, await s.request('POST', '/realm/filters', { as: user }), NOT_ADMIN);
    isError(t, await s.request('PATCH', `/realm/filters/${id}`, { as: user }), NOT_ADMIN);
    isError(t, await s.request('DELETE', '/realm/filters/15', { as: user }), NOT_ADMIN);
    isError(t, await s.request('PATCH', '/realm/linkifiers', { as: user }), NOT_ADMIN);
    throwsApiError(t, () => s.chat.api.linkifiers.add(user.user_id, TICKET as never), NOT_ADMIN);
    throwsApiError(t, () => s.chat.api.linkifiers.remove(user.user_id, { filterId: id }), NOT_ADMIN);
    throwsApiError(t, () => s.chat.api.linkifiers.update(user.user_id, { filterId: id, ...camel(TICKET) } as never), NOT_ADMIN);
    throwsApiError(t, () => s.chat.api.linkifiers.update(user.user_id, { filterId: id } as never), NOT_ADMIN);
    throwsApiError(t, () => s.chat.api.linkifiers.reorder(user.user_id, { orderedLinkifierIds: [id] }), NOT_ADMIN);
    throwsApiError(t, () => s.chat.api.linkifiers.reorder(user.user_id, {} as never), NOT_ADMIN);
  }
  t.equal((await s.request('PATCH', `/realm/filters/${id}`, { as: admin, params: TICKET })).status, 200, 'an administrator may');
  t.equal((await s.request('POST', '/realm/filters', { as: adminBot, params: { ...TICKET, pattern: 'B(?P<id>x)' } })).status, 200, 'a bot with the administrator role may');
  t.equal((await list(s)).length, 2);
});

t.test('pattern and url_template are required parameters', async (t) => {
  const s = await setup(t);
  isError(t, await s.request('POST', '/realm/filters', { as: s.owner, params: { url_template: 'x' } }), { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'pattern' argument" });
  isError(t, await s.request('POST', '/realm/filters', { as: s.owner, params: { pattern: 'x' } }), { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'url_template' argument" });
  throwsApiError(t, () => s.chat.api.linkifiers.add(s.owner.user_id, { pattern: 'x' } as never), { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'url_template' argument" });
});

t.test('pattern and url_template are stored stripped', async (t) => {
  const s = await setup(t);
  await add(s, { pattern: '  #(?P<id>[0-9]+)\n', url_template: ' https://x/{id} ' });
  t.same(await listed(s, ['pattern', 'url_template']), [{ pattern: '#(?P<id>[0-9]+)', url_template: 'https://x/{id}' }]);
});

t.test('a blank pattern is "This field cannot be blank." (errors by field, then __all__)', async (t) => {
  const s = await setup(t);
  const errors = { pattern: ['This field cannot be blank.'], __all__: ["Group 'id' in URL template is not present in linkifier pattern."] };
  await addFails(t, s, { pattern: '', url_template: 'https://realm.com/my_realm_filter/{id}' }, { msg: 'This field cannot be blank.', errors });
  await addFails(t, s, { pattern: '   ', url_template: 'https://x/' }, { msg: 'This field cannot be blank.', errors: { pattern: ['This field cannot be blank.'] } });
  await addFails(t, s, { pattern: 'x', url_template: '  ' }, { msg: 'This field cannot be blank.', errors: { url_template: ['This field cannot be blank.'] } });
});

t.test('the pattern is compiled with RE2: "Bad regular expression: <RE2 message>"', async (t) => {
  const s = await setup(t);
  const url = 'https://realm.com/my_realm_filter/{id}';
  await addFails(t, s, { pattern: '(foo', url_template: url }, { msg: 'Bad regular expression: missing ): (foo', errors: { __all__: ['Bad regular expression: missing ): (foo'] } });
  const repetition = 'Bad regular expression: bad repetition operator: ????';
  await addFails(t, s, { pattern: 'ZUL-(?P<id>\\d????)', url_template: url }, { msg: repetition, errors: { __all__: [repetition] } });
  // RE2 has no look-around or back-references (what makes a pattern slow in a backtracking engine).
  await addFails(t, s, { pattern: '(?P<id>a)(?=b)', url_template: url }, { msg: 'Bad regular expression: invalid perl operator: (?=', errors: { __all__: ['Bad regular expression: invalid perl operator: (?='] } });
  await addFails(t, s, { pattern: '(?P<id>a)\\1', url_template: url }, { msg: 'Bad regular expression: invalid escape sequence: \\1', errors: { __all__: ['Bad regular expression: invalid escape sequence: \\1'] } });
  await addFails(t, s, { pattern: '[', url_template: 'x' }, { msg: 'Bad regular expression: missing ]: [', errors: { __all__: ['Bad regular expression: missing ]: ['] } });
});

t.test('url_template must be an RFC 6570 template: "Invalid URL template." (variable checks then skipped)', async (t) => {
  const s = await setup(t);
  for (const url of ['https://example.com/{foo', 'https://example.com/{{}', 'https://example.com/{//foo}', 'https://example.com/{bar++}', '{id']) {
    await addFails(t, s, { pattern: '#(?P<id>[123])', url_template: url }, { msg: 'Invalid URL template.', errors: { url_template: ['Invalid URL template.'] } });
  }
  const both = { pattern: '(foo', url_template: '{id' };
  await addFails(t, s, both, { msg: 'Invalid URL template.', errors: { url_template: ['Invalid URL template.'], __all__: ['Bad regular expression: missing ): (foo'] } });
});

t.test('Zulip\'s valid URL templates are accepted (levels 1 to 4, literal %, no URL check)', async (t) => {
  const valid = [
    'http://example.com/', 'https://user:password@example.com/', 'https://example.com/@user/thing', 'https://example.com/!path',
    'https://example.com/foo[bar]', 'https://example.com/{foo}{bars}', 'https://example.com/?foo={foo}', 'https://example.com/%ab',
    'https://example.com/%ba', 'https://example.com/words%20with%20spaces', 'https://example.com/back%20to%20{back}',
    'https://example.com/%%', 'https://example.com/%%(foo)s', 'https://example.com{/foo,bar,baz}', 'https://example.com/{?foo*}',
    'https://example.com/{+foo,bar}', 'https://chat{.domain}.com/{#foo}',
    'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}', '$not_a_url$',
  ];
  for (const url of valid) t.not(parseTemplate(url), null, url);
  const s = await setup(t);
  await add(s, {
    pattern: 'FOO_(?P<id>[a-f]{5});(?P<zone>[a-f]);(?P<domain>[a-z]+);(?P<location>[a-z]+);(?P<name>[a-z]{2,8});(?P<chapter>[0-9]{2,3});(?P<fragment>[a-z]{2,8})',
    url_template: 'https://zone_{zone}{.domain}.net/ticket{/location}{/id}{?name,chapter}{#fragment:5}',
  });
  await add(s, { pattern: 'ZUL-URL-(?P<id>\\d+)', url_template: 'https://example.com/%ba/{id}' });
  t.equal((await list(s)).length, 2);
});

t.test('template variables and named groups must match both ways, template first, smallest name reported', async (t) => {
  const s = await setup(t);
  const fails = (pattern: string, url_template: string, msg: string) => addFails(t, s, { pattern, url_template }, { msg, errors: { __all__: [msg] } });
  await fails('ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/{hello}', "Group 'hello' in URL template is not present in linkifier pattern.");
  await fails('ZUL-(?P<id>\\d+)-(?P<hello>\\d+)', 'https://realm.com/my_realm_filter/{hello}', "Group 'id' in linkifier pattern is not present in URL template.");
  await fails('ZUL-(?P<id>\\d+)', '$fgfg', "Group 'id' in linkifier pattern is not present in URL template.");
  await fails('ZUL-(?P<id>\\d+)', 'https://realm.com/my_realm_filter/', "Group 'id' in linkifier pattern is not present in URL template.");
  await fails('(?P<b>x)(?P<a>y)', 'https://x/{z}{c}', "Group 'c' in URL template is not present in linkifier pattern.");
  await fails('(?P<zz>x)(?P<b>y)(?P<c>z)', 'https://x/{c}', "Group 'b' in linkifier pattern is not present in URL template.");
  await add(s, { pattern: 'ZULZ-(?P<hello>\\d+)-(?P<world>\\d+)-(\\d+)', url_template: 'https://realm.com/{hello}/{world}' });
  t.equal((await list(s)).length, 1, 'unnamed groups are not variables');
});

t.test('the named groups of a pattern that ends inside a \\Q quote are still found', async (t) => {
  const s = await setup(t);
  await add(s, { pattern: '(?P<id>[0-9]+)\\Q-x', url_template: 'https://q/{id}' });
  const msg = "Group 'id' in linkifier pattern is not present in URL template.";
  await setup(t);
  await addFails(t, s, { pattern: '(?P<id>[0-9]+)\\Q-x', url_template: 'https://q/' }, { msg, errors: { __all__: [msg] } });
});

t.test('example_input must match the pattern (a search, without the boundary wrapper)', async (t) => {
  const s = await setup(t);
  const msg = 'Example input does not match the linkifier pattern.';
  await addFails(t, s, { ...TICKET, example_input: 'ticket 12' }, { msg, errors: { __all__: [msg] } });
  await add(s, { ...TICKET, example_input: 'see#12x' });
  t.same(await listed(s, ['example_input', 'reverse_template']), [{ example_input: 'see#12x', reverse_template: null }]);
});

t.test('reverse_template requires example_input (a plain error without `errors`, ahead of field errors)', async (t) => {
  const s = await setup(t);
  const msg = 'Example text is required when auto-conversion field is set.';
  await addFails(t, s, { ...TICKET, reverse_template: '#{id}' }, { msg });
  await addFails(t, s, { ...TICKET, url_template: '{id', reverse_template: '#{id}', example_input: '  ' }, { msg });
  await addFails(t, s, { ...TICKET, pattern: '(x', reverse_template: '#{id}' }, { msg: 'Bad regular expression: missing ): (x', errors: { __all__: ['Bad regular expression: missing ): (x'] } });
});

t.test('reverse_template: {name} syntax errors, and the round trip must give back example_input', async (t) => {
  const s = await setup(t);
  const fails = (reverse_template: string, msg: string, example_input = '#12') =>
    addFails(t, s, { ...TICKET, example_input, reverse_template }, { msg, errors: { __all__: [msg] } });
  await fails('#{id', "Invalid auto-conversion field: missing '}' character.");
  await fails('#{}', 'Invalid auto-conversion field: empty field name.');
  await fails('#{num}', "Group 'num' in auto-conversion field is not present in linkifier pattern.");
  await fails("#{it's}", 'Group "it\'s" in auto-conversion field is not present in linkifier pattern.');
  await fails('ticket {id}', 'Example text does not match auto-conversion field.');
  await add(s, { pattern: '\\{(?P<id>[0-9]+)\\}', url_template: 'https://x/{id}', example_input: ' {12} ', reverse_template: '{{{id}}}' });
  t.same(await listed(s, ['example_input', 'reverse_template']), [{ example_input: '{12}', reverse_template: '{{{id}}}' }], 'stored stripped; {{ and }} are braces');
});

t.test('empty example_input and reverse_template are stored as null', async (t) => {
  const s = await setup(t);
  await add(s, { ...TICKET, example_input: '', reverse_template: ' ' });
  t.same(await listed(s, ['example_input', 'reverse_template']), [{ example_input: null, reverse_template: null }]);
});

t.test('alternative_url_templates: a JSON list of RFC 6570 templates, stored and returned', async (t) => {
  const s = await setup(t);
  const alternatives = ['https://github.com/zulip/zulip/pull/{id}', 'https://x/{?id}'];
  await add(s, { ...TICKET, example_input: '#1234', reverse_template: '#{id}', alternative_url_templates: alternatives });
  t.same((await list(s))[0]!.alternative_url_templates, alternatives);
  isError(t, await s.request('POST', '/realm/filters', { as: s.owner, params: { ...TICKET, alternative_url_templates: 'x' } }), { msg: 'alternative_url_templates is not valid JSON' });
  isError(t, await s.request('POST', '/realm/filters', { as: s.owner, params: { ...TICKET, alternative_url_templates: '"x"' } }), { msg: 'alternative_url_templates is not a list' });
  isError(t, await s.request('POST', '/realm/filters', { as: s.owner, params: { ...TICKET, alternative_url_templates: [1] } }), { msg: 'alternative_url_templates[0] is not a string' });
  await setup(t);
  await addFails(t, s, { ...TICKET, alternative_url_templates: ['https://ok/{id}', 'https://x/{id'] }, { msg: 'Invalid URL template.', errors: { alternative_url_templates: ['Invalid URL template.'] } });
  await addFails(t, s, { ...TICKET, alternative_url_templates: [''] }, { msg: 'Invalid URL template.', errors: { alternative_url_templates: ['Invalid URL template.'] } });
});

t.test('a pattern already in the organization is refused (after stripping)', async (t) => {
  const s = await setup(t);
  await add(s, TICKET);
  const msg = 'Realm filter with this Realm and Pattern already exists.';
  isError(t, await s.request('POST', '/realm/filters', { as: s.owner, params: { ...TICKET, pattern: ` ${TICKET.pattern} `, url_template: 'https://other/{id}' } }), { msg, errors: { __all__: [msg] } });
  throwsApiError(t, () => s.chat.api.linkifiers.add(s.owner.user_id, { pattern: TICKET.pattern, urlTemplate: 'https://{x}' }), {
    msg: "Group 'x' in URL template is not present in linkifier pattern.",
    errors: { __all__: ["Group 'x' in URL template is not present in linkifier pattern.", msg] },
  });
  t.equal((await list(s)).length, 1);
});

t.test('bad input of any kind is a JSON error, never a 500', async (t) => {
  const s = await setup(t);
  let added = 0;
  fc.assert(
    fc.property(fc.string(), fc.string(), fc.option(fc.string()), fc.option(fc.string()), (pattern, urlTemplate, exampleInput, reverseTemplate) => {
      try {
        s.chat.api.linkifiers.add(s.owner.user_id, { pattern, urlTemplate, exampleInput, reverseTemplate });
        added++;
      } catch (error) {
        if (!(error instanceof ApiError) || error.status !== 400) throw error;
      }
    }),
    { numRuns: 300 },
  );
  t.equal((await list(s)).length, added, 'only successes were stored');
  const reply = await s.request('POST', '/realm/filters', { as: s.owner, params: { pattern: '\u0000(?P<id>\uD800)', url_template: '{id}\u0000' } });
  t.ok(reply.status === 200 || reply.status === 400, 'odd characters are handled');
});

t.test('PATCH /realm/filters/{filter_id} changes a linkifier; pattern and url_template are required', async (t) => {
  const s = await setup(t);
  const id = await add(s, { pattern: '#(?P<id>[123])', url_template: 'https://realm.com/my_realm_filter/{id}' });
  const other = await add(s, { pattern: 'B(?P<id>x)', url_template: 'https://b/{id}' });
  const reply = await s.request('PATCH', `/realm/filters/${id}`, { as: users.admin, params: { pattern: '#(?P<id>[0-9]+)', url_template: 'https://realm.com/my_realm_filter/issues/{id}' } });
  t.same([reply.status, reply.body], [200, { result: 'success', msg: '' }]);
  t.same((await list(s)).map((l) => [l.id, l.pattern, l.url_template]), [
    [id, '#(?P<id>[0-9]+)', 'https://realm.com/my_realm_filter/issues/{id}'],
    [other, 'B(?P<id>x)', 'https://b/{id}'],
  ], 'changed in place, order kept');
  isError(t, await s.request('PATCH', `/realm/filters/${id}`, { as: s.owner, params: { pattern: 'x' } }), { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'url_template' argument" });
  s.chat.api.linkifiers.update(s.owner.user_id, { filterId: id, pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://t/{id}' });
  t.equal((await list(s))[0]!.url_template, 'https://t/{id}', 'in-process update');
});

t.test('PATCH: an unknown id is "Linkifier not found." (HTTP 400), checked before validation', async (t) => {
  const s = await setup(t);
  const id = await add(s, TICKET);
  isError(t, await s.request('PATCH', `/realm/filters/${id + 1}`, { as: s.owner, params: { pattern: '(', url_template: '{' } }), NOT_FOUND);
  throwsApiError(t, () => s.chat.api.linkifiers.update(s.owner.user_id, { filterId: id + 1, ...camel(TICKET) } as never), NOT_FOUND);
  t.equal((await s.request('PATCH', '/realm/filters/abc', { as: s.owner, params: TICKET })).status, 404, 'a filter_id that is not an integer matches no route');
});

t.test('PATCH validates like POST and a failed update changes nothing', async (t) => {
  const s = await setup(t);
  const id = await add(s, TICKET);
  const before = await list(s);
  const patch = (params: Params) => s.request('PATCH', `/realm/filters/${id}`, { as: s.owner, params });
  const repetition = 'Bad regular expression: bad repetition operator: ????';
  isError(t, await patch({ pattern: 'ZUL-(?P<id>\\d????)', url_template: 'https://realm.com/my_realm_filter/{id}' }), { msg: repetition, errors: { __all__: [repetition] } });
  const missing = "Group 'id' in linkifier pattern is not present in URL template.";
  isError(t, await patch({ pattern: 'ZUL-(?P<id>\\d+)', url_template: '$fgfg' }), { msg: missing, errors: { __all__: [missing] } });
  isError(t, await patch({ pattern: '#(?P<id>[123])', url_template: '{id' }), { msg: 'Invalid URL template.', errors: { url_template: ['Invalid URL template.'] } });
  t.same(await list(s), before);
});

t.test('PATCH: keeping its own pattern is allowed; taking another linkifier\'s is a duplicate', async (t) => {
  const s = await setup(t);
  const id = await add(s, TICKET);
  await add(s, { pattern: 'B(?P<id>x)', url_template: 'https://b/{id}' });
  t.equal((await s.request('PATCH', `/realm/filters/${id}`, { as: s.owner, params: { ...TICKET, url_template: 'https://new/{id}' } })).status, 200);
  const msg = 'Realm filter with this Realm and Pattern already exists.';
  isError(t, await s.request('PATCH', `/realm/filters/${id}`, { as: s.owner, params: { pattern: 'B(?P<id>x)', url_template: 'https://b/{id}' } }), { msg, errors: { __all__: [msg] } });
});

t.test('PATCH: omitted optional fields keep their value; an empty string clears them', async (t) => {
  const s = await setup(t);
  const full = { ...TICKET, example_input: '#1234', reverse_template: '#{id}', alternative_url_templates: ['https://alt/{id}'] };
  const id = await add(s, full);
  await s.request('PATCH', `/realm/filters/${id}`, { as: s.owner, params: { ...TICKET, url_template: 'https://v2/{id}' } });
  t.same(await listed(s, ['url_template', 'example_input', 'reverse_template', 'alternative_url_templates']), [{ url_template: 'https://v2/{id}', example_input: '#1234', reverse_template: '#{id}', alternative_url_templates: ['https://alt/{id}'] }]);
  await s.request('PATCH', `/realm/filters/${id}`, { as: s.owner, params: { ...TICKET, example_input: '', reverse_template: '', alternative_url_templates: [] } });
  t.same(await listed(s, ['example_input', 'reverse_template', 'alternative_url_templates']), [{ example_input: null, reverse_template: null, alternative_url_templates: [] }]);
  isError(t, await s.request('PATCH', `/realm/filters/${id}`, { as: s.owner, params: { ...TICKET, reverse_template: '#{id}' } }), { msg: 'Example text is required when auto-conversion field is set.' });
});

t.test('DELETE /realm/filters/{filter_id} removes a linkifier; the others keep their order', async (t) => {
  const s = await setup(t);
  const ids = [await add(s, TICKET), await add(s, { pattern: 'B(?P<id>x)', url_template: 'https://b/{id}' }), await add(s, { pattern: 'C(?P<id>x)', url_template: 'https://c/{id}' })];
  s.chat.api.linkifiers.reorder(s.owner.user_id, { orderedLinkifierIds: [ids[2]!, ids[0]!, ids[1]!] });
  const reply = await s.request('DELETE', `/realm/filters/${ids[0]}`, { as: users.admin });
  t.same([reply.status, reply.body], [200, { result: 'success', msg: '' }]);
  t.same((await list(s)).map((l) => l.id), [ids[2], ids[1]]);
  s.chat.api.linkifiers.remove(s.owner.user_id, { filterId: ids[2]! });
  t.same((await list(s)).map((l) => l.id), [ids[1]]);
});

t.test('DELETE: an unknown id is "Linkifier not found." (HTTP 400)', async (t) => {
  const s = await setup(t);
  const id = await add(s, TICKET);
  isError(t, await s.request('DELETE', `/realm/filters/${id + 1}`, { as: s.owner }), NOT_FOUND);
  throwsApiError(t, () => s.chat.api.linkifiers.remove(s.owner.user_id, { filterId: id + 1 }), NOT_FOUND);
  t.equal((await list(s)).length, 1);
});

t.test('a new linkifier is processed last, also after a reorder', async (t) => {
  const s = await setup(t);
  const a = await add(s, { pattern: '1#(?P<id>[123])', url_template: 'https://filter.com/foo/{id}' });
  const b = await add(s, { pattern: '2#(?P<id>[123])', url_template: 'https://filter.com/bar/{id}' });
  t.same(shared.db.prepare('SELECT sort_order FROM linkifier ORDER BY id').pluck().all(), [0, 1]);
  shared.db.exec('UPDATE linkifier SET sort_order = 0');
  t.same((await list(s)).map((l) => l.id), [a, b], 'equal orders fall back to creation order');
  s.chat.api.linkifiers.reorder(s.owner.user_id, { orderedLinkifierIds: [b, a] });
  const c = await add(s, { pattern: '3#123', url_template: 'https://example.com' });
  t.same((await list(s)).map((l) => l.id), [b, a, c]);
});

t.test('PATCH /realm/linkifiers reorders: every linkifier exactly once, no duplicates', async (t) => {
  const s = await setup(t);
  const ids = [await add(s, TICKET), await add(s, { pattern: 'B(?P<id>x)', url_template: 'https://b/{id}' }), await add(s, { pattern: 'C(?P<id>x)', url_template: 'https://c/{id}' })];
  const reorder = (ordered: unknown) => s.request('PATCH', '/realm/linkifiers', { as: s.owner, params: { ordered_linkifier_ids: ordered } });
  const reply = await reorder([ids[2], ids[1], ids[0]]);
  t.same([reply.status, reply.body], [200, { result: 'success', msg: '' }]);
  t.same((await list(s)).map((l) => l.id), [ids[2], ids[1], ids[0]]);
  const all = { msg: 'The ordered list must enumerate all existing linkifiers exactly once' };
  isError(t, await reorder([ids[0], ids[1]]), all);
  isError(t, await reorder([999, ...ids]), all);
  isError(t, await reorder([ids[0], ids[1], 999]), all);
  const dup = { msg: 'The ordered list must not contain duplicated linkifiers' };
  isError(t, await reorder([...ids, ids[0]]), dup);
  throwsApiError(t, () => s.chat.api.linkifiers.reorder(s.owner.user_id, { orderedLinkifierIds: [ids[0]!, ids[0]!] }), dup);
  isError(t, await reorder('x'), { msg: 'ordered_linkifier_ids is not valid JSON' });
  isError(t, await reorder({}), { msg: 'ordered_linkifier_ids is not a list' });
  isError(t, await reorder(['a']), { msg: 'ordered_linkifier_ids[0] is not an integer' });
  isError(t, await s.request('PATCH', '/realm/linkifiers', { as: s.owner }), { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'ordered_linkifier_ids' argument" });
  t.same((await list(s)).map((l) => l.id), [ids[2], ids[1], ids[0]], 'failed reorders change nothing');
});
