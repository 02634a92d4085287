// The real zulip-js client (npm) against `parley serve` as a child process on 127.0.0.1: the seven
// operations parley started with (status, flags, linkifiers, views, drafts, alert words, push),
// /register and /events (events.retrieve, callOnEachEvent, queues.deregister), with zulip-js's own encodings (multipart POSTs, query-string PATCH and
// DELETE, JSON its callers stringify), realm URLs with and without a trailing slash, a zuliprc.
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t, { type Test } from 'tap';
import { keyParams, newPhone, sealRegistration, startBouncer, type StandInBouncer } from './bouncer.js';
import { spawnParley } from './cli_process.js';
import { callOnEachEvent, type CallOnEachEvent } from './zulip_js_events.js';

t.setTimeout(240_000);

type Zulip = Record<string, any>;
// zulip-js ships no types; a computed specifier keeps TypeScript from asking for them.
const { default: zulipInit } = (await import('zulip-js' as string)) as { default: (config: object) => Promise<Zulip> };

interface Serve {
  child: ChildProcess;
  url: string;
  email: string;
  apiKey: string;
}

/** `parley serve --port 0` on a new database: resolves with the printed owner credentials and URL. */
function serve(file: string, bouncer: StandInBouncer): Promise<Serve> {
  const args = ['serve', '--port', '0', '--db', file, '--push-bouncer-url', bouncer.url, '--push-server-id', bouncer.serverId, '--push-server-key', bouncer.serverKey];
  const child = spawnParley(args);
  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    child.stderr!.on('data', (chunk) => (stderr += chunk));
    child.stdout!.on('data', (chunk) => {
      stdout += chunk;
      const url = /^parley listening on (http:\/\/127\.0\.0\.1:\d+)$/m.exec(stdout)?.[1];
      const email = /^ {2}email: {3}(\S+)$/m.exec(stdout)?.[1];
      const apiKey = /^ {2}API key: (\S+)$/m.exec(stdout)?.[1];
      if (url && email && apiKey) resolve({ child, url, email, apiKey });
    });
    child.on('close', (code) => reject(new Error(`parley serve exited with ${code}: ${stderr}`)));
  });
}

const dir = mkdtempSync(join(tmpdir(), 'parley-zulip-js-'));
const bouncer = await startBouncer();
const server = await serve(join(dir, 'chat.db'), bouncer);
t.teardown(async () => {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
  await bouncer.close();
  rmSync(dir, { recursive: true, force: true });
});

// The owner through a zuliprc; the member logs in with a password (POST /fetch_api_key) against a
// realm URL ending in '/', so every request of theirs goes to //api/v1/....
const zuliprc = join(dir, 'zuliprc');
writeFileSync(zuliprc, `[api]\nemail=${server.email}\nkey=${server.apiKey}\nsite=${server.url}\n`);
const owner = await zulipInit({ zuliprc });
const created = await owner.users.create({ email: 'member@example.com', password: 'member-password', full_name: 'Mia Member' });
const member = await zulipInit({ username: 'member@example.com', password: 'member-password', realm: `${server.url}/` });
const memberId = created.user_id as number;
const ownerId = (await owner.users.me.getProfile()).user_id as number;

function succeeded(t: Test, reply: Zulip, label: string): Zulip {
  t.has(reply, { result: 'success', msg: '' }, label);
  return reply;
}

function failed(t: Test, reply: Zulip, code: string, msg: string): void {
  t.same(reply, { result: 'error', code, msg }, msg);
}

t.test('set-up: a zuliprc, a password login and a realm URL ending in / (//api/v1 paths) all work', async (t) => {
  t.match(created, { result: 'success', user_id: Number });
  t.equal(member.config.apiURL, `${server.url}//api/v1`);
  t.match(member.config.apiKey, /^[A-Za-z0-9]{32}$/, 'the API key came from /fetch_api_key');
  succeeded(t, await member.users.me.getProfile(), 'GET /users/me');
  t.match(await owner.server.settings(), { result: 'success', zulip_feature_level: Number });
});

