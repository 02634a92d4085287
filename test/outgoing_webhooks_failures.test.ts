// When a bot's server fails, Zulip's outcome (zerver/lib/outgoing_webhook.py): a timeout, a
// connection error or (in parley) a 5xx is retried MAX_REQUEST_RETRIES times, then "Failure! ..."
// is posted where the message was and the bot's owner is told; a 4xx, an answer too large or a
// refused address fail at once. The sender's message is sent at once whatever the target does, and
// a hanging bot holds up nothing else. Time is the test clock's, so the retries' waits take none.
import t, { type Test } from 'tap';
import { createTestClock, type TestClock } from '../lib/testing/clock.js';
import type { TestServer, TestUser } from './helpers.js';
import { sendDirect } from './messaging_helpers.js';
import { channel, outgoingBot, outgoingServer, pendingDeliveries, postedBy, settle, startTarget, type Answer, type BotTarget } from './outgoing_helpers.js';

const RETRY_DELAYS = [1_000, 5_000, 15_000];
const TIMEOUT = 10_000;

interface World {
  s: TestServer;
  clock: TestClock;
  target: BotTarget;
  iago: TestUser;
  bot: TestUser & { full_name: string };
}

async function world(t: Test, answer: Answer, options: { maxConcurrentPerBot?: number } = {}): Promise<World> {
  const clock = createTestClock();
  const s = await outgoingServer({
    clock: clock.now,
    timers: clock.timers,
    realm: { name: 'Acme', url: 'https://chat.acme.test' },
    outgoingWebhooks: { allowPrivateAddresses: true, retryDelaysMs: RETRY_DELAYS, timeoutMs: TIMEOUT, ...options },
  });
  t.teardown(() => s.close());
  const target = await startTarget(t, answer);
  const iago = await s.user('member', { fullName: 'Iago' });
  const bot = await outgoingBot(s, iago, target.url);
  return { s, clock, target, iago, bot };
}

/** Waits (in real time) until `done()`; the attempts under way run on real sockets. */
async function until(done: () => boolean): Promise<void> {
  while (!done()) await new Promise((resolve) => setTimeout(resolve, 5));
}

/** Waits until the delivery's attempt `n` is over: it waits for the next one, or is done. */
function attempted(s: TestServer, n: number): Promise<void> {
  const row = s.db.prepare("SELECT attempts, claim FROM delivery WHERE kind = 'outgoing_webhook'");
  return until(() => {
    const r = row.get() as { attempts: number; claim: number | null } | undefined;
    return r === undefined || (r.attempts >= n && r.claim === null);
  });
}

/** The bot's direct messages to its owner (Iago) about a failure. */
function ownerNotices(w: World) {
  const members = (groupId: number | null) => s(w).prepare('SELECT user_id FROM direct_group_member WHERE direct_group_id = ? ORDER BY user_id').pluck().all(groupId);
  const pair = [w.iago.user_id, w.bot.user_id].sort((a, b) => a - b);
  return postedBy(w.s, w.bot.user_id).filter((m) => m.content.startsWith('[A message]') && JSON.stringify(members(m.direct_group_id)) === JSON.stringify(pair));
}
const s = (w: World) => w.s.db;

function head(w: World, messageId: number): string {
  const [low, high] = [w.iago.user_id, w.bot.user_id].sort((a, b) => a - b);
  return `[A message](https://chat.acme.test/#narrow/dm/${low},${high}/near/${messageId}) to your bot @_**Echo Bot** triggered an outgoing webhook.`;
}

t.test('a hanging server: the message sends at once; four attempts of 10 s, then "Bot is unavailable" and the owner is told', async (t) => {
  const w = await world(t, 'hang');
  const { s, clock, target, iago, bot } = w;
  const answered = await s.request('POST', '/messages', { as: iago, params: { type: 'direct', to: [bot.user_id], content: 'are you there?' } });
  t.equal(answered.status, 200, 'the sender is answered at once');
  const id = answered.body.id as number;
  await target.received(1);
  t.equal((await s.request('POST', '/messages', { as: iago, params: { type: 'direct', to: [iago.user_id], content: 'meanwhile' } })).status, 200, 'other requests are answered while the bot hangs');
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    await target.received(attempt);
    await clock.advance(TIMEOUT);
    await attempted(s, attempt);
    if (attempt === 4) break;
    t.same(postedBy(s, bot.user_id), [], `nothing posted after attempt ${attempt}`);
    await clock.advance(RETRY_DELAYS[attempt - 1]!);
  }
  await settle(s);
  t.equal(target.requests.length, 4, 'the first attempt and three retries (MAX_REQUEST_RETRIES)');
  const posted = postedBy(s, bot.user_id);
  t.equal(posted[0]!.content, 'Failure! Bot is unavailable');
  t.equal(posted[0]!.direct_group_id, s.db.prepare('SELECT direct_group_id FROM message WHERE id = ?').pluck().get(id), 'in the conversation that triggered it');
  t.same(ownerNotices(w).map((m) => m.content), [`${head(w, id)}\nRequest timed out after 10 seconds.`]);
  t.equal(pendingDeliveries(s), 0);
});

