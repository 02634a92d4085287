// Navigation views: every rule over HTTP
// and in-process, the fragment path raw and percent-encoded, navigation_view events and state.
import t, { type Test } from 'tap';
import { isError, throwsApiError } from './assertions.js';
import { navigationViewEventSchemas, type NavigationView } from '../lib/domain/navigation_view_dicts.js';
import { startServer, type Reply, type TestServer, type TestUser } from './helpers.js';
import { deliveredSchema } from './stored_events.js';


const eventSchema = deliveredSchema(navigationViewEventSchemas);

const NOT_FOUND = { status: 404, code: 'NOT_FOUND', msg: 'Navigation view does not exist.' };
const BUILT_IN_NAMED = { status: 400, code: 'BAD_REQUEST', msg: 'Built-in views cannot have a custom name.' };
const EXISTS = { status: 400, code: 'BAD_REQUEST', msg: 'Navigation view already exists.' };


function isSuccess(t: Test, reply: Reply, body: Record<string, unknown> = {}): void {
  t.equal(reply.status, 200, 'status');
  t.same(reply.body, { result: 'success', msg: '', ...body });
}

// One server for the whole file (starting one costs ~0.4 s); each test works on fresh users.
const server = startServer();
t.teardown(async () => (await server).close());

async function setup(_t: Test): Promise<{ s: TestServer; member: TestUser; other: TestUser }> {
  const s = await server;
  return { s, member: await s.user('member'), other: await s.user('member') };
}

const add = (s: TestServer, user: TestUser, params: Record<string, unknown>, encoding?: 'multipart') =>
  s.request('POST', '/navigation_views', { as: user, params, encoding });
const list = async (s: TestServer, user: TestUser) => (await s.request('GET', '/navigation_views', { as: user })).body.navigation_views;

t.test('GET /navigation_views lists only the caller\'s views, in the order they were added', async (t) => {
  const { s, member, other } = await setup(t);
  isSuccess(t, await s.request('GET', '/navigation_views', { as: member }), { navigation_views: [] });
  await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' });
  await add(s, member, { fragment: 'inbox', is_pinned: false });
  await add(s, other, { fragment: 'narrow/is/unread', is_pinned: true, name: 'Unread' });
  t.same(await list(s, member), [
    { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' },
    { fragment: 'inbox', is_pinned: false, name: null },
  ]);
  t.same(s.chat.api.navigationViews.list(member.user_id), { navigation_views: await list(s, member) }, 'in-process');
});

t.test('POST /navigation_views adds a custom view with a name; the answer has no data', async (t) => {
  const { s, member, other } = await setup(t);
  isSuccess(t, await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alert Words' }));
  isSuccess(t, await add(s, member, { fragment: 'narrow/channel/1', is_pinned: 'false', name: 'General' }, 'multipart'), {});
  t.same(s.chat.api.navigationViews.create(member.user_id, { fragment: 'narrow/dm/2', isPinned: false, name: 'DMs' }), {});
  t.same((await list(s, member)).map((v: { name: string }) => v.name), ['Alert Words', 'General', 'DMs']);
});

t.test('every built-in view can be pinned or hidden without a name', async (t) => {
  const { s, member, other } = await setup(t);
  const builtIns = ['inbox', 'recent', 'feed', 'drafts', 'narrow/has/reaction/sender/me', 'narrow/is/mentioned', 'narrow/is/starred', 'scheduled', 'reminders'];
  for (const [i, fragment] of builtIns.entries()) isSuccess(t, await add(s, member, { fragment, is_pinned: i % 2 === 0 }));
  t.same(await list(s, member), builtIns.map((fragment, i) => ({ fragment, is_pinned: i % 2 === 0, name: null })));
});

t.test('POST: a built-in view given a name is refused', async (t) => {
  const { s, member, other } = await setup(t);
  isError(t, await add(s, member, { fragment: 'inbox', is_pinned: true, name: 'My inbox' }), BUILT_IN_NAMED);
  isError(t, await add(s, member, { fragment: ' narrow/is/starred ', is_pinned: true, name: 'Stars' }), BUILT_IN_NAMED);
  await throwsApiError(t, () => s.chat.api.navigationViews.create(member.user_id, { fragment: 'recent', isPinned: true, name: 'R' }), BUILT_IN_NAMED);
  t.same(await list(s, member), [], 'nothing was added');
});

t.test('POST: a custom view needs a name', async (t) => {
  const { s, member, other } = await setup(t);
  const expected = { status: 400, code: 'BAD_REQUEST', msg: 'Custom views must have a valid name.' };
  isError(t, await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: true }), expected);
  await throwsApiError(t, () => s.chat.api.navigationViews.create(member.user_id, { fragment: 'narrow/is/alerted', isPinned: true }), expected);
});