t.test('POST /users/{user_id}/status: an administrator sets and clears a member\'s status', async (t) => {
  const path = `/users/${memberId}/status`;
  succeeded(t, await owner.callEndpoint(path, 'POST', { status_text: 'In a meeting', emoji_name: 'calendar' }), 'set');
  t.match(await member.callEndpoint(path, 'GET'), { result: 'success', status: { status_text: 'In a meeting', emoji_name: 'calendar', reaction_type: 'unicode_emoji' } });
  succeeded(t, await owner.callEndpoint(path, 'POST', { status_text: '', emoji_name: '' }), 'cleared');
  t.same((await member.callEndpoint(path, 'GET')).status, {});
  failed(t, await member.callEndpoint(`/users/${ownerId}/status`, 'POST', { status_text: 'Gone fishing' }), 'BAD_REQUEST', 'Insufficient permission');
  failed(t, await owner.callEndpoint(path, 'POST', { status_text: 'x'.repeat(61) }), 'BAD_REQUEST', 'status_text is too long (limit: 60 characters)');
  failed(t, await owner.callEndpoint(path, 'POST', {}), 'BAD_REQUEST', 'Client did not pass any new values.');
});

t.test('POST /messages/flags through messages.flags.add and .remove', async (t) => {
  succeeded(t, await member.users.me.subscriptions.add({ subscriptions: [{ name: 'general' }] }), 'subscribed');
  const sent = await owner.messages.send({ type: 'stream', to: 'general', topic: 'flags', content: 'Star me' });
  succeeded(t, sent, 'sent');
  t.same(await member.messages.flags.add({ flag: 'starred', messages: [sent.id] }), { result: 'success', msg: '', messages: [sent.id] });
  t.same(await member.messages.flags.add({ flag: 'read', messages: [sent.id] }), { result: 'success', msg: '', messages: [sent.id] });
  t.same(await member.messages.flags.remove({ flag: 'read', messages: [sent.id] }), {
    result: 'success',
    msg: '',
    messages: [sent.id],
    ignored_because_not_subscribed_channels: [],
  });
  const fetched = await member.messages.retrieve({ anchor: sent.id, num_before: 0, num_after: 0, narrow: [{ operator: 'channel', operand: 'general' }] });
  t.same(fetched.messages[0].flags, ['starred']);
  t.match(await member.messages.flags.add({ flag: 'mentioned', messages: [sent.id] }), { result: 'error', code: 'BAD_REQUEST' });
});

t.test('POST /realm/filters: a linkifier with reverse and alternative templates (arrays auto-JSON\'d)', async (t) => {
  const added = await owner.callEndpoint('/realm/filters', 'POST', {
    pattern: '#(?P<id>[0-9]+)',
    url_template: 'https://tracker.example.com/issue/{id}',
    example_input: '#42',
    reverse_template: '#{id}',
    alternative_url_templates: ['https://tracker.example.com/i/{id}'],
  });
  t.match(added, { result: 'success', id: Number });
  t.equal(added.msg, '');
  const listed = await member.callEndpoint('/realm/linkifiers', 'GET');
  t.match(listed.linkifiers, [{ id: added.id, pattern: '#(?P<id>[0-9]+)', reverse_template: '#{id}', alternative_url_templates: ['https://tracker.example.com/i/{id}'] }]);
  const rendered = await member.messages.render({ content: 'See #42' });
  t.match(rendered.rendered, 'href="https://tracker.example.com/issue/42"');
  t.match(await member.callEndpoint('/realm/filters', 'POST', { pattern: 'x(?P<n>[0-9]+)', url_template: 'https://x.example.com/{n}' }), {
    result: 'error',
    code: 'UNAUTHORIZED_PRINCIPAL',
    msg: 'Must be an organization administrator',
  });
});

t.test('PATCH /navigation_views/{fragment}: a percent-encoded fragment, fields in the query string', async (t) => {
  const fragment = 'narrow/channel/1-general';
  succeeded(t, await member.callEndpoint('/navigation_views', 'POST', { fragment, is_pinned: 'true', name: 'General' }), 'added');
  const path = `/navigation_views/${encodeURIComponent(fragment)}`;
  succeeded(t, await member.callEndpoint(path, 'PATCH', { is_pinned: false, name: 'All of general' }), 'updated');
  const views = await member.callEndpoint('/navigation_views', 'GET');
  t.match(views.navigation_views, [{ fragment, is_pinned: false, name: 'All of general' }]);
  failed(t, await member.callEndpoint('/navigation_views/inbox', 'PATCH', { name: 'Mine' }), 'BAD_REQUEST', 'Built-in views cannot have a custom name.');
  failed(t, await member.callEndpoint(`/navigation_views/${encodeURIComponent('narrow/is/nowhere')}`, 'PATCH', { is_pinned: true }), 'NOT_FOUND', 'Navigation view does not exist.');
});

