// Drafts: PATCH and DELETE
// /drafts/{draft_id}, the drafts-sync gate, drafts events to the owner's queues, the register state.
import t from 'tap';
import {
  NOW,
  NO_DRAFT,
  SYNC_OFF,
  bad,
  create,
  createOk,
  draftServer,
  eventSchema,
  fetchDrafts,
  isError,
  streamDraft,
  throwsApiError,
  type Draft,
} from './drafts_helpers.js';

const setup = draftServer(t);

t.test('PATCH /drafts/{draft_id} replaces the draft whole', async (t) => {
  const { s, member, other, general } = await setup(t);
  const [id] = await createOk(t, s, member, [streamDraft([general], { timestamp: 1000 })]);
  const reply = await s.request('PATCH', `/drafts/${id}`, { as: member, params: { draft: { type: 'private', to: [other.user_id], topic: 'x', content: 'DM now' } } });
  t.same(reply.body, { result: 'success', msg: '' });
  t.same(await fetchDrafts(s, member), [{ id, type: 'private', to: [other.user_id], topic: '', content: 'DM now', timestamp: NOW }]);
  t.same(s.chat.api.drafts.edit(member.user_id, { draftId: id!, draft: { type: '', to: [], topic: '', content: 'plain', timestamp: 5 } }), {});
  t.same(await fetchDrafts(s, member), [{ id, type: '', to: [], topic: '', content: 'plain', timestamp: 5 }]);
});

t.test('PATCH: the draft goes in the query string (zulip-js) or a multipart body too', async (t) => {
  const { s, member, general } = await setup(t);
  const [id] = await createOk(t, s, member, [streamDraft([general])]);
  const query = await s.request('PATCH', `/drafts/${id}`, { as: member, encoding: 'query', params: { draft: streamDraft([general], { content: 'from the query' }) } });
  t.same(query.body, { result: 'success', msg: '' });
  const multipart = await s.request('PATCH', `/drafts/${id}`, { as: member, encoding: 'multipart', params: { draft: streamDraft([general], { content: 'multipart' }), extra: 1 } });
  t.same(multipart.body, { result: 'success', msg: '', ignored_parameters_unsupported: ['extra'] });
  t.equal((await fetchDrafts(s, member))[0]!.content, 'multipart');
});

t.test('PATCH: a missing draft, or another user\'s, is "Draft does not exist" with HTTP 404', async (t) => {
  const { s, member, other, general } = await setup(t);
  const [theirs] = await createOk(t, s, other, [{ type: '', to: [], topic: '', content: 'theirs' }]);
  isError(t, await s.request('PATCH', '/drafts/9999', { as: member, params: { draft: streamDraft([general]) } }), NO_DRAFT);
  isError(t, await s.request('PATCH', `/drafts/${theirs}`, { as: member, params: { draft: streamDraft([general]) } }), NO_DRAFT);
  await throwsApiError(t, () => s.chat.api.drafts.edit(member.user_id, { draftId: theirs!, draft: streamDraft([general]) as never }), NO_DRAFT);
  t.equal((await fetchDrafts(s, other))[0]!.content, 'theirs');
});

