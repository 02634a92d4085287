// fast-check arbitraries for the HTTP fuzz test: hostile parameter values as bytes (wrong types,
// JSON garbage, huge and empty strings, odd Unicode, invalid UTF-8, huge and negative numbers,
// deep JSON), path values, extra parameters and methods, built from a route's declaration; narrows
// piling up search words and phrases.
import fc from 'fast-check';
import { wireName, type Param } from '../lib/http/params.js';
import type { RouteDef } from '../lib/routes/route.js';
import { percentEncode, type RawEncoding, type RawRequest } from './raw_http.js';

/** Values of the fuzzed server's world (ids and names that exist), so requests also reach the rules. */
export interface World {
  ids: number[];
  names: string[];
}

const DEEP_ARRAY = '['.repeat(100_000) + ']'.repeat(100_000);
const DEEP_OBJECT = '{"a":'.repeat(20_000) + '1' + '}'.repeat(20_000);

const CONSTANTS = [
  '', ' ', '\t\n', 'true', 'false', 'null', '0', '-0', '1', '-1', '1.5', '1e3', '1e309', '-1e309', 'NaN', 'Infinity',
  '9007199254740993', '-9007199254740993', '99999999999999999999999999', '0x10', '+1', '01',
  '[', ']', '{', '[1,', '{"a":', '"', '"x"', '[]', '{}', '[null]', '[""]', '[" "]', '[-1]', '[0]', '[1.5]', '[true]', '[{}]', '[[]]',
  '[1e309]', '["a",1]', '{"__proto__":{"x":1}}', '{"constructor":1}', '[{"operator":"search","operand":"x"}]', '[["is","starred"]]',
  'add', 'remove', 'read', 'starred', 'collapsed', 'mentioned', 'stream', 'channel', 'private', 'direct', 'newest', 'oldest',
  'first_unread', 'unicode_emoji', 'realm_emoji', 'service_extra_emoji', 'zulip_extra_emoji', 'smile', '1f600', 'fcm', 'apns',
  'change_all', 'inbox', 'partial', '(no topic)', 'start', 'stop', 'active', 'idle', '#(?P<id>[0-9]+)', 'https://example.com/{id}', '(?P<a>', '{', '{{}}',
  '\u0000', 'a\u0000b', '\u202e', '\ufeff', '\u200b', 'é', 'e\u0301', '👩‍👩‍👧', '𝕏', '\u{10ffff}', '\r\n\r\n--x--',
  '<script>alert(1)</script>', "'; DROP TABLE user; --", '../../etc/passwd', '%00', '%zz', '@**all**', '@**everyone**',
  `[${'1,'.repeat(60_000)}1]`, `[${'"x",'.repeat(20_000)}"x"]`,
];

const DEEP = [DEEP_ARRAY, DEEP_OBJECT, `[${DEEP_OBJECT}]`, `{"a":${DEEP_ARRAY}}`, '['.repeat(101) + ']'.repeat(101), '{"a":'.repeat(101) + '{}' + '}'.repeat(101)];

const HUGE = ['x'.repeat(200_000), '😀'.repeat(50_000), '\u0000'.repeat(5_000), ' '.repeat(100_000), 'é'.repeat(30_000)];

/** Invalid UTF-8: a lone surrogate as WTF-8, bytes that never start a character, an overlong NUL. */
const BAD_BYTES = [Buffer.from([0xed, 0xa0, 0x80]), Buffer.from([0xff, 0xfe]), Buffer.from([0xc0, 0x80]), Buffer.from([0x61, 0x80, 0x62])];

function worldValue(world: World): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...world.ids).map(String),
    fc.constantFrom(...world.names),
    fc.subarray(world.ids, { maxLength: 4 }).map((ids) => JSON.stringify(ids)),
    fc.constantFrom(...world.names).map((name) => JSON.stringify([name])),
  );
}

/** Any raw parameter value, as the bytes that go on the wire. */
export function rawValue(world: World): fc.Arbitrary<Buffer> {
  const text = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...CONSTANTS) },
    { weight: 4, arbitrary: worldValue(world) },
    { weight: 2, arbitrary: fc.string({ maxLength: 40 }) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 3, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((value) => JSON.stringify(value) ?? 'null') },
    { weight: 2, arbitrary: fc.oneof(fc.integer(), fc.double(), fc.bigInt()).map(String) },
    { weight: 2, arbitrary: fc.array(fc.oneof(fc.integer({ min: -3, max: 40 }), fc.string({ maxLength: 8 })), { maxLength: 5 }).map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constantFrom(...HUGE) },
    { weight: 1, arbitrary: fc.constantFrom(...DEEP) },
  );
  return fc.oneof(
    { weight: 12, arbitrary: text.map((value) => Buffer.from(value, 'utf8')) },
    // Lone surrogates: JavaScript would turn them into U+FFFD; as WTF-8 they reach the server raw.
    { weight: 1, arbitrary: fc.constantFrom(...BAD_BYTES) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 24 }).map((bytes) => Buffer.from(bytes)) },
  );
}

