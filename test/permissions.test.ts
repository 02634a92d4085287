// The permission matrix over the route table (test/permission_matrix.ts): every endpoint called as
// owner, administrator, moderator, member, guest and bot, then with a deactivated account's and
// with bad credentials; and requests against other users' drafts, navigation views, devices,
// event queues and messages, which must answer as if they did not exist and leak nothing.
import t, { type Test } from 'tap';
import { allRoutes } from '../lib/routes/index.js';
import { basic, type Reply, type TestUser } from './helpers.js';
import { MATRIX, ROLES, matrixEnv, type Expected, type MatrixRequest, type Role } from './permission_matrix.js';
import { activeDevice, pushWorld } from './push_helpers.js';
import { IMAGES, uploadEmoji } from './user_status_helpers.js';
import { pngEverywhere } from './image_host.js';

// The image proxy's host is a stand-in that always has the image.
// Email goes to a sink (the account routes send some); the public pages' per-client-address limit
// is off, since every request of the matrix comes from one address.
const { s, bouncer } = await pushWorld(t, {
  push: { retryDelaysMs: [1] },
  chat: { imageProxy: { fetch: pngEverywhere }, email: { send: async () => undefined }, accounts: { emailsPerClientAddressPerDay: 0 } },
});
const env = await matrixEnv(s, bouncer, 'permissions');
const deactivated = await s.user('member');
s.chat.admin.deactivateUser(deactivated.user_id);
const badCredentials = { auth: basic(deactivated.email.replace('member', 'nobody'), 'k'.repeat(32)) } as TestUser;

async function send(method: string, route: { outsideApi?: boolean }, as: TestUser, request: MatrixRequest): Promise<Reply> {
  if (request.upload && request.path === '/user_uploads') {
    const form = new FormData();
    form.append('file', new Blob([IMAGES.png]), 'e.png');
    const response = await fetch(`${s.url}/api/v1/user_uploads`, { method, headers: { authorization: as.auth }, body: form });
    return { status: response.status, body: (await response.json()) as Record<string, any>, headers: response.headers };
  }
  if (request.upload) return uploadEmoji(s, as, request.path.slice('/realm/emoji/'.length), [{ filename: 'e.png', data: IMAGES.png }]);
  if (route.outsideApi) {
    const response = await fetch(s.url + request.path, { method, headers: { authorization: as.auth } });
    return { status: response.status, body: response.headers.get('content-type')?.startsWith('application/json') ? ((await response.json()) as Record<string, any>) : {}, headers: response.headers };
  }
  return s.request(method, request.path, { as, params: request.params });
}

function check(t: Test, reply: Reply, expected: Expected, who: string): void {
  if (expected === 'ok') {
    t.equal(reply.status, 200, `${who}: 200 (${JSON.stringify(reply.body).slice(0, 200)})`);
    if (reply.body.result !== undefined) t.equal(reply.body.result, 'success', `${who}: success`);
    return;
  }
  const { status, ...body } = expected;
  t.equal(reply.status, status, `${who}: ${status}`);
  t.same(reply.body, { result: 'error', ...body }, `${who}: ${body.code} ${body.msg}`);
}

const caller = (role: Role): Promise<TestUser> => (role === 'bot' ? s.user('member', { bot: true }) : s.user(role));

for (const route of allRoutes) {
  const key = `${route.method} ${route.path}`;
  t.test(key, async (t) => {
    const entry = MATRIX[key];
    if (!entry) {
      t.fail(
        `${key} has no permission-matrix entry: add '${key}' to MATRIX in test/permission_matrix.ts, with a request and ` +
          `the answer of each of ${ROLES.join(', ')} (Zulip's decorators and parley's documented rules)`,
      );
      return;
    }
    for (const role of ROLES) {
      const as = await caller(role);
      check(t, await send(route.method, route, as, await entry.request(env, as, role)), entry.expect[role], role);
    }
    // Credentials that do not open an account: only the endpoints without authentication answer.
    const request = await entry.request(env, await s.user('member'), 'member');
    const deactivatedAnswer: Expected = route.access === 'public' ? entry.expect.member : { status: 401, code: 'UNAUTHORIZED', msg: 'Account is deactivated' };
    check(t, await send(route.method, route, deactivated, request), deactivatedAnswer, 'deactivated');
    const badAnswer: Expected = route.access === 'public' ? entry.expect.member : { status: 401, code: 'UNAUTHORIZED', msg: 'Invalid API key' };
    check(t, await send(route.method, route, badCredentials, await entry.request(env, await s.user('member'), 'member')), badAnswer, 'bad credentials');
  });
}

t.test('the matrix has no entry for a route that does not exist', async (t) => {
  const keys = new Set(allRoutes.map((route) => `${route.method} ${route.path}`));
  t.same(Object.keys(MATRIX).filter((key) => !keys.has(key)), []);
});

