// Web Push end to end in a real Firefox (headless), whose push service is the stand-in of
// test/push_service.ts (dom.push.serverURL): "Notify this browser when the tab is closed" asks for
// the permission, subscribes Firefox with the server's VAPID key and registers the subscription;
// with no parley tab open, a direct message reaches the browser (the server encrypts and signs it,
// the push service hands it on, Firefox decrypts it) and the service worker shows it; turning it
// off, or signing out, unregisters the browser at both ends.
import t from 'tap';
import type { Page } from 'puppeteer-core';
import { launchBrowser, signIn, type TestBrowser } from './browser.js';
import { startServer, until, type TestServer, type TestUser } from './helpers.js';
import { sendDirect } from './messaging_helpers.js';
import { startPushService, type StandInPushService } from './push_service.js';

// Inside page.evaluate callbacks (they run in the page).
declare const navigator: any, document: any;

let service: StandInPushService;
let s: TestServer;
let browser: TestBrowser;
let member: TestUser;
let mia: TestUser;

t.before(async () => {
  service = await startPushService();
  s = await startServer({ webClient: true, webPush: { allowPrivateAddresses: true, fetch: service.fetch } });
  member = await s.user('member', { fullName: 'Max Member', password: 'max-password' });
  mia = await s.user('member', { fullName: 'Mia' });
  browser = await launchBrowser(s.url, 'firefox', {
    firefoxPrefs: {
      'dom.push.enabled': true,
      'dom.push.connection.enabled': true,
      'dom.push.serverURL': service.webSocketUrl,
      'dom.push.testing.allowInsecureServerURL': true,
      // Headless Firefox shows notifications only through its own alert windows.
      'alerts.useSystemBackend': false,
    },
  });
});

t.teardown(async () => {
  await browser?.close();
  await s?.close();
  await service?.close();
});

const rows = () => s.db.prepare('SELECT endpoint FROM web_push_subscription WHERE user_id = ?').pluck().all(member.user_id) as string[];

/** The notifications the service worker of the page's browser context shows. */
const notifications = (page: Page) =>
  page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n: any) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })));

async function toggle(page: Page, expected: string): Promise<void> {
  await page.goto(`${s.url}/#settings/notifications`);
  await page.waitForSelector('input[name=web_push]:not([disabled])');
  await page.click('input[name=web_push]');
  await page.waitForFunction((text) => document.querySelector('.web-push-status')?.textContent === text, {}, expected);
}

t.test('the switch is off until turned on; on, Firefox is subscribed with the server\'s key and the server knows the subscription', async (t) => {
  const page = await browser.page();
  await page.browserContext().overridePermissions(s.url, ['notifications']);
  await signIn(page, s.url, member.email, 'max-password');
  await page.goto(`${s.url}/#settings/notifications`);
  await page.waitForSelector('input[name=web_push]:not([disabled])');
  t.equal(await page.$eval('input[name=web_push]', (el: any) => el.checked), false, 'off by default');
  t.same(rows(), [], 'nothing registered');

  await toggle(page, 'This browser will be notified when the tab is closed.');
  t.equal(await page.$eval('input[name=web_push]', (el: any) => el.checked), true);
  const [subscription, ...others] = [...service.firefox.values()];
  t.same(others, [], 'Firefox subscribed once at its push service');
  t.same(rows(), [subscription!.endpoint], 'the server has that subscription, for this user');
  const serverKey = (await s.request('GET', '/web_push/key', { as: member })).body.public_key;
  t.equal(subscription!.key.replace(/=+$/, ''), serverKey, "subscribed with the server's VAPID key");
  t.equal(await page.evaluate(async () => (await navigator.serviceWorker.ready).scope), `${s.url}/`, "the service worker's scope is the client");

  // "The tab closed": no parley page open in the browser any more. The unloading page deletes its
  // event queue, which makes Max idle (Zulip's receiver_is_off_zulip): wait for that before
  // writing to him, or the message may find him still on line, with nothing to push.
  await page.goto('about:blank');
  const queues = s.db.prepare('SELECT count(*) FROM event_queue WHERE user_id = ?').pluck();
  t.ok(await until(() => queues.get(member.user_id) === 0), "the closed tab's event queue is gone");
  await sendDirect(s, mia, [member.user_id], 'Lunch at **noon**?');
  t.ok(await until(() => service.forwarded.some((f) => f.acked !== undefined)), 'the push reached Firefox');
  t.same(service.forwarded.map((f) => f.acked), [100], 'which decrypted it and acknowledged it as delivered');
  t.same(service.problems, [], 'signed as the push service requires');

  await page.goto(`${s.url}/#settings/notifications`);
  const dm = [member.user_id, mia.user_id].sort((a, b) => a - b).join(',');
  t.same(await notifications(page), [{ title: 'Mia (to you)', body: 'Lunch at noon?', tag: `dm:${dm}`, data: { url: `#dm/${dm}` } }], 'the service worker shows it, with its conversation');

  await toggle(page, 'This browser will not be notified when the tab is closed.');
  t.same(rows(), [], 'turned off: the server forgets the browser');
  t.ok(await until(() => service.firefox.size === 0), 'and Firefox unsubscribes at its push service');
  await sendDirect(s, mia, [member.user_id], 'not pushed');
  await new Promise((resolve) => setTimeout(resolve, 300));
  t.equal(service.requests.length, 1, 'nothing more is pushed');
  await page.close();
});

t.test('signing out unregisters this browser: the next person to sign in here does not get its notifications', async (t) => {
  const page = await browser.page();
  await page.browserContext().overridePermissions(s.url, ['notifications']);
  await signIn(page, s.url, member.email, 'max-password');
  await toggle(page, 'This browser will be notified when the tab is closed.');
  t.equal(rows().length, 1);
  await page.waitForSelector('.topbar .link-button');
  await page.click('.topbar .link-button');
  await page.waitForSelector('form.login-card');
  t.ok(await until(() => rows().length === 0), 'the server forgets the browser');
  t.ok(await until(() => service.firefox.size === 0), 'the browser forgets its subscription');
  await page.close();
});
