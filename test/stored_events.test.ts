// The stored-event check every test server runs when it closes (test/stored_events.ts): the events
// of drafts, navigation views and devices are exactly as their schemas say, and a wrong event (an
// extra field, however deep, a missing one, an unknown type) fails it, naming its type.
import t from 'tap';
import { z } from 'zod';
import { queueEventSchemas } from '../lib/domain/queue_dicts.js';
import { startServer, type TestServer } from './helpers.js';
import { storedEventFailures } from './stored_events.js';

const s: TestServer = await startServer();
t.teardown(() => s.close());

/** This area's events only: the full union still admits undescribed events. */
const areaSchema = z.union(queueEventSchemas);
const AREA_TYPES = new Set(['drafts', 'navigation_view', 'device', 'attachment']);

function storeEvent(server: TestServer, type: string, payload: unknown): number {
  const info = server.db.prepare('INSERT INTO event (user_id, type, payload, created_at) VALUES (?, ?, ?, ?)').run(server.owner.user_id, type, JSON.stringify(payload), 0);
  return Number(info.lastInsertRowid);
}

const draft = { type: 'stream', to: [], topic: 'a', content: 'text' };

t.test("the area's real events are exactly as their schemas say", async (t) => {
  const created = await s.request('POST', '/drafts', { as: s.owner, params: { drafts: [{ type: '', to: [], topic: '', content: 'hello' }] } });
  t.equal(created.status, 200);
  const id = created.body.ids[0] as number;
  t.equal((await s.request('PATCH', `/drafts/${id}`, { as: s.owner, params: { draft: { type: 'private', to: [s.owner.user_id], topic: '', content: 'edited' } } })).status, 200);
  t.equal((await s.request('DELETE', `/drafts/${id}`, { as: s.owner })).status, 200);
  t.equal((await s.request('POST', '/navigation_views', { as: s.owner, params: { fragment: 'narrow/is/alerted', is_pinned: true, name: 'Alerts' } })).status, 200);
  t.equal((await s.request('PATCH', '/navigation_views/narrow/is/alerted', { as: s.owner, params: { is_pinned: false } })).status, 200);
  t.equal((await s.request('DELETE', '/navigation_views/narrow/is/alerted', { as: s.owner })).status, 200);
  t.equal((await s.request('POST', '/register_client_device', { as: s.owner })).status, 200);
  const types = new Set((s.db.prepare('SELECT type FROM event').all() as { type: string }[]).map((row) => row.type));
  t.ok(types.has('drafts') && types.has('navigation_view') && types.has('device'), 'the events were stored');
  t.same(storedEventFailures(s.db, areaSchema).filter((f) => AREA_TYPES.has(f.type)), [], 'no failures');
});

t.test('a wrong event fails the check, named by its id, type and op', async (t) => {
  const wrong = [
    storeEvent(s, 'drafts', { type: 'drafts', op: 'remove', draft_id: 1, extra: true }),
    storeEvent(s, 'drafts', { type: 'drafts', op: 'update', draft: { ...draft, id: 1, timestamp: 1, deep_extra: 1 } }),
    storeEvent(s, 'navigation_view', { type: 'navigation_view', op: 'add', navigation_view: { fragment: 'inbox', is_pinned: true } }),
    storeEvent(s, 'no_such_event', { type: 'no_such_event' }),
  ];
  const right = storeEvent(s, 'drafts', { type: 'drafts', op: 'update', draft: { ...draft, id: 1, timestamp: 1 } });
  const failures = storedEventFailures(s.db, areaSchema).filter((f) => f.id >= wrong[0]!);
  t.same(failures.map((f) => f.id), wrong, 'each wrong event, and not the right one');
  t.notOk(failures.some((f) => f.id === right));
  t.match(failures[0]!.message, /^event \d+ \(drafts op remove\): .*extra/);
  t.match(failures[1]!.message, /^event \d+ \(drafts op update\): .*deep_extra.*draft/);
  t.match(failures[2]!.message, /^event \d+ \(navigation_view op add\): .*navigation_view\.name/);
  t.match(failures[3]!.message, /^event \d+ \(no_such_event\): no schema describes this type and op$/);
  for (const id of [...wrong, right]) s.db.prepare('DELETE FROM event WHERE id = ?').run(id);
});

t.test("closing a server fails the closing test when a stored event is not as zulipEventSchema says", async (t) => {
  const other = await startServer({ file: false });
  storeEvent(other, 'drafts', { op: 'remove', draft_id: 1 });
  await t.rejects(other.close(), /stored events not as lib\/domain\/event_types\.ts says:\nevent \d+ \(drafts op remove\)/);
});