/** Another user's object: the answer is the one for an object that does not exist, with nothing of it in it. */
t.test("other users' objects answer as if they did not exist, leak nothing and stay unchanged", async (t) => {
  const owner = await s.user('member');
  const intruders: [string, TestUser][] = [
    ['member', await s.user('member')],
    ['administrator', await s.user('admin')],
    ['owner', await s.user('owner')],
  ];
  const draftId = s.chat.api.drafts.create(owner.user_id, { drafts: [{ type: '', to: [], topic: '', content: 'secret draft' }] }).ids[0]!;
  s.chat.api.navigationViews.create(owner.user_id, { fragment: 'narrow/private/view', isPinned: true, name: 'Secret view' });
  const queue = (await s.request('POST', '/register', { as: owner, params: { event_types: ['drafts'] } })).body;
  const { deviceId } = await activeDevice(s, owner, bouncer);
  const message = s.chat.api.messages.send(owner.user_id, { type: 'direct', to: [s.owner.user_id], content: 'secret message' }).id;
  const post = s.chat.api.messages.send(owner.user_id, { type: 'stream', to: 'permissions', topic: 'mine', content: 'my post' }).id;
  const delivered = bouncer.deliveries.length;

  const noDraft = { status: 404, code: 'BAD_REQUEST', msg: 'Draft does not exist' };
  const noView = { status: 404, code: 'NOT_FOUND', msg: 'Navigation view does not exist.' };
  const noQueue = { status: 400, code: 'BAD_EVENT_QUEUE_ID', msg: `Bad event queue ID: ${queue.queue_id}`, queue_id: queue.queue_id };
  for (const [who, as] of intruders) {
    const asked = async (method: string, path: string, params?: Record<string, unknown>) => s.request(method, path, { as, params });
    check(t, await asked('PATCH', `/drafts/${draftId}`, { draft: { type: '', to: [], topic: '', content: 'overwritten' } }), noDraft, `${who} edits the draft`);
    check(t, await asked('DELETE', `/drafts/${draftId}`), noDraft, `${who} deletes the draft`);
    check(t, await asked('PATCH', '/navigation_views/narrow/private/view', { is_pinned: false }), noView, `${who} updates the view`);
    check(t, await asked('DELETE', '/navigation_views/narrow/private/view'), noView, `${who} deletes the view`);
    check(t, await asked('GET', '/events', { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true }), noQueue, `${who} reads the queue`);
    check(t, await asked('DELETE', '/events', { queue_id: queue.queue_id }), noQueue, `${who} deletes the queue`);
    check(
      t,
      await asked('POST', '/mobile_push/e2ee/test_notification', { device_id: deviceId }),
      { status: 400, code: 'NO_ACTIVE_PUSH_DEVICE', msg: 'No active registered push device' },
      `${who} notifies the device`,
    );
    check(
      t,
      await asked('POST', '/mobile_push/register', { device_id: deviceId, push_key: Buffer.alloc(33, 0x31).toString('base64'), push_key_id: 9 }),
      { status: 400, code: 'BAD_REQUEST', msg: 'Invalid `device_id`' },
      `${who} re-keys the device`,
    );
    // A direct message they did not receive does not exist for them; a channel post is not theirs to edit.
    check(t, await asked('PATCH', `/messages/${message}`, { content: 'rewritten' }), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' }, `${who} edits the direct message`);
    check(t, await asked('GET', `/messages/${message}`), { status: 400, code: 'BAD_REQUEST', msg: 'Invalid message(s)' }, `${who} reads the direct message`);
    check(t, await asked('PATCH', `/messages/${post}`, { content: 'rewritten' }), { status: 400, code: 'BAD_REQUEST', msg: "You don't have permission to edit this message" }, `${who} edits the post`);
  }

  t.equal(bouncer.deliveries.length, delivered, 'no notification reached the device');
  t.same(s.chat.api.drafts.list(owner.user_id).drafts.map((d) => [d.id, d.content]), [[draftId, 'secret draft']], 'the draft is unchanged');
  t.same(s.chat.api.navigationViews.list(owner.user_id).navigation_views, [{ fragment: 'narrow/private/view', is_pinned: true, name: 'Secret view' }], 'the view is unchanged');
  const events = await s.request('GET', '/events', { as: owner, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true } });
  t.equal(events.status, 200, 'the queue still works for its owner');
  for (const [id, content] of [[message, 'secret message'], [post, 'my post']] as const) {
    t.equal(s.chat.api.messages.get(owner.user_id, { messageId: id, applyMarkdown: false }).message.content, content, 'the message is unchanged');
  }
  const mine = await s.request('POST', '/mobile_push/e2ee/test_notification', { as: owner, params: { device_id: deviceId } });
  t.equal(mine.status, 200, 'the device still works for its owner');
});