t.test('DELETE /drafts/{draft_id}: the deletion reaches the user\'s other clients as a drafts event', async (t) => {
  const queue = await member.queues.register({ event_types: ['drafts'] });
  succeeded(t, queue, 'queue registered');
  const draft = { type: 'private', to: [ownerId], topic: '', content: 'Half a thought', timestamp: 1_700_000_000 };
  const made = await member.callEndpoint('/drafts', 'POST', { drafts: [draft] });
  t.match(made, { result: 'success', ids: [Number] });
  succeeded(t, await member.callEndpoint(`/drafts/${made.ids[0]}`, 'DELETE'), 'deleted');
  failed(t, await member.callEndpoint(`/drafts/${made.ids[0]}`, 'DELETE'), 'BAD_REQUEST', 'Draft does not exist');
  const events = await member.events.retrieve({ queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true });
  t.same(
    events.events.map(({ id: _id, ...event }: Zulip) => event),
    [{ type: 'drafts', op: 'add', drafts: [{ id: made.ids[0], ...draft }] }, { type: 'drafts', op: 'remove', draft_id: made.ids[0] }],
  );
  succeeded(t, await member.queues.deregister({ queue_id: queue.queue_id }), 'queue deleted');
});

t.test('DELETE /users/me/alert_words: a JSON list in the query string; unknown words are ignored', async (t) => {
  t.same(await member.callEndpoint('/users/me/alert_words', 'POST', { alert_words: ['deploy', 'on call', 'Outage'] }), {
    result: 'success',
    msg: '',
    alert_words: ['deploy', 'on call', 'Outage'],
  });
  t.same(await member.callEndpoint('/users/me/alert_words', 'DELETE', { alert_words: JSON.stringify(['OUTAGE', 'never added']) }), {
    result: 'success',
    msg: '',
    alert_words: ['deploy', 'on call'],
  });
  t.same(await member.users.me.alertWords.retrieve(), { result: 'success', msg: '', alert_words: ['deploy', 'on call'] });
});

t.test('POST /mobile_push/e2ee/test_notification: a registered device gets an encrypted test push', async (t) => {
  failed(t, await member.callEndpoint('/mobile_push/e2ee/test_notification', 'POST', {}), 'NO_ACTIVE_PUSH_DEVICE', 'No active registered push device');
  const queue = await member.queues.register({ event_types: ['device'] });
  const device = await member.callEndpoint('/register_client_device', 'POST', {});
  t.match(device, { result: 'success', device_id: Number });
  const phone = newPhone();
  const registration = { device_id: device.device_id, ...keyParams(bouncer, phone), token_kind: phone.kind, token_id: phone.tokenId };
  succeeded(t, await member.callEndpoint('/mobile_push/register', 'POST', {
    ...registration,
    bouncer_public_key: bouncer.publicKey,
    encrypted_push_registration: sealRegistration(bouncer, phone),
  }), 'registered');
  // The bouncer registration runs after the answer: wait for the device event that ends it.
  let lastEventId = queue.last_event_id as number;
  let active = false;
  while (!active) {
    const events = await member.events.retrieve({ queue_id: queue.queue_id, last_event_id: lastEventId, dont_block: false });
    for (const event of events.events as Zulip[]) {
      lastEventId = Math.max(lastEventId, event.id);
      if (event.type !== 'device') continue;
      t.notOk(event.push_registration_error_code, 'the bouncer accepted the registration');
      active ||= event.push_token_id === phone.tokenId || !!event.push_registration_error_code;
    }
  }
  succeeded(t, await member.callEndpoint('/mobile_push/e2ee/test_notification', 'POST', { device_id: device.device_id }), 'sent');
  t.match(bouncer.deliveries.at(-1), { token_id: phone.tokenId, push_key_id: phone.pushKeyId, payload: { type: 'test', user_id: memberId } });
  t.same(bouncer.problems, []);
  await member.queues.deregister({ queue_id: queue.queue_id });
});

t.test('callOnEachEvent: zulip-js\'s own long-poll loop receives the events of later changes', async (t) => {
  const loop: CallOnEachEvent = await callOnEachEvent({ username: 'member@example.com', apiKey: member.config.apiKey, realm: server.url }, ['message', 'alert_words']);
  t.teardown(() => loop.stop());
  await loop.registered;
  await owner.messages.send({ type: 'stream', to: 'general', topic: 'loop', content: 'Hello, loop' });
  await member.callEndpoint('/users/me/alert_words', 'POST', { alert_words: ['loop'] });
  const events = await loop.next(2);
  t.match(events, [
    { type: 'message', message: { content: 'Hello, loop', subject: 'loop' } },
    { type: 'alert_words', alert_words: ['deploy', 'on call', 'loop'] },
  ]);
});
