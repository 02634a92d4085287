// GET, PUT and DELETE /bot_storage (Zulip's zerver/views/storage.py): a JSON object of strings
// per caller, Zulip's errors and size limit, and a replay of python-zulip-api's incrementor bot.
import t from 'tap';
import { startServer } from './helpers.js';
import { OK, badRequest, expectBoth, outcomeOf } from './user_status_helpers.js';

const s = await startServer({ limits: { botStorageCharacters: 40 } });
t.teardown(() => s.close());
const bot = await s.user('member', { bot: true });
const other = await s.user('member', { bot: true });
const api = s.chat.api.botStorage;

const get = (as = bot, keys?: string[]) => s.request('GET', '/bot_storage', { as, params: keys ? { keys } : {}, encoding: 'query' });

t.test('PUT sets entries, GET reads them, DELETE removes them; each caller has its own', async (t) => {
  await expectBoth(t, OK, () => s.request('PUT', '/bot_storage', { as: bot, params: { storage: { a: '1', b: 'two' } } }), () => api.update(bot.user_id, { storage: { c: '3' } }));
  t.same((await get()).body.storage, { a: '1', b: 'two', c: '3' }, 'no keys: everything');
  t.same((await get(bot, ['b'])).body, { result: 'success', msg: '', storage: { b: 'two' } });
  t.same((await get(bot, [])).body.storage, { a: '1', b: 'two', c: '3' }, "an empty list: everything (Zulip's `keys or all`)");
  t.same(api.get(bot.user_id, { keys: ['a', 'c'] }), { storage: { a: '1', c: '3' } }, 'in-process');
  t.same((await get(other)).body.storage, {}, "another bot sees none of it");
  await s.request('PUT', '/bot_storage', { as: bot, params: { storage: { a: 'one' } } });
  t.same((await get(bot, ['a'])).body.storage, { a: 'one' }, 'PUT replaces a value');
  await expectBoth(t, OK, () => s.request('DELETE', '/bot_storage', { as: bot, params: { keys: ['a'] } }), () => api.remove(bot.user_id, { keys: ['b'] }));
  t.same((await get()).body.storage, { c: '3' });
  t.same(outcomeOf(await s.request('DELETE', '/bot_storage', { as: bot })), OK, 'no keys: everything goes');
  t.same((await get()).body.storage, {});
});

t.test("Zulip's errors", async (t) => {
  await s.request('PUT', '/bot_storage', { as: bot, params: { storage: { kept: 'yes' } } });
  const missing = badRequest('Key does not exist.');
  await expectBoth(t, missing, () => get(bot, ['kept', 'nope']), () => api.get(bot.user_id, { keys: ['nope'] }), 'GET a missing key');
  await expectBoth(t, missing, () => s.request('DELETE', '/bot_storage', { as: bot, params: { keys: ['kept', 'nope'] } }), () => api.remove(bot.user_id, { keys: ['nope'] }), 'DELETE a missing key');
  t.same((await get()).body.storage, { kept: 'yes' }, 'a failed DELETE removes nothing');
  // 7 characters stored; 40 allowed.
  const over = badRequest('Request exceeds storage limit by 9 characters. The limit is 40 characters.');
  await expectBoth(t, over, () => s.request('PUT', '/bot_storage', { as: bot, params: { storage: { k: 'x'.repeat(41) } } }), () => api.update(bot.user_id, { storage: { k: 'x'.repeat(41) } }), 'over the limit');
  t.same(outcomeOf(await s.request('PUT', '/bot_storage', { as: bot, params: { storage: { kept: 'y'.repeat(36) } } })), OK, 'replacing a value counts the difference: exactly 40');
  t.same(outcomeOf(await s.request('PUT', '/bot_storage', { as: bot, params: { storage: { kept: 'é'.repeat(36) } } })), OK, 'characters, not bytes');
  const wrong = await s.request('PUT', '/bot_storage', { as: bot, params: { storage: { k: 1 } } });
  t.same([wrong.status, wrong.body.code, wrong.body.msg], [400, 'BAD_REQUEST', 'storage["k"] is not a string']);
  const notDict = await s.request('PUT', '/bot_storage', { as: bot, params: { storage: ['a'] } });
  t.same([notDict.status, notDict.body.code, notDict.body.msg], [400, 'BAD_REQUEST', 'storage is not a dict']);
  const noStorage = await s.request('PUT', '/bot_storage', { as: bot });
  t.same([noStorage.status, noStorage.body.code, noStorage.body.msg], [400, 'REQUEST_VARIABLE_MISSING', "Missing 'storage' argument"]);
  const badKeys = await s.request('GET', '/bot_storage', { as: bot, params: { keys: 'a' }, encoding: 'query' });
  t.same([badKeys.status, badKeys.body.code], [400, 'BAD_REQUEST']);
  t.same((await get()).body.storage, { kept: 'é'.repeat(36) }, 'failed requests changed nothing');
});

t.test("python-zulip-api's incrementor bot: its StateHandler's requests, replayed", async (t) => {
  const incrementor = await s.user('member', { bot: true });
  s.chat.api.streams.subscribe(incrementor.user_id, { subscriptions: [{ name: 'bots' }] });
  const put = async (key: string, value: unknown) => {
    const reply = await s.request('PUT', '/bot_storage', { as: incrementor, params: { storage: { [key]: JSON.stringify(value) } } });
    t.equal(reply.body.result, 'success', `put ${key}`);
  };
  // A fresh StateHandler reads through the server: GET with keys=["..."] in the query.
  const fetch = async (key: string) => JSON.parse((await get(incrementor, [key])).body.storage[key]);
  await put('number', 0);
  await put('message_id', null);
  for (const expected of [1, 2]) {
    const number = (await fetch('number')) + 1;
    t.equal(number, expected);
    await put('number', number);
    const messageId = await fetch('message_id');
    if (messageId === null) {
      const sent = await s.request('POST', '/messages', { as: incrementor, params: { type: 'stream', to: 'bots', topic: 'count', content: String(number) } });
      await put('message_id', sent.body.id);
    } else {
      const edited = await s.request('PATCH', `/messages/${messageId}`, { as: incrementor, params: { content: String(number) } });
      t.equal(edited.status, 200, 'the counter message is updated');
    }
  }
  const stored = (await get(incrementor)).body.storage;
  t.equal(stored.number, '2');
  const message = await s.request('GET', `/messages/${JSON.parse(stored.message_id)}`, { as: incrementor, params: { apply_markdown: false }, encoding: 'query' });
  t.equal(message.body.message.content, '2');
});
