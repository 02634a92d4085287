// Alert words: every rule over HTTP and
// in-process, the alert_words event after every change, and the register state.
import t, { type Test } from 'tap';
import { z } from 'zod';
import { bad, isError, throwsApiError } from './assertions.js';
import { startServer, type Reply, type TestServer, type TestUser } from './helpers.js';

const eventSchema = z.object({ id: z.int(), type: z.literal('alert_words'), alert_words: z.array(z.string()) }).strict();


// One server for the whole file (starting one costs ~0.4 s); each test works on fresh users.
const server = startServer();
t.teardown(async () => (await server).close());

async function setup(_t: Test): Promise<{ s: TestServer; member: TestUser; other: TestUser }> {
  const s = await server;
  return { s, member: await s.user('member'), other: await s.user('member') };
}

const add = (s: TestServer, user: TestUser, words: unknown, encoding?: 'multipart' | 'query') =>
  s.request('POST', '/users/me/alert_words', { as: user, params: { alert_words: words }, encoding });
const remove = (s: TestServer, user: TestUser, words: unknown, encoding?: 'multipart' | 'query') =>
  s.request('DELETE', '/users/me/alert_words', { as: user, params: { alert_words: words }, encoding });
const words = async (s: TestServer, user: TestUser): Promise<string[]> =>
  (await s.request('GET', '/users/me/alert_words', { as: user })).body.alert_words;

function answers(t: Test, reply: Reply, list: string[]): void {
  t.equal(reply.status, 200, 'status');
  t.same(reply.body, { result: 'success', msg: '', alert_words: list });
}

t.test('GET /users/me/alert_words lists the caller\'s words in the order they were added', async (t) => {
  const { s, member, other } = await setup(t);
  answers(t, await s.request('GET', '/users/me/alert_words', { as: member }), []);
  await add(s, member, ['zebra', 'apple']);
  await add(s, other, ['owner only']);
  await add(s, member, ['Mango']);
  answers(t, await s.request('GET', '/users/me/alert_words', { as: member }), ['zebra', 'apple', 'Mango']);
  t.same(s.chat.api.alertWords.list(member.user_id), { alert_words: ['zebra', 'apple', 'Mango'] }, 'in-process');
});

t.test('POST adds words and answers with the whole set', async (t) => {
  const { s, member, other } = await setup(t);
  answers(t, await add(s, member, ['alert', 'multi word phrase']), ['alert', 'multi word phrase']);
  answers(t, await add(s, member, ['third'], 'multipart'), ['alert', 'multi word phrase', 'third']);
  t.same(s.chat.api.alertWords.add(member.user_id, { alertWords: ['fourth'] }), { alert_words: ['alert', 'multi word phrase', 'third', 'fourth'] });
});

t.test('POST strips each word and drops blank ones', async (t) => {
  const { s, member, other } = await setup(t);
  answers(t, await add(s, member, ['one ', '\n two', 'three', '   ', '']), ['one', 'two', 'three']);
  answers(t, await add(s, member, ['\t']), ['one', 'two', 'three']);
});

t.test('POST: each word is at most 100 characters, counted before stripping', async (t) => {
  const { s, member, other } = await setup(t);
  answers(t, await add(s, member, ['a'.repeat(100), '😀'.repeat(100)]), ['a'.repeat(100), '😀'.repeat(100)]);
  isError(t, await add(s, member, ['ok', 'b'.repeat(101)]), bad('alert_words[1] is too long (limit: 100 characters)'));
  isError(t, await add(s, member, [' ' + 'c'.repeat(100)]), bad('alert_words[0] is too long (limit: 100 characters)'));
  await throwsApiError(t, () => s.chat.api.alertWords.add(member.user_id, { alertWords: ['d'.repeat(101)] }), bad('alert_words[0] is too long (limit: 100 characters)'));
  t.same(await words(s, member), ['a'.repeat(100), '😀'.repeat(100)], 'a refused request adds nothing');
});

t.test('POST: a word already in the set in any casing is skipped and keeps its stored casing', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, ['alert', 'Ärger']);
  answers(t, await add(s, member, ['ALert', 'ALERT', 'ärger']), ['alert', 'Ärger']);
});