/** Odd strings that are still strings, for the fields of otherwise well-formed values. */
const ODD_STRINGS = ['', ' ', 'x', '\u0000', 'a\u0000b', '\ud800', '\u202e', '👩‍👩‍👧', 'e\u0301', '(no topic)', '@**all**', '**', '`', 'x'.repeat(70), 'y'.repeat(10_050)];

type Def = { type: string; innerType?: Node; in?: Node; out?: Node; element?: Node; shape?: Record<string, Node>; options?: Node[]; entries?: Record<string, string>; values?: unknown[]; items?: Node[] };
type Node = { _zod: { def: Def } };

/** A value of the schema's type (what a well-behaved client sends), with odd but typed leaves. */
function typedValue(node: Node, world: World, depth = 0): fc.Arbitrary<unknown> {
  const def = node._zod.def;
  const text = fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...world.names) }, { weight: 2, arbitrary: fc.constantFrom(...ODD_STRINGS) });
  const id = fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...world.ids) }, { weight: 1, arbitrary: fc.constantFrom(0, -1, 2 ** 31, 2 ** 53 - 1) });
  if (depth > 4) return fc.constant(null);
  switch (def.type) {
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'nonoptional':
      return typedValue(def.innerType!, world, depth);
    case 'pipe':
      return typedValue(def.in!, world, depth);
    case 'string':
      return text;
    case 'number':
    case 'int':
      return id;
    case 'boolean':
      return fc.boolean();
    case 'enum':
      return fc.constantFrom(...Object.values(def.entries ?? { x: 'x' }));
    case 'literal':
      return fc.constantFrom(...(def.values ?? [null]));
    case 'array':
      return fc.array(typedValue(def.element!, world, depth + 1), { maxLength: 3 });
    case 'tuple':
      return fc.tuple(...(def.items ?? []).map((item) => typedValue(item, world, depth + 1)));
    case 'object':
      return fc.record(Object.fromEntries(Object.entries(def.shape ?? {}).map(([key, field]) => [key, typedValue(field, world, depth + 1)])), {
        requiredKeys: [],
      });
    case 'union':
      return fc.oneof(...(def.options ?? []).map((option) => typedValue(option, world, depth)));
    case 'record':
      return fc.dictionary(fc.constantFrom('notification_settings_null', 'linkifier_url_template', 'x'), fc.oneof(fc.boolean(), id), { maxKeys: 2 });
    default:
      return fc.oneof(id, text, fc.array(id, { maxLength: 3 }));
  }
}

/** A declared parameter's value: mostly of its type, sometimes anything at all. */
function paramValue(param: Param, world: World): fc.Arbitrary<Buffer> {
  const typed = typedValue(param.schema as unknown as Node, world).map((value) => {
    const text = param.wire === 'string' || (param.wire === 'json-or-string' && typeof value === 'string') ? String(value) : JSON.stringify(value);
    return Buffer.from(text ?? 'null', 'utf8');
  });
  return fc.oneof({ weight: 3, arbitrary: typed }, { weight: 2, arbitrary: rawValue(world) });
}

/** Search words as an attacker piles them up: one letter, long, CJK, joined, quoted, FTS5 syntax, punctuation. */
const SEARCH_PIECES = fc.oneof(
  fc.constantFrom('a', 'é', '漢', '漢字中文', 'fuzz', 'hello', 'x'.repeat(300), 'foo-bar-baz', '!!!', '"', '""', '*', 'a*', 'NEAR(a b)', 'AND', 'OR', 'NOT', '^a', 'topic:a', '%_\\'),
  fc.string({ maxLength: 6 }),
  fc.array(fc.constantFrom('a', 'hello', '漢', 'é', '!', '%'), { minLength: 1, maxLength: 8 }).map((words) => `"${words.join(' ')}"`),
);

/** A narrow of up to 100 terms, mostly searches of up to 1,000 characters, among other terms, negated or not. */
function searchNarrow(world: World): fc.Arbitrary<Buffer> {
  const operand = fc.array(SEARCH_PIECES, { minLength: 1, maxLength: 60 }).map((pieces) => pieces.join(' ').slice(0, 1000));
  const search = fc.record({ operator: fc.constant('search'), operand, negated: fc.boolean() });
  const other = fc.record({
    operator: fc.constantFrom('channel', 'topic', 'sender', 'is', 'has', 'id', 'in', 'dm'),
    operand: fc.oneof(fc.constantFrom(...world.names, 'starred', 'unread', 'mentioned', 'muted', 'followed', 'link', 'reaction', 'home'), fc.constantFrom(...world.ids)),
    negated: fc.boolean(),
  });
  const terms = fc.array(fc.oneof({ weight: 3, arbitrary: search }, { weight: 1, arbitrary: other }), { minLength: 1, maxLength: 100 });
  return terms.map((narrow) => Buffer.from(JSON.stringify(narrow), 'utf8'));
}