t.test('PATCH check order: parameters, then existence, then the draft\'s further validation', async (t) => {
  const { s, member, general } = await setup(t);
  const [id] = await createOk(t, s, member, [streamDraft([general])]);
  isError(t, await s.request('PATCH', '/drafts/9999', { as: member, params: { draft: { ...streamDraft([general]), x: 1 } } }), bad('Argument "x" at draft is unexpected'));
  isError(t, await s.request('PATCH', '/drafts/9999', { as: member, params: { draft: streamDraft([424242]) } }), NO_DRAFT);
  isError(t, await s.request('PATCH', `/drafts/${id}`, { as: member, params: { draft: streamDraft([424242]) } }), bad('Invalid channel ID'));
  isError(t, await s.request('PATCH', `/drafts/${id}`, { as: member, params: { draft: { ...streamDraft([general]), content: '' } } }), bad('draft["content"] cannot be blank'));
  isError(t, await s.request('PATCH', `/drafts/${id}`, { as: member }), { status: 400, code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'draft' argument" });
  t.equal((await fetchDrafts(s, member))[0]!.content, 'Hello', 'unchanged');
  t.equal((await s.request('PATCH', '/drafts/abc', { as: member, params: { draft: streamDraft([general]) } })).status, 404, 'a non-integer id matches no route');
});

t.test('DELETE /drafts/{draft_id} deletes the draft', async (t) => {
  const { s, member, general } = await setup(t);
  const [a, b] = await createOk(t, s, member, [streamDraft([general]), streamDraft([general])]);
  t.same((await s.request('DELETE', `/drafts/${a}`, { as: member })).body, { result: 'success', msg: '' });
  t.same(s.chat.api.drafts.delete(member.user_id, { draftId: b! }), {});
  t.same(await fetchDrafts(s, member), []);
});

t.test('DELETE: a missing draft, or another user\'s, is "Draft does not exist" (BAD_REQUEST, HTTP 404)', async (t) => {
  const { s, member, other } = await setup(t);
  const [theirs] = await createOk(t, s, other, [{ type: '', to: [], topic: '', content: 'theirs' }]);
  isError(t, await s.request('DELETE', '/drafts/9999', { as: member }), NO_DRAFT);
  isError(t, await s.request('DELETE', `/drafts/${theirs}`, { as: member, encoding: 'query', params: { note: 'x' } }), NO_DRAFT);
  await throwsApiError(t, () => s.chat.api.drafts.delete(member.user_id, { draftId: theirs! }), NO_DRAFT);
  await throwsApiError(t, () => s.chat.api.drafts.delete(member.user_id, { draftId: 9999 }), NO_DRAFT);
  t.equal((await fetchDrafts(s, other)).length, 1);
});

t.test("adding, editing and deleting a draft reach every one of the user's registered clients and none of another user's", async (t) => {
  const { s, member, other, general } = await setup(t);
  const phone = (await s.request('POST', '/register', { as: member, params: { event_types: ['drafts'] } })).body;
  const laptop = (await s.request('POST', '/register', { as: member })).body;
  const stranger = (await s.request('POST', '/register', { as: other, params: { event_types: ['drafts'] } })).body;
  const withoutIds = (events: Record<string, unknown>[]) => events.map(({ id: _id, ...e }) => e);
  const waiting = s.request('GET', '/events', { as: member, params: { queue_id: phone.queue_id, last_event_id: phone.last_event_id } });
  const [id] = await createOk(t, s, member, [streamDraft([general], { content: 'new' })]);
  const [added] = await fetchDrafts(s, member);
  const pushed = await waiting;
  t.same(withoutIds(pushed.body.events), [{ type: 'drafts', op: 'add', drafts: [added] }], 'a waiting long-poll is woken by the add');
  const patched = await s.request('PATCH', `/drafts/${id}`, { as: member, params: { draft: streamDraft([general], { content: 'edited' }) } });
  t.equal(patched.status, 200, 'edited');
  const [updated] = await fetchDrafts(s, member);
  t.equal((await s.request('DELETE', `/drafts/${id}`, { as: member })).status, 200, 'deleted');
  const expected = [
    { type: 'drafts', op: 'add', drafts: [added] },
    { type: 'drafts', op: 'update', draft: updated },
    { type: 'drafts', op: 'remove', draft_id: id },
  ];
  const lastPushed = pushed.body.events.at(-1).id;
  const phoneRest = await s.request('GET', '/events', { as: member, params: { queue_id: phone.queue_id, last_event_id: lastPushed, dont_block: true } });
  t.same(withoutIds(phoneRest.body.events), expected.slice(1), 'the phone then gets the update and the remove');
  const polled = await s.request('GET', '/events', { as: member, params: { queue_id: laptop.queue_id, last_event_id: laptop.last_event_id, dont_block: true } });
  t.same(withoutIds(polled.body.events), expected, 'the second queue gets all three');
  for (const event of [...pushed.body.events, ...phoneRest.body.events, ...polled.body.events]) {
    t.ok(eventSchema.safeParse(event).success, `${event.op} event schema`);
  }
  const none = await s.request('GET', '/events', { as: other, params: { queue_id: stranger.queue_id, last_event_id: stranger.last_event_id, dont_block: true } });
  t.same(none.body.events, [], "another user's queue gets nothing");
});

t.test('with enable_drafts_synchronization off every draft endpoint is refused, before its parameters are read', async (t) => {
  const { s, member, general } = await setup(t);
  const [id] = await createOk(t, s, member, [streamDraft([general])]);
  s.db.prepare('UPDATE user SET enable_drafts_synchronization = 0 WHERE id = ?').run(member.user_id);
  isError(t, await s.request('GET', '/drafts', { as: member }), SYNC_OFF);
  isError(t, await create(s, member, [streamDraft([general])]), SYNC_OFF);
  isError(t, await create(s, member, 'not json'), SYNC_OFF);
  isError(t, await s.request('POST', '/drafts', { as: member }), SYNC_OFF);
  isError(t, await s.request('PATCH', `/drafts/${id}`, { as: member, params: { draft: streamDraft([general]) } }), SYNC_OFF);
  isError(t, await s.request('PATCH', '/drafts/9999', { as: member, params: { draft: '{' } }), SYNC_OFF);
  isError(t, await s.request('DELETE', `/drafts/${id}`, { as: member }), SYNC_OFF);
  isError(t, await s.request('DELETE', '/drafts/9999', { as: member, encoding: 'multipart', params: { x: 1 } }), SYNC_OFF);
  await throwsApiError(t, () => s.chat.api.drafts.list(member.user_id), SYNC_OFF);
  await throwsApiError(t, () => s.chat.api.drafts.create(member.user_id, { drafts: 5 as never }), SYNC_OFF);
  await throwsApiError(t, () => s.chat.api.drafts.delete(member.user_id, { draftId: id! }), SYNC_OFF);
  const state = await s.request('POST', '/register', { as: member, params: { fetch_event_types: ['drafts'] } });
  t.same(state.body.drafts, [], 'the register state is empty');
  s.db.prepare('UPDATE user SET enable_drafts_synchronization = 1 WHERE id = ?').run(member.user_id);
  t.equal((await fetchDrafts(s, member)).length, 1, 'nothing was changed meanwhile');
});

interface DraftState {
  drafts: Draft[];
}

/** Zulip's apply_event for drafts events: the state is kept newest first. */
function apply(state: DraftState, events: unknown[]): DraftState {
  let drafts = structuredClone(state.drafts);
  for (const raw of events) {
    const event = eventSchema.parse(raw);
    if (event.op === 'add') drafts.push(...event.drafts);
    else if (event.op === 'update') drafts = drafts.map((d) => (d.id === event.draft.id ? event.draft : d));
    else drafts = drafts.filter((d) => d.id !== event.draft_id);
  }
  return { drafts: drafts.sort((a, b) => b.timestamp - a.timestamp || b.id - a.id) };
}

t.test('drafts events match their schemas and applied to the registered state equal a refetch (newest first)', async (t) => {
  const { s, member, other, general } = await setup(t);
  const [kept, edited, removed] = await createOk(t, s, member, [
    streamDraft([general], { timestamp: 10 }),
    streamDraft([general], { timestamp: 20 }),
    streamDraft([general], { timestamp: 30 }),
  ]);
  const reg = (await s.request('POST', '/register', { as: member, params: { event_types: ['drafts'] } })).body;
  t.same(reg.drafts.map((d: Draft) => d.id), [removed, edited, kept], 'register state: newest first');

  await create(s, member, [{ type: 'private', to: [other.user_id], topic: '', content: 'new', timestamp: 25 }, { type: '', to: [], topic: '', content: 'newest' }]);
  await s.request('PATCH', `/drafts/${edited}`, { as: member, params: { draft: { type: '', to: [], topic: '', content: 'edited', timestamp: 5 } } });
  await s.request('DELETE', `/drafts/${removed}`, { as: member });
  s.chat.api.drafts.create(member.user_id, { drafts: [] });
  await s.request('DELETE', `/drafts/${removed}`, { as: member });

  const polled = await s.request('GET', '/events', { as: member, params: { queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true } });
  const events = polled.body.events as unknown[];
  t.same(events.map((e) => (e as { op: string }).op), ['add', 'update', 'remove', 'add'], 'one event per change, none for the failed delete');
  for (const event of events) t.ok(eventSchema.safeParse(event).success, `schema of ${(event as { op: string }).op}`);
  t.match(events[1], { draft: { id: edited, type: '', to: [], topic: '', content: 'edited', timestamp: 5 } });
  const refetched = (await s.request('POST', '/register', { as: member, params: { event_types: ['drafts'] } })).body;
  t.same(apply(reg as DraftState, events), { drafts: refetched.drafts });
});

t.test('the zulip-js client: create (multipart), edit (JSON in the query string) and delete', async (t) => {
  const { s, member, general } = await setup(t);
  // zulip-js ships no types; a computed specifier keeps TypeScript from asking for them.
  const { default: zulipInit } = (await import('zulip-js' as string)) as { default: (config: object) => Promise<any> };
  const client = await zulipInit({ username: member.email, apiKey: member.api_key, realm: s.url });
  const created = await client.callEndpoint('/drafts', 'POST', { drafts: [streamDraft([general])] });
  t.match(created, { result: 'success', ids: [Number] });
  t.equal(created.msg, '');
  const id = created.ids[0];
  t.same(await client.callEndpoint(`/drafts/${id}`, 'PATCH', { draft: JSON.stringify(streamDraft([general], { content: 'Edited', timestamp: 7 })) }), { result: 'success', msg: '' });
  t.same((await client.callEndpoint('/drafts', 'GET')).drafts, [{ id, type: 'stream', to: [general], topic: 'sync drafts', content: 'Edited', timestamp: 7 }]);
  t.same(await client.callEndpoint(`/drafts/${id}`, 'DELETE'), { result: 'success', msg: '' });
  t.same(await client.callEndpoint(`/drafts/${id}`, 'DELETE'), { result: 'error', msg: 'Draft does not exist', code: 'BAD_REQUEST' });
});
