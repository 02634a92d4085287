// The Web Push service worker and switch in a real headless Chromium. Chromium's Push API needs
// Google's push service (and none in a headless, incognito-like profile), so it cannot subscribe
// here: the switch says so and registers nothing. What Chromium does test is the service worker:
// a push (delivered through DevTools' ServiceWorker.deliverPushMessage, as the server's payload
// would arrive decrypted) shows its notification, an unreadable one a generic one, and a click on
// a notification (the event dispatched in the worker) brings the open tab to its conversation.
// The whole chain with a subscription is test/web_client_web_push.test.ts, in Firefox.
import t from 'tap';
import type { CDPSession, Page, WebWorker } from 'puppeteer-core';
import { launchBrowser, signIn, waitForText, type TestBrowser } from './browser.js';
import { startServer, type TestServer } from './helpers.js';
import { sendDirect } from './messaging_helpers.js';

// Inside page.evaluate callbacks (they run in the page or the worker).
declare const navigator: any, document: any, location: any;

let s: TestServer;
let browser: TestBrowser;
let page: Page;
let cdp: CDPSession;
let worker: WebWorker;
let registrationId: string;

t.before(async () => {
  s = await startServer({ webClient: true });
  browser = await launchBrowser(s.url);
  page = await browser.page();
  await page.browserContext().overridePermissions(s.url, ['notifications']);
  await signIn(page, s.url, s.owner.email, 'owner-password');
});

t.teardown(async () => {
  await browser?.close();
  await s?.close();
});

t.test('the switch asks for the permission and installs the service worker; without a push service it stays off and registers nothing', async (t) => {
  await page.goto(`${s.url}/#settings/notifications`);
  await page.waitForSelector('input[name=web_push]:not([disabled])');
  t.equal(await page.$eval('input[name=web_push]', (el: any) => el.checked), false, 'off by default');
  const installed = browser.browser.waitForTarget((target) => target.type() === 'service_worker');
  await page.click('input[name=web_push]');
  await page.waitForFunction(() => document.querySelector('.web-push-status')?.textContent);
  t.equal(await page.$eval('.web-push-status', (el) => el.textContent), "This browser's push service cannot be reached.");
  t.equal(await page.$eval('input[name=web_push]', (el: any) => el.checked), false, 'still off');
  t.equal(s.db.prepare('SELECT count(*) FROM web_push_subscription').pluck().get(), 0, 'nothing registered with the server');

  const target = await installed;
  t.equal(target.url(), `${s.url}/sw.js`, 'the service worker, next to the page');
  worker = (await target.worker())!;
  cdp = await page.createCDPSession();
  const registrations: { registrationId: string; scopeURL: string; isDeleted: boolean }[] = [];
  cdp.on('ServiceWorker.workerRegistrationUpdated', (e: { registrations: typeof registrations }) => void registrations.push(...e.registrations));
  await cdp.send('ServiceWorker.enable');
  // `ready` resolves while the worker is still activating (claiming the tab); a push delivered then
  // is dropped: wait until it is activated.
  await page.waitForFunction(async () => (await navigator.serviceWorker.ready).active?.state === 'activated');
  for (let i = 0; i < 1000 && !registrations.some((r) => !r.isDeleted); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  const registration = registrations.find((r) => !r.isDeleted)!;
  t.equal(registration.scopeURL, `${s.url}/`, 'its scope is the client');
  registrationId = registration.registrationId;
});

interface Shown { title: string; body: string; tag: string; data: unknown }
const shown = (): Promise<Shown[]> =>
  page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n: any) => ({ title: n.title, body: n.body, tag: n.tag, data: n.data })));

/** Delivers a push to the worker and answers the notifications shown then (none left from before). */
async function push(data: string): Promise<Shown[]> {
  await page.evaluate(async () => {
    for (const n of await (await navigator.serviceWorker.ready).getNotifications()) n.close();
  });
  await page.waitForFunction(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length === 0);
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: s.url, registrationId, data });
  await page.waitForFunction(async () => (await (await navigator.serviceWorker.ready).getNotifications()).length > 0);
  return shown();
}

t.test('a push shows the notification its payload names; one that cannot be read, a generic one', async (t) => {
  const payload = { type: 'message', message_id: 7, title: 'Mia (to you)', body: 'Lunch?', tag: 'dm:1,2', url: '#dm/1,2' };
  t.same(await push(JSON.stringify(payload)), [{ title: 'Mia (to you)', body: 'Lunch?', tag: 'dm:1,2', data: { url: '#dm/1,2' } }]);
  const generic = { title: 'parley', body: 'New message', tag: '', data: { url: '#' } };
  t.same(await push('not JSON'), [generic], 'not JSON: the generic notification');
  t.same(
    await push(JSON.stringify({ ...payload, tag: 'other', url: 'https://elsewhere.example/' })),
    [generic],
    "an address that is not the client's own is not taken: the generic notification",
  );
});

t.test('a click on a notification brings the open tab to its conversation', async (t) => {
  const mia = await s.user('member', { fullName: 'Mia' });
  await sendDirect(s, mia, [s.owner.user_id], 'the conversation to open');
  const dm = [s.owner.user_id, mia.user_id].sort((a, b) => a - b).join(',');
  await page.goto(`${s.url}/#inbox`);
  await cdp.send('ServiceWorker.deliverPushMessage', { origin: s.url, registrationId, data: JSON.stringify({ type: 'message', message_id: 1, title: 'Mia (to you)', body: 'x', tag: `dm:${dm}`, url: `#dm/${dm}` }) });
  await page.waitForFunction((tag) => navigator.serviceWorker.ready.then(async (r: any) => (await r.getNotifications()).some((n: any) => n.tag === tag)), {}, `dm:${dm}`);
  await worker.evaluate(async (tag) => {
    const sw = globalThis as any;
    const notification = (await sw.registration.getNotifications()).find((n: any) => n.tag === tag);
    sw.dispatchEvent(new sw.NotificationEvent('notificationclick', { notification }));
  }, `dm:${dm}`);
  await page.waitForFunction((hash) => location.hash === hash, {}, `#dm/${dm}`);
  await waitForText(page, '.message .content', 'the conversation to open');
  t.pass('the tab shows the conversation');
  t.notOk(await page.evaluate((tag) => navigator.serviceWorker.ready.then(async (r: any) => (await r.getNotifications()).some((n: any) => n.tag === tag)), `dm:${dm}`), 'and the notification is closed');
});