t.test('POST: within one request the last casing wins, at the position of the first', async (t) => {
  const { s, member, other } = await setup(t);
  answers(t, await add(s, member, ['Foo', 'bar', 'FOO', 'foo ']), ['foo', 'bar']);
});

t.test('POST: alert_words must be a JSON list of strings', async (t) => {
  const { s, member, other } = await setup(t);
  const missing = await s.request('POST', '/users/me/alert_words', { as: member });
  t.equal(missing.status, 400);
  t.same(missing.body, { result: 'error', msg: "Missing 'alert_words' argument", code: 'REQUEST_VARIABLE_MISSING', var_name: 'alert_words' });
  isError(t, await add(s, member, 'alert'), bad('alert_words is not valid JSON'));
  isError(t, await add(s, member, { a: 1 }), bad('alert_words is not a list'));
  isError(t, await add(s, member, ['x', 5]), bad('alert_words[1] is not a string'));
  await throwsApiError(t, () => s.chat.api.alertWords.add(member.user_id, { alertWords: 'x' as never }), bad('alert_words is not a list'));
  t.same(await words(s, member), []);
});

t.test('DELETE removes words case-insensitively and ignores words not in the set', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, ['alert', 'two', 'Three', 'Ärger']);
  answers(t, await remove(s, member, ['ALert', 'nothing', 'three']), ['two', 'Ärger']);
  answers(t, await remove(s, member, ['never added']), ['two', 'Ärger']);
  t.same(s.chat.api.alertWords.remove(member.user_id, { alertWords: ['ÄRGER'] }), { alert_words: ['two'] });
});

t.test('DELETE takes words as sent: no stripping and no length limit', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, ['alert']);
  answers(t, await remove(s, member, [' alert', 'x'.repeat(500)]), ['alert']);
  answers(t, await remove(s, member, ['alert']), []);
});

t.test('DELETE: parameters in the query string (zulip-js) or a multipart body', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, ['a', 'b', 'c']);
  answers(t, await remove(s, member, ['a'], 'query'), ['b', 'c']);
  answers(t, await remove(s, member, ['b'], 'multipart'), ['c']);
  isError(t, await remove(s, member, 'c,d', 'query'), bad('alert_words is not valid JSON'));
  isError(t, await remove(s, member, [1], 'query'), bad('alert_words[0] is not a string'));
  const missing = await s.request('DELETE', '/users/me/alert_words', { as: member });
  t.has(missing.body, { code: 'REQUEST_VARIABLE_MISSING', msg: "Missing 'alert_words' argument" });
  const ignored = await s.request('DELETE', '/users/me/alert_words', { as: member, encoding: 'query', params: { alert_words: ['zzz'], extra: 'x' } });
  answers(t, { ...ignored, body: { ...ignored.body, ignored_parameters_unsupported: undefined } }, ['c']);
  t.same(ignored.body.ignored_parameters_unsupported, ['extra']);
});

t.test('alert words are per user', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, ['shared']);
  answers(t, await add(s, other, ['Shared']), ['Shared']);
  answers(t, await remove(s, other, ['shared']), []);
  t.same(await words(s, member), ['shared']);
});

/** Zulip's apply_event for alert_words: the event carries the whole list. */
function apply(state: { alert_words: string[] }, events: unknown[]): { alert_words: string[] } {
  let current = [...state.alert_words];
  for (const raw of events) current = eventSchema.parse(raw).alert_words;
  return { alert_words: current };
}

