// Outgoing webhook bots' services (Zulip's Service): made by POST /bots (bot_type 3, payload_url,
// interface_type), changed by PATCH /bots/{bot_id} (service_payload_url, service_interface), shown in
// realm_bots and realm_bot events as Zulip shows them; GET /bots. Over HTTP and in-process.
import t, { type Test } from 'tap';
import { bad, bothFail } from './assertions.js';
import { startServer, withAuth, type TestServer, type TestUser } from './helpers.js';
import { applyUserEvent, byId, registerState } from './user_events.js';

async function server(t: Test): Promise<TestServer> {
  const s = await startServer({ realm: { name: 'Acme', url: 'https://chat.acme.test' } });
  t.teardown(() => s.close());
  return s;
}

async function outgoingBot(s: TestServer, owner: TestUser, shortName: string, params: Record<string, unknown> = {}): Promise<TestUser> {
  const reply = await s.request('POST', '/bots', { as: owner, params: { full_name: `${shortName} Bot`, short_name: shortName, bot_type: 3, ...params } });
  if (reply.status !== 200) throw new Error(JSON.stringify(reply.body));
  return withAuth(reply.body as { email: string; api_key: string; user_id: number });
}

const TOKEN = /^[A-Za-z0-9]{32}$/;

async function servicesOf(s: TestServer, viewer: TestUser, botId: number): Promise<unknown> {
  const state = await s.request('POST', '/register', { as: viewer, params: { fetch_event_types: ['realm_bot'] } });
  return (state.body.realm_bots as { user_id: number; services: unknown }[]).find((bot) => bot.user_id === botId)?.services;
}

t.test('POST /bots with bot_type 3: the service with its endpoint, format and a token, in realm_bots and the add event', async (t) => {
  const s = await server(t);
  const owner = await s.user('member');
  const admin = await s.user('admin');
  const queue = (await s.request('POST', '/register', { as: owner, params: { event_types: ['realm_bot'] } })).body;
  const bot = await outgoingBot(s, owner, 'echo', { payload_url: JSON.stringify('https://bots.example.com/echo'), interface_type: 2 });
  const services = (await servicesOf(s, owner, bot.user_id)) as { base_url: string; interface: number; token: string }[];
  t.match(services, [{ base_url: 'https://bots.example.com/echo', interface: 2, token: TOKEN }]);
  t.same(Object.keys(services[0]!).sort(), ['base_url', 'interface', 'token']);
  t.same(await servicesOf(s, admin, bot.user_id), services, 'administrators see it too');
  const events = (await s.request('GET', '/events', { as: owner, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true } })).body.events;
  t.same(events.find((e: any) => e.type === 'realm_bot' && e.op === 'add').bot.services, services, 'the add event shows the service');
  const defaults = await outgoingBot(s, owner, 'later');
  t.match(await servicesOf(s, owner, defaults.user_id), [{ base_url: '', interface: 1, token: TOKEN }], "Zulip's defaults: no endpoint yet, Zulip's format");
  t.not((services[0]!).token, ((await servicesOf(s, owner, defaults.user_id)) as { token: string }[])[0]!.token, 'each bot its own token');
});

t.test('other bots have no services, whatever POST /bots was given', async (t) => {
  const s = await server(t);
  const owner = await s.user('member');
  for (const botType of [1, 2]) {
    const reply = await s.request('POST', '/bots', { as: owner, params: { full_name: `Bot ${botType}`, short_name: `b${botType}`, bot_type: botType, payload_url: JSON.stringify('https://x.example.com/') } });
    t.same(await servicesOf(s, owner, reply.body.user_id), [], `bot_type ${botType}`);
  }
});

t.test("POST /bots: payload_url is JSON text naming an http(s) or ftp(s) URL; interface_type is Zulip's 1 or 2", async (t) => {
  const s = await server(t);
  const owner = await s.user('member');
  const create = (params: Record<string, unknown>, input: Record<string, unknown>) =>
    bothFail(
      t,
      () => s.request('POST', '/bots', { as: owner, params: { full_name: 'Hook Bot', short_name: 'hook', bot_type: 3, ...params } }),
      () => s.chat.api.users.createBot(owner.user_id, { fullName: 'Hook Bot', shortName: 'hook', botType: 3, ...input }),
      expectedFor(params),
    );
  const expectedFor = (params: Record<string, unknown>) =>
    'interface_type' in params ? bad('Invalid interface type') : bad('payload_url is not a URL');
  await create({ payload_url: JSON.stringify('javascript:alert(1)') }, { payloadUrl: 'javascript:alert(1)' });
  await create({ payload_url: JSON.stringify('') }, { payloadUrl: '' });
  await create({ interface_type: 3 }, { interfaceType: 3 });
  const notJson = await s.request('POST', '/bots', { as: owner, params: { full_name: 'Hook Bot', short_name: 'hook', bot_type: 3, payload_url: 'https://x.example.com' } });
  t.same([notJson.status, notJson.body.msg], [400, 'payload_url is not valid JSON']);
  t.equal(s.db.prepare("SELECT count(*) FROM user WHERE email LIKE 'hook-bot@%'").pluck().get(), 0, 'no bot was made');
});