/** Well-formed GET /messages and POST /messages/flags/narrow requests whose narrows pile up search words and phrases. */
export function searchRequests(world: World): fc.Arbitrary<FuzzRequest> {
  const text = (name: string, value: unknown): [string, Buffer] => [name, Buffer.from(typeof value === 'string' ? value : JSON.stringify(value), 'utf8')];
  const range = fc
    .tuple(fc.constantFrom('newest', 'oldest', 'first_unread', ...world.ids.map(String)), fc.nat(100), fc.nat(100))
    .map(([anchor, before, after]) => [text('anchor', anchor), text('num_before', before), text('num_after', after)]);
  const byIds = fc.subarray(world.ids, { minLength: 1 }).map((ids) => [text('message_ids', ids)]);
  const get = fc.tuple(searchNarrow(world), fc.oneof(range, byIds)).map(([narrow, rest]) => ({ method: 'GET', path: '/api/v1/messages', params: [['narrow', narrow] as [string, Buffer], ...rest] }));
  const flags = fc.tuple(searchNarrow(world), range).map(([narrow, rest]) => ({
    method: 'POST',
    path: '/api/v1/messages/flags/narrow',
    params: [['narrow', narrow] as [string, Buffer], ...rest, text('op', 'add'), text('flag', 'starred')],
  }));
  return fc
    .record({ caller: fc.constantFrom('owner' as const, 'member' as const), encoding: fc.constantFrom<RawEncoding>('urlencoded', 'multipart'), request: fc.oneof(get, flags) })
    .map(({ caller, encoding, request }) => ({ caller, encoding, ...request }));
}

/** The event headers the integrations read, with events they know and do not. */
const WEBHOOK_HEADERS = fc.oneof(
  fc.record({ 'X-GitHub-Event': fc.constantFrom('push', 'issues', 'pull_request', 'release', 'star', 'fork', 'workflow_run', 'check_run', 'ping', 'sponsorship', '') }),
  fc.record({ 'X-Gitlab-Event': fc.constantFrom('Push Hook', 'Issue Hook', 'Merge Request Hook', 'Note Hook', 'Pipeline Hook', 'Nope Hook') }),
  fc.record({ 'X-Gitea-Event': fc.constantFrom('push', 'issues', 'pull_request', 'release', 'x') }),
  fc.constant({}),
);

/** A payload shaped like the services' (the keys their integrations read) with random values, or anything at all. */
function webhookBody(): fc.Arbitrary<Buffer> {
  const value = fc.oneof(fc.string({ unit: 'binary', maxLength: 20 }), fc.integer(), fc.boolean(), fc.constant(null), fc.constantFrom('refs/heads/main', 'refs/tags/v1', 'opened', 'closed', 'firing', 'resolved'));
  const keys = fc.constantFrom('ref', 'action', 'repository', 'sender', 'commits', 'pusher', 'issue', 'pull_request', 'object_kind', 'alerts', 'status', 'labels', 'data', 'event', 'text', 'blocks', 'attachments', 'title', 'message', 'project', 'user', 'created', 'deleted', 'forced');
  const shaped = fc.letrec((tie) => ({
    node: fc.oneof({ depthSize: 'small', withCrossShrink: true }, value, fc.array(tie('node'), { maxLength: 3 }), fc.dictionary(keys, tie('node'), { maxKeys: 5 })),
  })).node;
  return fc.oneof(
    { weight: 5, arbitrary: fc.dictionary(keys, shaped, { maxKeys: 8 }).map((payload) => Buffer.from(JSON.stringify(payload))) },
    { weight: 2, arbitrary: fc.constantFrom(...CONSTANTS).map((text) => Buffer.from(text)) },
    { weight: 1, arbitrary: fc.constantFrom(DEEP_ARRAY, DEEP_OBJECT, '\uffff', '{"text": "\ud800"}').map((text) => Buffer.from(text)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)) },
  );
}