t.test('an alert_words event follows every POST and DELETE, even when nothing changed; applied it equals a refetch', async (t) => {
  const { s, member, other } = await setup(t);
  await add(s, member, ['before']);
  const reg = (await s.request('POST', '/register', { as: member, params: { event_types: ['alert_words'] } })).body;
  const otherReg = (await s.request('POST', '/register', { as: other, params: { event_types: ['alert_words'] } })).body;
  t.same(reg.alert_words, ['before'], 'register state');
  await add(s, member, ['one', 'Two']);
  await add(s, member, ['ONE']);
  await remove(s, member, ['nothing']);
  s.chat.api.alertWords.remove(member.user_id, { alertWords: ['before'] });
  await add(s, member, ['x'.repeat(101)]);
  const polled = await s.request('GET', '/events', { as: member, params: { queue_id: reg.queue_id, last_event_id: reg.last_event_id, dont_block: true } });
  const events = polled.body.events as unknown[];
  for (const event of events) t.ok(eventSchema.safeParse(event).success, 'event schema');
  t.same(
    events.map((e) => (e as { alert_words: string[] }).alert_words),
    [['before', 'one', 'Two'], ['before', 'one', 'Two'], ['before', 'one', 'Two'], ['one', 'Two']],
    'one event per request, none for the refused one',
  );
  const refetched = (await s.request('POST', '/register', { as: member, params: { event_types: ['alert_words'] } })).body;
  t.same(apply(reg as { alert_words: string[] }, events), { alert_words: refetched.alert_words });
  const otherPoll = await s.request('GET', '/events', { as: other, params: { queue_id: otherReg.queue_id, last_event_id: otherReg.last_event_id, dont_block: true } });
  t.same(otherPoll.body.events, [], "another user's queue gets nothing");
});

t.test('messages sent or edited after a word is added get has_alert_word; after it is removed they do not', async (t) => {
  const { s, member, other } = await setup(t);
  const send = async (content: string): Promise<number> => {
    const reply = await s.request('POST', '/messages', { as: other, params: { type: 'direct', to: [member.user_id], content } });
    t.equal(reply.status, 200, 'sent');
    return reply.body.id;
  };
  const flagsOf = async (ids: number[]): Promise<string[][]> => {
    const reply = await s.request('GET', '/messages', { as: member, params: { message_ids: ids } });
    const byId = new Map((reply.body.messages as { id: number; flags: string[] }[]).map((m) => [m.id, m.flags]));
    return ids.map((id) => byId.get(id) ?? ['(missing)']);
  };
  const alerted = (flags: string[]): boolean => flags.includes('has_alert_word');

  const before = await send('Time to deploy the release train.');
  answers(t, await add(s, member, ['Deploy', ' release train ']), ['Deploy', 'release train']);
  const hit = await send('Time to DEPLOY, now.');
  const phrase = await send('Board the Release Train!');
  const miss = await send('Redeploying is not deploying');
  const edited = await send('Nothing to see here');
  t.equal((await s.request('PATCH', `/messages/${edited}`, { as: other, params: { content: 'Edited: deploy' } })).status, 200, 'edited');
  t.same((await flagsOf([before, hit, phrase, miss, edited])).map(alerted), [false, true, true, false, true], 'flags after adding');

  answers(t, await remove(s, member, ['DEPLOY', 'Release Train']), []);
  const after = await send('Time to deploy the release train.');
  t.equal((await s.request('PATCH', `/messages/${hit}`, { as: other, params: { content: 'Time to DEPLOY, again.' } })).status, 200, 'edited');
  t.same((await flagsOf([hit, phrase, after])).map(alerted), [false, true, false], 'an edit clears the flag; untouched messages keep it; new ones do not get it');
  t.notOk((await flagsOf([hit]))[0]!.includes('has_alert_word'));
});

t.test('the zulip-js client: retrieve, add (multipart) and remove (JSON in the query string)', async (t) => {
  const { s, member } = await setup(t);
  // zulip-js ships no types; a computed specifier keeps TypeScript from asking for them.
  const { default: zulipInit } = (await import('zulip-js' as string)) as { default: (config: object) => Promise<any> };
  const client = await zulipInit({ username: member.email, apiKey: member.api_key, realm: s.url });
  t.same(await client.callEndpoint('/users/me/alert_words', 'POST', { alert_words: ['Parley', ' SQLite '] }), { result: 'success', msg: '', alert_words: ['Parley', 'SQLite'] });
  t.same(await client.users.me.alertWords.retrieve(), { result: 'success', msg: '', alert_words: ['Parley', 'SQLite'] });
  t.same(await client.callEndpoint('/users/me/alert_words', 'DELETE', { alert_words: JSON.stringify(['parley']) }), { result: 'success', msg: '', alert_words: ['SQLite'] });
  t.same(await client.callEndpoint('/users/me/alert_words', 'DELETE', { alert_words: ['sqlite', 'x'] }), { result: 'error', msg: 'alert_words is not valid JSON', code: 'BAD_REQUEST' }, 'an unencoded list reaches the server as a,b');
});
