// The web client's bot settings in a real headless Chromium (Zulip's "Personal settings > Bots" and
// its integration URL generator): create an incoming webhook bot and a generic bot, see their
// email, API key and zuliprc, generate an integration URL that a service then posts to, regenerate
// the key (the old URL stops working), deactivate; no serious accessibility violation (axe-core).
import t from 'tap';
import { axeViolations, launchBrowser, signIn, waitForText, type TestBrowser } from './browser.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { subscribe } from './messaging_helpers.js';
import { push } from './github_payloads.js';

// Inside page.evaluate callbacks (they run in the page).
declare const document: any, location: any;

let s: TestServer;
let browser: TestBrowser;
let member: TestUser;

t.before(async () => {
  s = await startServer({ webClient: true });
  browser = await launchBrowser(s.url);
  member = await s.user('member', { fullName: 'Mia Member', password: 'member-password' });
  await subscribe(s, s.owner, ['ops'], { principals: [s.owner.user_id, member.user_id] });
});

t.teardown(async () => {
  await browser?.close();
  await s?.close();
});

interface BotRow { id: number; email: string; api_key: string; bot_type: number; is_active: number }
const botRow = (name: string): BotRow => s.db.prepare('SELECT id, email, api_key, bot_type, is_active FROM user WHERE full_name = ?').get(name) as BotRow;

const PUSH = push('baxterthehacker/public-repo', 'baxterthehacker', { ref: 'refs/tags/v1', created: true, compare: 'https://github.com/x/y/compare/a...b' });
const postPush = (url: string) => fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', 'X-GitHub-Event': 'push' }, body: JSON.stringify(PUSH) });

t.test('bots and the integration URL generator, end to end', async (t) => {
  const page = await browser.page();
  await signIn(page, s.url, member.email, 'member-password');
  await page.evaluate(() => { location.hash = '#settings/bots'; });
  await waitForText(page, '.section-body', 'You have no active bots.');

  await t.test('creating an incoming webhook bot lists it with its email; its key and zuliprc are the server\'s', async (t) => {
    await page.type('.new-bot input[name=full_name]', 'Deploy Hook');
    await page.type('.new-bot input[name=short_name]', 'deploy');
    await page.click('.new-bot button[type=submit]');
    await waitForText(page, '.bot-card h3', 'Deploy Hook');
    const row = botRow('Deploy Hook');
    t.match(row, { bot_type: 2, is_active: 1 }, 'an incoming webhook bot (the first bot type offered)');
    t.equal(await page.$eval('.bot-card .bot-email', (el) => el.textContent), row.email);
    t.equal(await page.$('.bot-card .api-key'), null, 'the key is hidden until asked for');
    await page.click('.bot-card button[aria-label^="Show API key"]');
    t.equal(await page.$eval('.bot-card .api-key', (el) => el.textContent), row.api_key);
    const href = await page.$eval('.bot-card a.zuliprc', (el) => (el as any).href as string);
    t.equal(decodeURIComponent(href.slice(href.indexOf(',') + 1)), `[api]\nemail=${row.email}\nkey=${row.api_key}\nsite=${s.url}\n`, "Zulip's zuliprc, site included");
  });

  await t.test('a generic bot too', async (t) => {
    await page.select('.new-bot select[name=bot_type]', '1');
    await page.type('.new-bot input[name=full_name]', 'Helper');
    await page.type('.new-bot input[name=short_name]', 'helper');
    await page.click('.new-bot button[type=submit]');
    await waitForText(page, '.bot-card h3', 'Helper');
    t.equal(botRow('Helper').bot_type, 1);
    t.same(await page.$$eval('.bot-card h3', (els) => els.map((el) => el.textContent)), ['Deploy Hook', 'Helper'], 'oldest first');
  });

  let url = '';
  await t.test('the generator: bot, integration, channel, topic and an option give the URL a service posts to', async (t) => {
    const bot = botRow('Deploy Hook');
    const channelId = s.db.prepare("SELECT id FROM stream WHERE name = 'ops'").pluck().get() as number;
    await page.select('.integration-url select[name=bot]', String(bot.id));
    await page.select('.integration-url select[name=integration]', 'github');
    await page.select('.integration-url select[name=channel]', String(channelId));
    await page.type('.integration-url input[name=topic]', 'releases');
    await page.type('.integration-url input[name=branches]', 'main');
    await page.waitForSelector('.integration-url .generated-url');
    url = await page.$eval('.integration-url .generated-url', (el) => (el as any).value as string);
    t.equal(url, `${s.url}/api/v1/external/github?api_key=${bot.api_key}&stream=${channelId}&topic=releases&branches=main`);
    t.same(await axeViolations(page), [], 'no serious accessibility violation, the generator filled in');
    const reply = await postPush(url);
    t.same([reply.status, await reply.json()], [200, { result: 'success', msg: '' }]);
    const message = s.db.prepare('SELECT sender_id, stream_id, topic, content FROM message ORDER BY id DESC LIMIT 1').get();
    t.same(message, { sender_id: bot.id, stream_id: channelId, topic: 'releases', content: 'baxterthehacker pushed tag v1.' });
  });

  await t.test("regenerating the key shows the new one, and the old URL stops working", async (t) => {
    const before = botRow('Deploy Hook').api_key;
    await page.click('.bot-card button[aria-label="Regenerate API key of Deploy Hook"]');
    await waitForText(page, '.bot-card', 'A new API key is in use.');
    const after = botRow('Deploy Hook').api_key;
    t.not(after, before);
    await page.waitForFunction((key) => document.querySelector('.bot-card .api-key')?.textContent === key, { polling: 100 }, after);
    t.pass('the card shows the new key (the realm_bot event)');
    t.equal((await postPush(url)).status, 401);
    t.ok((await page.$eval('.integration-url .generated-url', (el) => (el as any).value as string)).includes(`api_key=${after}`), 'the generator uses the new key');
  });

  await t.test('deactivating a bot removes it from the list', async (t) => {
    await page.click('.bot-card button[aria-label="Deactivate Helper"]');
    await page.waitForFunction(() => document.querySelectorAll('.bot-card').length === 1, { polling: 100 });
    t.equal(botRow('Helper').is_active, 0);
    t.same(await axeViolations(page), []);
  });

  t.same(browser.foreignRequests, [], 'nothing was fetched from anywhere else');
});