/** Incoming webhooks as services send them: a known integration, an event header, a body of any kind, the URL's parameters. */
export function webhookRequests(world: World, integrations: readonly string[]): fc.Arbitrary<FuzzRequest> {
  const text = (name: string, value: string): [string, Buffer] => [name, Buffer.from(value, 'utf8')];
  const query = fc.tuple(
    fc.option(fc.constantFrom(...world.names, 'fuzz', '1', '999999').map((v) => text('stream', v)), { nil: undefined }),
    fc.option(fc.constantFrom(...CONSTANTS).map((v) => text('topic', v)), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('only_events', 'exclude_events'), fc.constantFrom('["push*"]', '[]', '["*"]', 'push', '[1]', '[[]]')).map(([name, v]) => text(name, v)), { nil: undefined }),
    fc.option(fc.tuple(fc.constantFrom('branches', 'ignore_private_repositories'), fc.constantFrom('main', 'main,dev', '', 'true', 'false', '1')).map(([name, v]) => text(name, v)), { nil: undefined }),
  );
  return fc
    .record({
      caller: fc.constantFrom('webhookBot' as const, 'webhookBot' as const, 'member' as const, 'nobody' as const),
      integration: fc.constantFrom(...integrations, 'unknown'),
      contentType: fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream'),
      headers: WEBHOOK_HEADERS,
      bytes: webhookBody(),
      query,
    })
    .map(({ caller, integration, contentType, headers, bytes, query: params }) => ({
      caller,
      method: 'POST',
      path: `/api/v1/external/${integration}`,
      encoding: 'query' as const,
      params: params.filter((x): x is [string, Buffer] => x !== undefined),
      body: { contentType, headers, bytes: contentType.startsWith('application/x-www-form-urlencoded') ? Buffer.concat([Buffer.from('payload='), Buffer.from(encodeURIComponent(bytes.toString('latin1')))]) : bytes },
    }));
}

const EXTRA_NAMES = ['client', 'foo', '__proto__', 'constructor', 'hasOwnProperty', 'toString', '', 'a b', 'é', 'api_key', 'queue_id', 'x[]'];

function pathValue(param: Param, world: World, star: boolean): fc.Arbitrary<string> {
  if (param.wire === 'json') {
    return fc.oneof(
      { weight: 4, arbitrary: fc.constantFrom(...world.ids).map(String) },
      { weight: 3, arbitrary: fc.integer({ min: 0, max: 10 }).map(String) },
      { weight: 1, arbitrary: fc.constantFrom('0', '-1', '1.5', 'abc', '99999999999999999999', '9007199254740993', '%31', '1e3', '') },
    );
  }
  const raw = fc.oneof(
    { weight: 3, arbitrary: fc.constantFrom(...world.names) },
    { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 30 }) },
    { weight: 1, arbitrary: fc.constantFrom('a/b/c', '..', '%2F', '%ff', 'x'.repeat(3000), 'narrow/is/starred', ' ') },
  );
  return raw.map((value) => percentEncode(Buffer.from(value, 'utf8'), star ? '/%' : '%'));
}

export interface FuzzRequest {
  caller: 'owner' | 'member' | 'nobody' | 'webhookBot';
  method: string;
  path: string;
  encoding: RawEncoding;
  params: [string, Buffer][];
  /** A body sent as it is (incoming webhooks), `params` in the query string. */
  body?: RawRequest['body'];
}

/** Requests for one route: its declared parameters each present or not, extra ones, other methods. */
export function requestsFor(route: RouteDef, world: World): fc.Arbitrary<FuzzRequest> {
  // Declaration order (path segments fill the path in it), by wire name.
  const entries = Object.entries(route.params).map(([name, param]) => [wireName(name), param] as const);
  const pathParams = entries.filter(([, p]) => p.in === 'path');
  const formParams = entries.filter(([, p]) => p.in === 'form');
  const star = route.path.includes('*');
  const path = fc.tuple(...pathParams.map(([, p]) => pathValue(p, world, star))).map((values) => {
    let i = 0;
    const filled = route.path.replace(/:\w+|\*/g, () => values[i++] ?? '');
    return (route.outsideApi ? '' : '/api/v1') + filled;
  });
  const value = rawValue(world);
  const declared = fc.tuple(
    ...formParams.map(([name, p]) =>
      fc.option(fc.tuple(fc.constantFrom(name, ...p.aliases), name === 'narrow' ? fc.oneof(paramValue(p, world), searchNarrow(world)) : paramValue(p, world)), {
        nil: undefined,
        freq: p.required ? 6 : 2,
      }),
    ),
  );
  const extra = fc.array(fc.tuple(fc.constantFrom(...EXTRA_NAMES), value), { maxLength: 2 });
  return fc.record({
    caller: fc.constantFrom('owner' as const, 'owner' as const, 'member' as const, 'member' as const, 'nobody' as const),
    method: fc.oneof({ weight: 6, arbitrary: fc.constant(route.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PATCH', 'DELETE', 'PUT', 'OPTIONS') }),
    path,
    encoding: fc.constantFrom<RawEncoding>(
      'query',
      'urlencoded',
      'multipart',
      'query',
      'urlencoded',
      'multipart',
      'multipart-chunked',
      'multipart-files',
      'multipart-truncated',
    ),
    params: fc.tuple(declared, extra).map(([d, e]) => [...d.filter((x): x is [string, Buffer] => x !== undefined), ...e]),
  });
}
