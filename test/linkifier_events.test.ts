// The realm_linkifiers event: its schema, every change sending the
// full ordered list to every user, applying the events to the registered state equals a refetch,
// and the linkifier_url_template client capability gating both the state and the events.
import t, { type Test } from 'tap';
import { z } from 'zod';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { linkifiersEventSchema, type Linkifier } from './linkifier_schemas.js';

const eventSchema = linkifiersEventSchema;

const CAPABLE = { linkifier_url_template: true };

const s: TestServer = await startServer({ file: false });
t.teardown(() => s.close());
const member: TestUser = await s.user('member');

interface Registered {
  queue_id: string;
  last_event_id: number;
  realm_linkifiers: Linkifier[];
  realm_filters?: unknown[];
}

async function register(user: TestUser, params: Record<string, unknown> = {}): Promise<Registered> {
  return (await s.request('POST', '/register', { as: user, params: { event_types: ['realm_linkifiers'], client_capabilities: CAPABLE, ...params } })).body as Registered;
}

async function poll(user: TestUser, queue: Registered): Promise<Record<string, unknown>[]> {
  const reply = await s.request('GET', '/events', { as: user, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true } });
  return reply.body.events;
}

function reset(_t: Test): void {
  s.db.exec('DELETE FROM linkifier');
}

const api = s.chat.api.linkifiers;
const owner = s.owner.user_id;

t.test('POST /register: realm_linkifiers for clients with linkifier_url_template, [] otherwise; realm_filters always []', async (t) => {
  reset(t);
  api.add(owner, { pattern: '#(?P<id>[0-9]+)', urlTemplate: 'https://a/{id}' });
  const listed = (await s.request('GET', '/realm/linkifiers', { as: member })).body.linkifiers;
  const capable = await register(member, { fetch_event_types: ['realm_linkifiers', 'realm_filters'] });
  t.same(capable.realm_linkifiers, listed);
  t.same(capable.realm_filters, []);
  t.same((await register(member, { client_capabilities: {} })).realm_linkifiers, []);
  t.same((await register(member, { client_capabilities: { linkifier_url_template: false } })).realm_linkifiers, []);
  t.same((await register(member, { client_capabilities: { linkifier_url_template: 'yes' } })).realm_linkifiers, []);
});

t.test('every change sends the full ordered list to every user; applied to the registered state it equals a refetch', async (t) => {
  reset(t);
  const a = api.add(owner, { pattern: 'A-(?P<id>[0-9]+)', urlTemplate: 'https://a/{id}' }).id;
  const queues = [await register(s.owner), await register(member)] as const;
  let state: Linkifier[] = queues[1].realm_linkifiers;

  const b = api.add(owner, { pattern: 'B-(?P<id>[0-9]+)', urlTemplate: 'https://b/{id}', exampleInput: 'B-1', reverseTemplate: 'B-{id}' }).id;
  api.update(owner, { filterId: a, pattern: 'A-(?P<id>[0-9]+)', urlTemplate: 'https://a2/{id}', alternativeUrlTemplates: ['https://alt/{id}'] });
  api.reorder(owner, { orderedLinkifierIds: [b, a] });
  api.reorder(owner, { orderedLinkifierIds: [b, a] });
  api.remove(owner, { filterId: b });

  const ownerEvents = await poll(s.owner, queues[0]);
  const events = await poll(member, queues[1]);
  t.equal(events.length, 5, 'one event per change, an unchanged order included');
  t.same(events, ownerEvents, 'the same events for every user');
  for (const event of events) {
    const parsed = eventSchema.safeParse(event);
    t.ok(parsed.success, parsed.success ? 'realm_linkifiers event schema' : JSON.stringify(parsed.error.issues));
    state = (event as z.infer<typeof eventSchema>).realm_linkifiers;
  }
  t.same((events[2] as z.infer<typeof eventSchema>).realm_linkifiers.map((l) => l.id), [b, a], 'the list is in the new order');
  t.same(state, (await register(member)).realm_linkifiers, 'applied events equal a fresh /register');
});

t.test('no event for a failed change or an empty reorder with no linkifiers', async (t) => {
  reset(t);
  const queue = await register(member);
  const failed = await s.request('POST', '/realm/filters', { as: s.owner, params: { pattern: '(', url_template: 'x' } });
  t.equal(failed.status, 400);
  t.equal((await s.request('PATCH', '/realm/linkifiers', { as: s.owner, params: { ordered_linkifier_ids: [] } })).status, 200);
  t.equal((await s.request('DELETE', '/realm/filters/999999', { as: s.owner })).status, 400);
  t.same(await poll(member, queue), []);
});

t.test('clients without the linkifier_url_template capability get no realm_linkifiers events', async (t) => {
  reset(t);
  const without = await register(member, { client_capabilities: {}, event_types: null });
  const narrow = await register(member, { client_capabilities: {} });
  const capable = await register(member, { event_types: null });
  api.add(owner, { pattern: 'Z-(?P<id>[0-9]+)', urlTemplate: 'https://z/{id}' });
  t.same((await poll(member, without)).filter((e) => e.type === 'realm_linkifiers'), []);
  t.same(await poll(member, narrow), []);
  t.same((await poll(member, capable)).map((e) => e.type), ['realm_linkifiers']);
});