t.test('a 500 is retried; after the last retry Zulip\'s "Third party responded with 500", the payload shown to the owner', async (t) => {
  const w = await world(t, { status: 500, body: '{"error": "no"}' });
  const { s, clock, target, iago, bot } = w;
  const id = await sendDirect(s, iago, [bot.user_id], 'hello');
  for (let attempt = 1; attempt <= 4; attempt += 1) {
    await target.received(attempt);
    await attempted(s, attempt);
    if (attempt < 4) await clock.advance(RETRY_DELAYS[attempt - 1]!);
  }
  await settle(s);
  t.equal(target.requests.length, 4);
  t.equal(postedBy(s, bot.user_id)[0]!.content, 'Failure! Third party responded with 500');
  t.same(ownerNotices(w).map((m) => m.content), [`${head(w, id)}\nThe webhook got a response with status code *500*.\nThe response contains the following payload:\n\`\`\`\nb'{"error": "no"}'\n\`\`\``]);
});

t.test('a 503 then an answer: the reply is posted, no failure', async (t) => {
  const { s, clock, target, iago, bot } = await world(t, { body: { content: 'back again' } });
  target.script.push({ status: 503 });
  await sendDirect(s, iago, [bot.user_id], 'hello');
  await target.received(1);
  await attempted(s, 1);
  await clock.advance(RETRY_DELAYS[0]!);
  await target.received(2);
  await settle(s);
  t.same(postedBy(s, bot.user_id).map((m) => m.content), ['back again']);
});

t.test('a 4xx fails at once with Zulip\'s wording; nothing is retried', async (t) => {
  const w = await world(t, { status: 404, body: 'no such bot' });
  const { s, target, iago, bot } = w;
  const id = await sendDirect(s, iago, [bot.user_id], 'hello');
  await target.received(1);
  await settle(s);
  t.equal(target.requests.length, 1);
  t.equal(postedBy(s, bot.user_id)[0]!.content, 'Failure! Third party responded with 404');
  t.same(ownerNotices(w).map((m) => m.content), [`${head(w, id)}\nThe webhook got a response with status code *404*.\nThe response contains the following payload:\n\`\`\`\nb'no such bot'\n\`\`\``]);
});

t.test('an answer that is not JSON: "Invalid JSON in response"', async (t) => {
  const w = await world(t, { body: 'Hello!' });
  await sendDirect(w.s, w.iago, [w.bot.user_id], 'hello');
  await w.target.received(1);
  await settle(w.s);
  t.equal(postedBy(w.s, w.bot.user_id)[0]!.content, 'Failure! Invalid JSON in response');
});

t.test('an answer of 10 MB is not read past the limit: the request fails at once', async (t) => {
  const w = await world(t, { bytes: 10 * 1024 * 1024 });
  const { s, target, iago, bot } = w;
  const id = await sendDirect(s, iago, [bot.user_id], 'flood me');
  await target.received(1);
  await settle(s);
  t.equal(target.requests.length, 1, 'not retried');
  t.equal(postedBy(s, bot.user_id)[0]!.content, 'Failure! An exception of type *ResponseTooLarge* occurred for message `flood me`! See the Zulip server logs for more information.');
  t.same(ownerNotices(w).map((m) => m.content), [
    `${head(w, id)}\nWhen trying to send a request to the webhook service, an exception of type ResponseTooLarge occurred:\n\`\`\`\nThe response is longer than 1048576 bytes.\n\`\`\``,
  ]);
});

t.test('a server that is down: connection errors are retried, then "Bot is unavailable"', async (t) => {
  const w = await world(t, { body: {} });
  const { s, clock, target, iago, bot } = w;
  await target.close();
  const id = await sendDirect(s, iago, [bot.user_id], 'anyone?');
  for (const [i, delay] of RETRY_DELAYS.entries()) {
    await attempted(s, i + 1);
    t.same(postedBy(s, bot.user_id), [], `nothing posted after attempt ${i + 1}`);
    await clock.advance(delay);
  }
  await settle(s);
  t.equal(postedBy(s, bot.user_id)[0]!.content, 'Failure! Bot is unavailable');
  t.same(ownerNotices(w).map((m) => m.content), [`${head(w, id)}\nA connection error occurred. Is my bot server down?`]);
});

t.test('a hanging bot holds at most its share of requests; another bot is served meanwhile', async (t) => {
  const { s, target, iago, bot } = await world(t, 'hang', { maxConcurrentPerBot: 2 });
  const other = await startTarget(t, { body: { content: 'pong' } });
  const quick = await outgoingBot(s, iago, other.url, { name: 'Quick' });
  for (const word of ['one', 'two', 'three']) await sendDirect(s, iago, [bot.user_id], word);
  await target.received(2);
  await sendDirect(s, iago, [quick.user_id], 'ping');
  await other.received(1);
  await until(() => postedBy(s, quick.user_id).length === 1);
  t.equal(postedBy(s, quick.user_id)[0]!.content, 'pong', 'the other bot answered while the first hangs');
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(target.requests.length, 2, 'the third request waits for a free slot');
});

t.test('a channel message: the failure notice goes to its topic', async (t) => {
  const w = await world(t, { status: 400 });
  const { s, target, iago, bot } = w;
  const streamId = await channel(s, [iago]);
  await s.request('POST', '/messages', { as: iago, params: { type: 'stream', to: 'Verona', topic: 'birds', content: '@**Echo Bot** hi' } });
  await target.received(1);
  await settle(s);
  t.match(postedBy(s, bot.user_id)[0], { content: 'Failure! Third party responded with 400', stream_id: streamId, topic: 'birds' });
  t.match(ownerNotices(w)[0]!.content, /^\[A message\]\(https:\/\/chat\.acme\.test\/#narrow\/channel\/\d+-Verona\/topic\/birds\/near\/\d+\) to your bot @_\*\*Echo Bot\*\* triggered an outgoing webhook\.\nThe webhook got a response with status code \*400\*\.$/);
});
