// The zulipDev fixture: the users, channels and subscriptions of the realm Zulip's API examples run
// against (Zulip's populate_db --test-suite), and requests of those examples, with their
// hard-coded ids and addresses, answered over HTTP as Zulip answers them.
import t from 'tap';
import { createTestChat, zulipDev } from '../lib/testing/index.js';

const chat = await createTestChat(zulipDev);
t.teardown(() => chat.close());
const { iago, hamlet } = chat.users;
const { url } = await chat.listen();

/** A request as python-zulip-api's call_endpoint makes it: form-encoded, JSON for non-strings. */
async function call(method: string, path: string, params: Record<string, unknown> = {}, as = iago): Promise<{ status: number; body: Record<string, any> }> {
  const form = new URLSearchParams(Object.entries(params).map(([k, v]): [string, string] => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
  const query = method === 'GET' && Object.keys(params).length > 0 ? `?${form}` : '';
  const response = await fetch(`${url}/api/v1${path}${query}`, {
    method,
    headers: { authorization: 'Basic ' + Buffer.from(`${as.email}:${as.api_key}`).toString('base64'), 'content-type': 'application/x-www-form-urlencoded' },
    ...(method === 'GET' ? {} : { body: form.toString() }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, any> };
}

t.test("the users: Zulip's ids, emails, full names, roles, time zones and bots", async (t) => {
  const { members } = (await call('GET', '/users')).body;
  const rows = members.map((m: any) => [m.user_id, m.email, m.full_name, m.role, m.timezone, m.is_bot ? m.bot_type : null, m.bot_owner_id ?? null]);
  t.same(rows, [
    [6, 'AARON@zulip.com', 'aaron', 400, 'US/Pacific', null, null],
    [7, 'ZOE@zulip.com', 'Zoe', 400, 'US/Eastern', null, null],
    [8, 'cordelia@zulip.com', "Cordelia, Lear's daughter", 400, 'UTC', null, null],
    [9, 'desdemona@zulip.com', 'Desdemona', 100, 'Canada/Newfoundland', null, null],
    [10, 'hamlet@zulip.com', 'King Hamlet', 400, '', null, null],
    [11, 'iago@zulip.com', 'Iago', 200, 'US/Eastern', null, null],
    [12, 'othello@zulip.com', 'Othello, the Moor of Venice', 400, 'US/Pacific', null, null],
    [13, 'polonius@zulip.com', 'Polonius', 600, 'Asia/Shanghai', null, null],
    [14, 'prospero@zulip.com', 'Prospero from The Tempest', 400, '', null, null],
    [15, 'shiva@zulip.com', 'शिव', 300, 'Asia/Kolkata', null, null],
    [16, 'default-bot@zulip.com', 'Zulip Default Bot', 400, '', 1, 9],
    [17, 'webhook-bot@zulip.com', 'Zulip Webhook Bot', 400, '', 2, 7],
  ]);
  t.same(Object.values(chat.users).map((u) => u.user_id).sort((a, b) => a - b), [6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17]);
  t.equal(chat.db.prepare('SELECT count(*) FROM event').pluck().get(), 1, 'the events of building it were dropped');
  t.match((await call('GET', '/server_settings')).body, { realm_name: 'Zulip Dev', realm_url: 'http://zulip.testserver' });
});

t.test("the channels in Zulip's order, and each user's subscriptions as Zulip's test database has them", async (t) => {
  const { streams } = (await call('GET', '/streams', { include_all: true })).body;
  t.same(
    streams.map((s: any) => [s.stream_id, s.name, s.description, s.invite_only]).sort((a: number[], b: number[]) => a[0]! - b[0]!),
    [
      [1, 'Zulip', 'Questions and discussion about using Zulip.', false],
      [2, 'sandbox', 'Experiment with Zulip here. :test_tube:', false],
      [3, 'Verona', 'A city in Italy', false],
      [4, 'Denmark', 'A Scandinavian country', false],
      [5, 'Scotland', 'Located in the United Kingdom', false],
      [6, 'Venice', 'A northeastern Italian city', false],
      [7, 'Rome', 'Yet another Italian city', false],
      [8, 'core team', 'A private channel for core team members', true],
    ],
  );
  const expected: Record<string, string[]> = {
    aaron: ['Verona'],
    cordelia: ['Verona'],
    hamlet: ['Verona', 'Denmark', 'core team', 'Zulip', 'sandbox'],
    iago: ['Verona', 'Denmark', 'Scotland', 'core team', 'Zulip', 'sandbox'],
    othello: ['Verona', 'Denmark', 'Scotland'],
    prospero: ['Verona', 'Denmark', 'Scotland', 'Venice'],
    zoe: ['Verona', 'Denmark', 'Scotland', 'Venice', 'Rome'],
    polonius: ['Verona'],
    desdemona: ['Verona', 'Denmark', 'Venice', 'core team', 'Zulip', 'sandbox'],
    shiva: ['Verona', 'Denmark', 'Scotland'],
  };
  for (const [key, names] of Object.entries(expected)) {
    const { subscriptions } = (await call('GET', '/users/me/subscriptions', {}, chat.users[key as keyof typeof chat.users])).body;
    t.same(subscriptions.map((s: any) => s.name).sort(), [...names].sort(), key);
  }
  t.same((await call('GET', '/default_streams')).body.default_streams.sort(), [1, 2, 3]);
});

t.test("Zulip's extras: the hamletcharacters group, Iago's drafts (as parley's API stores them), the linkifiers, everything read", async (t) => {
  const groups = (await call('GET', '/user_groups')).body.user_groups;
  t.match(groups.find((g: any) => g.name === 'hamletcharacters'), { description: 'Characters of Hamlet', members: [8, 10] });
  // populate_db writes the rows directly; through the API a draft without a recipient keeps no
  // topic and its content is trimmed.
  t.same((await call('GET', '/drafts')).body.drafts.map((d: any) => [d.type, d.topic, d.content]), [
    ['', '', 'Release 4.0 will contain ...'],
    ['', '', 'Release 4.0 will contain many new features such as ...'],
  ]);
  t.same((await call('GET', '/realm/linkifiers')).body.linkifiers.map((l: any) => l.pattern), [
    '#D(?P<id>[0-9]{2,8})',
    'zulip-mobile#(?P<id>[0-9]{2,8})',
    'zulip-(?P<repo>[a-zA-Z-_0-9]+)#(?P<id>[0-9]{2,8})',
  ]);
  for (const user of [iago, hamlet, chat.users.zoe]) {
    const unread = (await call('POST', '/register', { fetch_event_types: ['message', 'update_message_flags'] }, user)).body.unread_msgs;
    t.equal(unread.count, 0, `${user.key} has read every message`);
  }
  const hamletsMessages = (await call('GET', '/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'sender', operand: 10 }] })).body.messages;
  t.ok(hamletsMessages.length > 0, 'Hamlet has sent messages (Zulip\'s report example reports one)');
});

t.test("requests of Zulip's API examples, with their hard-coded ids and addresses, succeed", async (t) => {
  const ok = async (label: string, reply: Promise<{ status: number; body: Record<string, any> }>) => {
    const { status, body } = await reply;
    t.equal(status, 200, `${label}: ${JSON.stringify(body).slice(0, 200)}`);
    return body;
  };
  t.equal((await ok('get_single_user', call('GET', '/users/8'))).user.full_name, "Cordelia, Lear's daughter");
  t.equal((await ok('get_user_by_email', call('GET', '/users/iago@zulip.com'))).user.user_id, 11);
  t.same(await ok('get_subscription_status', call('GET', '/users/7/subscriptions/4')), { result: 'success', msg: '', is_subscribed: true });
  await ok('update_presence', call('POST', '/users/me/presence', { status: 'active', ping_only: false, new_user_input: false, last_update_id: -1 }));
  await ok('get_user_presence', call('GET', '/users/iago@zulip.com/presence'));
  await ok('update_user', call('PATCH', '/users/10', { full_name: 'New Name' }));
  const sent = await ok('send_message', call('POST', '/messages', { type: 'stream', to: 'Denmark', topic: 'Castle', content: 'I come not, friends, to steal away your hearts.' }));
  t.equal((await ok('validate_message', call('GET', `/messages/${sent.id}`))).raw_content, 'I come not, friends, to steal away your hearts.');
  await ok('send direct message', call('POST', '/messages', { type: 'private', to: [10], content: 'With mirth and laughter let old wrinkles come.' }));
  await ok('get_messages', call('GET', '/messages', { anchor: 'newest', num_before: 100, num_after: 0, narrow: [{ operator: 'sender', operand: 'iago@zulip.com' }, { operator: 'channel', operand: 'Verona' }] }));
  await ok('set_typing_status', call('POST', '/typing', { op: 'start', to: [10, 11] }));
  await ok('add_user_mute', call('POST', '/users/me/muted_users/10'));
  await ok('remove_user_mute', call('DELETE', '/users/me/muted_users/10'));
  await ok('update_user_topic', call('POST', '/user_topics', { stream_id: 4, topic: 'dinner', visibility_policy: 1 }));
  await ok('add_subscriptions', call('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'python-test', description: 'Channel for testing Python' }] }));
  // Zulip's example creates newbie with the password "temp", which Zulip's development settings
  // accept; parley refuses it as too weak, as a production Zulip server does.
  t.match(await call('POST', '/users', { email: 'newbie@zulip.com', password: 'temp', full_name: 'New User' }), { status: 400, body: { msg: 'The password is too weak.' } });
  const created = await ok('create_user', call('POST', '/users', { email: 'newbie@zulip.com', password: 'a longer passphrase, 42 times', full_name: 'New User' }));
  await ok('add_subscriptions with principals', call('POST', '/users/me/subscriptions', { subscriptions: [{ name: 'python-test' }], principals: [created.user_id] }));
  const members = (await ok('get_members', call('GET', '/users'))).members.filter((m: any) => m.email === 'newbie@zulip.com');
  t.match(members, [{ full_name: 'New User', is_admin: false }], 'the example finds newbie by email');
  const streamId = (await ok('get_stream_id', call('GET', '/get_stream_id', { stream: 'python-test' }))).stream_id;
  t.same((await ok('get_subscribers', call('GET', `/streams/${streamId}/members`))).subscribers, [11, created.user_id]);
  t.equal(created.user_id, 18, "newbie gets the next id, 18 (Zulip's test database has more users and gives 25)");
  const queue = await ok('register_queue', call('POST', '/register', { event_types: ['message', 'realm_emoji'] }));
  await ok('get_queue', call('GET', '/events', { queue_id: queue.queue_id, last_event_id: -1, dont_block: true }));
  await ok('deregister_queue', call('DELETE', '/events', { queue_id: queue.queue_id }));
  const again = await call('DELETE', '/events', { queue_id: queue.queue_id });
  t.match(again, { status: 400, body: { code: 'BAD_EVENT_QUEUE_ID' } });
});