t.test('POST: fragment and name are stripped and must not be blank', async (t) => {
  const { s, member, other } = await setup(t);
  isSuccess(t, await add(s, member, { fragment: '  narrow/is/alerted\n', is_pinned: true, name: '  Alerts ' }));
  t.same(await list(s, member), [{ fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' }]);
  isError(t, await add(s, member, { fragment: '   ', is_pinned: true, name: 'X' }), { status: 400, code: 'BAD_REQUEST', msg: 'fragment cannot be blank' });
  isError(t, await add(s, member, { fragment: 'narrow/x', is_pinned: true, name: ' ' }), { status: 400, code: 'BAD_REQUEST', msg: 'name cannot be blank' });
  await throwsApiError(t, () => s.chat.api.navigationViews.create(member.user_id, { fragment: '', isPinned: true, name: 'X' }), {
    status: 400,
    code: 'BAD_REQUEST',
    msg: 'fragment cannot be blank',
  });
  isSuccess(t, await add(s, member, { fragment: 'inbox ', is_pinned: true }), {});
  t.equal((await list(s, member))[1].fragment, 'inbox', 'a stripped built-in fragment is the built-in view');
});

t.test('POST: is_pinned is required and must be a boolean; fragment is required', async (t) => {
  const { s, member, other } = await setup(t);
  const missing = await add(s, member, { fragment: 'narrow/x', name: 'X' });
  t.equal(missing.status, 400);
  t.same(missing.body, { result: 'error', msg: "Missing 'is_pinned' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'is_pinned' });
  isError(t, await add(s, member, { fragment: 'narrow/x', is_pinned: 'yes', name: 'X' }), { status: 400, code: 'BAD_REQUEST', msg: 'is_pinned is not valid JSON' });
  isError(t, await add(s, member, { fragment: 'narrow/x', is_pinned: 1, name: 'X' }), { status: 400, code: 'BAD_REQUEST', msg: 'is_pinned is not a boolean' });
  isError(t, await add(s, member, { is_pinned: true, name: 'X' }), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'fragment' argument" });
  await throwsApiError(t, () => s.chat.api.navigationViews.create(member.user_id, { fragment: 'narrow/x', name: 'X' } as never), {
    status: 400,
    code: 'REQUEST_VARIABLE_MISSING',
    msg: "Missing 'is_pinned' argument",
  });
  t.same(await list(s, member), []);
});

t.test('POST: fragments and names are unique per user', async (t) => {
  const { s, member, other } = await setup(t);
  isSuccess(t, await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' }));
  isSuccess(t, await add(s, member, { fragment: 'inbox', is_pinned: true }));
  isError(t, await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Other name' }), EXISTS);
  isError(t, await add(s, member, { fragment: 'inbox', is_pinned: false }), EXISTS);
  isError(t, await add(s, member, { fragment: 'narrow/is/unread', is_pinned: false, name: 'Alerts' }), EXISTS);
  await throwsApiError(t, () => s.chat.api.navigationViews.create(member.user_id, { fragment: 'narrow/y', isPinned: true, name: 'Alerts' }), EXISTS);
  isSuccess(t, await add(s, member, { fragment: 'narrow/is/unread', is_pinned: false, name: 'alerts' }), {});
  isSuccess(t, await add(s, other, { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' }), {});
  t.equal((await list(s, member)).length, 3);
});

t.test('PATCH /navigation_views/{fragment}: the fragment may contain slashes, raw or percent-encoded', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, { fragment: 'narrow/is/starred', is_pinned: false });
  await add(s, member, { fragment: 'narrow/channel/9-a b%c', is_pinned: false, name: 'Odd' });
  isSuccess(t, await s.request('PATCH', '/navigation_views/narrow/is/starred', { as: member, params: { is_pinned: true } }));
  t.equal((await list(s, member))[0].is_pinned, true, 'raw slashes');
  isSuccess(t, await s.request('PATCH', '/navigation_views/narrow%2Fis%2Fstarred', { as: member, params: { is_pinned: false } }));
  t.equal((await list(s, member))[0].is_pinned, false, 'percent-encoded slashes');
  isSuccess(t, await s.request('PATCH', `/navigation_views/${encodeURIComponent('narrow/channel/9-a b%c')}`, { as: member, params: { name: 'Decoded' } }));
  isSuccess(t, await s.request('PATCH', '/navigation_views/narrow/channel%2F9-a%20b%25c', { as: member, params: { is_pinned: true } }));
  t.same((await list(s, member))[1], { fragment: 'narrow/channel/9-a b%c', is_pinned: true, name: 'Decoded' }, 'decoded once, mixed forms');
  t.same(s.chat.api.navigationViews.update(member.user_id, { fragment: 'narrow/is/starred', isPinned: true }), {}, 'in-process');
  t.equal((await list(s, member))[0].is_pinned, true);
});

t.test('PATCH: is_pinned true pins the view, false hides it in the menu', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' });
  isSuccess(t, await s.request('PATCH', '/navigation_views/narrow/is/alerted', { as: member, params: { is_pinned: true } }));
  t.same(await list(s, member), [{ fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' }]);
  isSuccess(t, await s.request('PATCH', '/navigation_views/narrow/is/alerted', { as: member, params: { is_pinned: false } }));
  t.same(await list(s, member), [{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' }]);
  isSuccess(t, await s.request('PATCH', '/navigation_views/narrow/is/alerted', { as: member, params: { is_pinned: true, name: 'Renamed' } }));
  t.same(await list(s, member), [{ fragment: 'narrow/is/alerted', is_pinned: true, name: 'Renamed' }]);
});

t.test('PATCH: parameters in the query string (zulip-js) and in multipart bodies', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' });
  isSuccess(t, await s.request('PATCH', '/navigation_views/narrow%2Fis%2Falerted', { as: member, params: { is_pinned: 'true', name: 'Q' }, encoding: 'query' }));
  t.same(await list(s, member), [{ fragment: 'narrow/is/alerted', is_pinned: true, name: 'Q' }]);
  isSuccess(t, await s.request('PATCH', '/navigation_views/narrow/is/alerted', { as: member, params: { is_pinned: 'false', name: 'M' }, encoding: 'multipart' }));
  t.same(await list(s, member), [{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'M' }]);
  const ignored = await s.request('PATCH', '/navigation_views/narrow/is/alerted', { as: member, params: { is_pinned: true, colour: 'red' }, encoding: 'query' });
  isSuccess(t, ignored, { ignored_parameters_unsupported: ['colour'] });
});

t.test('PATCH: a name for a built-in view is refused, before the view is looked up', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, { fragment: 'inbox', is_pinned: false });
  isError(t, await s.request('PATCH', '/navigation_views/inbox', { as: member, params: { name: 'Mine' } }), BUILT_IN_NAMED);
  isError(t, await s.request('PATCH', '/navigation_views/narrow/is/mentioned', { as: member, params: { name: 'Mine', is_pinned: true } }), BUILT_IN_NAMED);
  isError(t, await s.request('PATCH', '/navigation_views/narrow%2Fis%2Fstarred', { as: member, params: { name: 'S' }, encoding: 'query' }), BUILT_IN_NAMED);
  await throwsApiError(t, () => s.chat.api.navigationViews.update(member.user_id, { fragment: 'inbox', name: 'Mine' }), BUILT_IN_NAMED);
  t.same(await list(s, member), [{ fragment: 'inbox', is_pinned: false, name: null }], 'nothing changed');
});

t.test('PATCH: a missing view is NOT_FOUND with HTTP 404, another user\'s too', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, other, { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' });
  isError(t, await s.request('PATCH', '/navigation_views/narrow/is/alerted', { as: member, params: { is_pinned: true } }), NOT_FOUND);
  isError(t, await s.request('PATCH', '/navigation_views/inbox', { as: member, params: { is_pinned: true } }), NOT_FOUND);
  isError(t, await s.request('PATCH', '/navigation_views/nothing%2Fhere', { as: member, params: {} }), NOT_FOUND);
  await throwsApiError(t, () => s.chat.api.navigationViews.update(member.user_id, { fragment: 'narrow/is/alerted', isPinned: true }), NOT_FOUND);
  t.same(await list(s, other), [{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' }], "the other user's view is untouched");
});

t.test('PATCH: the path fragment is taken as given, not stripped', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' });
  isError(t, await s.request('PATCH', '/navigation_views/%20narrow/is/alerted', { as: member, params: { is_pinned: true } }), NOT_FOUND);
});

t.test('PATCH: a name already used by any of the user\'s views is refused, even the view\'s own and before existence', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, { fragment: 'narrow/a', is_pinned: false, name: 'A' });
  await add(s, member, { fragment: 'narrow/b', is_pinned: false, name: 'B' });
  isError(t, await s.request('PATCH', '/navigation_views/narrow/b', { as: member, params: { name: 'A' } }), EXISTS);
  isError(t, await s.request('PATCH', '/navigation_views/narrow/b', { as: member, params: { name: 'B' } }), EXISTS);
  isError(t, await s.request('PATCH', '/navigation_views/narrow/missing', { as: member, params: { name: 'A' } }), EXISTS);
  await throwsApiError(t, () => s.chat.api.navigationViews.update(member.user_id, { fragment: 'narrow/b', name: 'A', isPinned: true }), EXISTS);
  isError(t, await s.request('PATCH', '/navigation_views/narrow/b', { as: member, params: { name: '  ' } }), { status: 400, code: 'BAD_REQUEST', msg: 'name cannot be blank' });
  isError(t, await s.request('PATCH', '/navigation_views/narrow/b', { as: member, params: { is_pinned: 'maybe' } }), { status: 400, code: 'BAD_REQUEST', msg: 'is_pinned is not valid JSON' });
  t.same(await list(s, member), [
    { fragment: 'narrow/a', is_pinned: false, name: 'A' },
    { fragment: 'narrow/b', is_pinned: false, name: 'B' },
  ]);
  isSuccess(t, await s.request('PATCH', '/navigation_views/narrow/b', { as: member, params: { name: ' b ' } }));
  t.equal((await list(s, member))[1].name, 'b', 'names are stripped and compared case-sensitively');
});

t.test('PATCH with neither field still succeeds', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, { fragment: 'inbox', is_pinned: true });
  isSuccess(t, await s.request('PATCH', '/navigation_views/inbox', { as: member }));
  t.same(s.chat.api.navigationViews.update(member.user_id, { fragment: 'inbox' }), {});
  t.same(await list(s, member), [{ fragment: 'inbox', is_pinned: true, name: null }]);
});

t.test('DELETE /navigation_views/{fragment} removes the view, raw or percent-encoded; built-in rows too', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, { fragment: 'narrow/is/starred', is_pinned: true });
  await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
  await add(s, member, { fragment: 'inbox', is_pinned: true });
  isSuccess(t, await s.request('DELETE', '/navigation_views/narrow/is/starred', { as: member }));
  isSuccess(t, await s.request('DELETE', '/navigation_views/narrow%2Fis%2Falerted', { as: member }));
  t.same(s.chat.api.navigationViews.delete(member.user_id, { fragment: 'inbox' }), {});
  t.same(await list(s, member), []);
  isSuccess(t, await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' }), {});
});

t.test('DELETE: a missing view, or another user\'s, is NOT_FOUND with HTTP 404', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, other, { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' });
  isError(t, await s.request('DELETE', '/navigation_views/narrow/is/alerted', { as: member }), NOT_FOUND);
  isError(t, await s.request('DELETE', '/navigation_views/narrow%2Fis%2Falerted', { as: member, encoding: 'query', params: { x: 1 } }), NOT_FOUND);
  await throwsApiError(t, () => s.chat.api.navigationViews.delete(member.user_id, { fragment: 'narrow/is/alerted' }), NOT_FOUND);
  t.equal((await list(s, other)).length, 1);
});

t.test('bots may keep navigation views too; requests need credentials', async (t) => {
  const { s } = await setup(t);
  const bot = await s.user('member', { bot: true });
  isSuccess(t, await add(s, bot, { fragment: 'inbox', is_pinned: true }));
  const anonymous = await s.request('GET', '/navigation_views');
  t.equal(anonymous.status, 401);
  t.equal(anonymous.body.result, 'error');
});

interface NavState {
  navigation_views: NavigationView[];
}

/** Zulip's apply_event for navigation_view events. */
function apply(state: NavState, events: unknown[]): NavState {
  let views = structuredClone(state.navigation_views);
  for (const raw of events) {
    const event = eventSchema.parse(raw);
    if (event.op === 'add') views.push(event.navigation_view);
    else if (event.op === 'update') views = views.map((v) => (v.fragment === event.fragment ? { ...v, ...event.data } : v));
    else views = views.filter((v) => v.fragment !== event.fragment);
  }
  return { navigation_views: views };
}

t.test('navigation_view events match their schemas, go to the user only, and applied to the registered state equal a refetch', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, { fragment: 'narrow/is/old', is_pinned: true, name: 'Old' });
  const reg = await s.request('POST', '/register', { as: member, params: { event_types: ['navigation_view'] } });
  const otherReg = await s.request('POST', '/register', { as: other, params: { event_types: ['navigation_view'] } });
  t.same(reg.body.navigation_views, [{ fragment: 'narrow/is/old', is_pinned: true, name: 'Old' }], 'register state');

  await add(s, member, { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' });
  await add(s, member, { fragment: 'inbox', is_pinned: true });
  await s.request('PATCH', '/navigation_views/narrow/is/alerted', { as: member, params: { is_pinned: true } });
  await s.request('PATCH', '/navigation_views/narrow%2Fis%2Falerted', { as: member, params: { name: 'Renamed' } });
  await s.request('PATCH', '/navigation_views/inbox', { as: member });
  await s.request('DELETE', '/navigation_views/narrow/is/old', { as: member });
  s.chat.api.navigationViews.update(member.user_id, { fragment: 'inbox', isPinned: false });
  await add(s, member, { fragment: 'inbox', is_pinned: false, name: 'fails' });

  const polled = await s.request('GET', '/events', { as: member, params: { queue_id: reg.body.queue_id, last_event_id: reg.body.last_event_id, dont_block: true } });
  const events = polled.body.events as unknown[];
  t.same(
    events.map((e) => {
      const { id: _id, ...rest } = e as Record<string, unknown>;
      return rest;
    }),
    [
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'narrow/is/alerted', is_pinned: false, name: 'Alerts' } },
      { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: true, name: null } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { is_pinned: true } },
      { type: 'navigation_view', op: 'update', fragment: 'narrow/is/alerted', data: { name: 'Renamed' } },
      { type: 'navigation_view', op: 'update', fragment: 'inbox', data: {} },
      { type: 'navigation_view', op: 'remove', fragment: 'narrow/is/old' },
      { type: 'navigation_view', op: 'update', fragment: 'inbox', data: { is_pinned: false } },
    ],
    'one event per change, none for the failed request',
  );
  for (const event of events) t.ok(eventSchema.safeParse(event).success, `schema of ${JSON.stringify(event)}`);
  const refetched = await s.request('POST', '/register', { as: member, params: { event_types: ['navigation_view'] } });
  t.same(apply(reg.body as NavState, events), { navigation_views: refetched.body.navigation_views });
  const otherPoll = await s.request('GET', '/events', { as: other, params: { queue_id: otherReg.body.queue_id, last_event_id: otherReg.body.last_event_id, dont_block: true } });
  t.same(otherPoll.body.events, [], "another user's queue gets nothing");
});

t.test('the zulip-js client: POST as multipart, PATCH and DELETE with a percent-encoded fragment and query parameters', async (t) => {
  const { s, member } = await setup(t);
  // zulip-js ships no types; a computed specifier keeps TypeScript from asking for them.
  const { default: zulipInit } = (await import('zulip-js' as string)) as { default: (config: object) => Promise<any> };
  const client = await zulipInit({ username: member.email, apiKey: member.api_key, realm: s.url });
  t.same(await client.callEndpoint('/navigation_views', 'POST', { fragment: 'narrow/is/alerted', is_pinned: 'true', name: 'Alerts' }), { result: 'success', msg: '' });
  const fragment = encodeURIComponent('narrow/is/alerted');
  t.same(await client.callEndpoint(`/navigation_views/${fragment}`, 'PATCH', { is_pinned: 'false', name: 'Watched' }), { result: 'success', msg: '' });
  t.same(await client.callEndpoint('/navigation_views', 'GET'), { result: 'success', msg: '', navigation_views: [{ fragment: 'narrow/is/alerted', is_pinned: false, name: 'Watched' }] });
  t.same(await client.callEndpoint('/navigation_views/inbox', 'PATCH', { name: 'Mine' }), { result: 'error', msg: 'Built-in views cannot have a custom name.', code: 'BAD_REQUEST' });
  t.same(await client.callEndpoint(`/navigation_views/${fragment}`, 'DELETE'), { result: 'success', msg: '' });
  t.same(await client.callEndpoint(`/navigation_views/${fragment}`, 'DELETE'), { result: 'error', msg: 'Navigation view does not exist.', code: 'NOT_FOUND' });
});