t.test("PATCH /bots/{bot_id}: the service's endpoint and format; the owners get a realm_bot update; nothing changes, no event", async (t) => {
  const s = await server(t);
  const owner = await s.user('member');
  const admin = await s.user('admin');
  const bot = await outgoingBot(s, owner, 'echo', { payload_url: JSON.stringify('https://bots.example.com/echo') });
  const [token] = ((await servicesOf(s, owner, bot.user_id)) as { token: string }[]).map((service) => service.token);
  const before = await Promise.all([owner, admin].map((user) => registerState(s, user, ['realm_bot', 'realm_user'])));
  const reply = await s.request('PATCH', `/bots/${bot.user_id}`, { as: owner, params: { service_payload_url: JSON.stringify('https://bots.example.com/v2') } });
  t.same(reply.body, {
    result: 'success',
    msg: '',
    full_name: 'echo Bot',
    avatar_url: reply.body.avatar_url,
    service_interface: 1,
    service_payload_url: 'https://bots.example.com/v2',
    config_data: null,
    default_sending_stream: null,
    default_events_register_stream: null,
    default_all_public_streams: false,
    bot_owner: owner.email,
  });
  s.chat.api.users.updateBot(admin.user_id, { botId: bot.user_id, serviceInterface: 2 });
  s.chat.api.users.updateBot(admin.user_id, { botId: bot.user_id, serviceInterface: 2, servicePayloadUrl: 'https://bots.example.com/v2' });
  await s.request('PATCH', `/bots/${bot.user_id}`, { as: owner, params: { full_name: 'Echo Two' } });
  for (const [i, user] of [owner, admin].entries()) {
    const { queueId, lastEventId, state } = before[i]!;
    const events = (await s.request('GET', '/events', { as: user, params: { queue_id: queueId, last_event_id: lastEventId, dont_block: true } })).body.events as any[];
    const updates = events.filter((e) => e.type === 'realm_bot').map((e) => e.bot);
    t.same(updates, [
      { user_id: bot.user_id, services: [{ base_url: 'https://bots.example.com/v2', interface: 1, token }] },
      { user_id: bot.user_id, services: [{ base_url: 'https://bots.example.com/v2', interface: 2, token }] },
      { user_id: bot.user_id, full_name: 'Echo Two' },
    ], 'one event per change; none for the request that changed nothing');
    for (const event of events) applyUserEvent(state, event, user.user_id);
    const after = (await registerState(s, user, ['realm_bot', 'realm_user'])).state;
    t.same(byId(state.realm_bots), byId(after.realm_bots), `applying the events gives user ${user.user_id}'s state after`);
  }
});

t.test('PATCH /bots/{bot_id}: who may, and what may not be changed', async (t) => {
  const s = await server(t);
  const owner = await s.user('member');
  const other = await s.user('member');
  const bot = await outgoingBot(s, owner, 'echo');
  const patch = (as: TestUser, params: Record<string, unknown>, input: Record<string, unknown>, expected: ReturnType<typeof bad>, id = bot.user_id) =>
    bothFail(t, () => s.request('PATCH', `/bots/${id}`, { as, params }), () => s.chat.api.users.updateBot(as.user_id, { botId: id, ...input }), expected);
  await patch(other, { service_interface: 2 }, { serviceInterface: 2 }, bad('Insufficient permission'));
  await patch(owner, { service_interface: 7 }, { serviceInterface: 7 }, bad('Invalid interface type'));
  await patch(owner, { service_payload_url: JSON.stringify('nope') }, { servicePayloadUrl: 'nope' }, bad('service_payload_url is not a URL'));
  await patch(owner, { service_interface: 2 }, { serviceInterface: 2 }, bad('No such bot'), other.user_id);
  const generic = withAuth((await s.request('POST', '/bots', { as: owner, params: { full_name: 'Plain Bot', short_name: 'plain' } })).body as never);
  await patch(owner, { service_interface: 2 }, { serviceInterface: 2 }, bad('This bot has no outgoing webhook service'), generic.user_id);
  await patch(bot, { full_name: 'Me' }, { fullName: 'Me' }, bad('This endpoint does not accept bot requests.'));
  const guest = await s.user('guest');
  await patch(guest, { full_name: 'Me' }, { fullName: 'Me' }, bad('Not allowed for guest users'));
  t.match(await servicesOf(s, owner, bot.user_id), [{ base_url: '', interface: 1 }], 'nothing changed');
});

t.test("GET /bots: the caller's active bots, oldest first, as Zulip lists them", async (t) => {
  const s = await server(t);
  const owner = await s.user('member');
  const other = await s.user('member');
  const first = await outgoingBot(s, owner, 'first');
  const second = withAuth((await s.request('POST', '/bots', { as: owner, params: { full_name: 'Second Bot', short_name: 'second' } })).body as never);
  const gone = await outgoingBot(s, owner, 'gone');
  await outgoingBot(s, other, 'theirs');
  await s.request('DELETE', `/bots/${gone.user_id}`, { as: owner });
  const reply = await s.request('GET', '/bots', { as: owner });
  t.same(reply.body.bots, [
    { username: first.email, full_name: 'first Bot', api_key: first.api_key, avatar_url: reply.body.bots[0].avatar_url, default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false },
    { username: second.email, full_name: 'Second Bot', api_key: second.api_key, avatar_url: reply.body.bots[1].avatar_url, default_sending_stream: null, default_events_register_stream: null, default_all_public_streams: false },
  ]);
  t.match(reply.body.bots[0].avatar_url, /^https:\/\/secure\.gravatar\.com\/avatar\//);
  t.same(s.chat.api.users.listBots(owner.user_id), { bots: reply.body.bots }, 'in-process');
  t.same((await s.request('GET', '/bots', { as: await s.user('admin') })).body.bots, [], "an administrator's own bots only");
  await bothFail(t, () => s.request('GET', '/bots', { as: first }), () => s.chat.api.users.listBots(first.user_id), bad('This endpoint does not accept bot requests.'));
});
