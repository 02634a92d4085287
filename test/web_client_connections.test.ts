// The web client and the browser's connections to the server, in a real headless Chromium. The
// boot script's early requests are taken by the client (each asked once). Over HTTP/1.1 a browser
// opens at most six connections to one host, and a waiting long-poll holds one: a page left for
// another in the same tab (kept in the back/forward cache) ends its long-poll and polls its queue
// again when it comes back; a page closed deletes its queue; so pages opened one after another in
// a tab all load.
import t from 'tap';
import { contextOf } from '../lib/context.js';
import type { HTTPRequest, Page } from 'puppeteer-core';
import { holdRequests, launchBrowser, signIn, waitForText, type TestBrowser } from './browser.js';
import { startServer, until, type TestServer, type TestUser } from './helpers.js';
import { sendToStream, subscribe } from './messaging_helpers.js';

// Inside page.evaluate callbacks (they run in the page).
declare const window: any, document: any, getComputedStyle: any;

let s: TestServer;
let browser: TestBrowser;
let streamId: number;

t.before(async () => {
  s = await startServer({ webClient: true });
  browser = await launchBrowser(s.url);
  await subscribe(s, s.owner, ['general']);
  streamId = (await s.request('GET', '/get_stream_id', { as: s.owner, params: { stream: 'general' } })).body.stream_id;
  await sendToStream(s, s.owner, streamId, 'hello', 'the first message');
});

t.teardown(async () => {
  await browser?.close();
  await s?.close();
});

/** Long-polls waiting in the server. */
const waiting = () => contextOf(s.chat).events.waiterCount;
const queuesOf = (user: TestUser) => (s.db.prepare('SELECT count(*) AS n FROM event_queue WHERE user_id = ?').get(user.user_id) as { n: number }).n;

async function member(name: string): Promise<TestUser> {
  const user = await s.user('member', { fullName: name, password: `${name}-password` });
  await subscribe(s, user, ['general']);
  return user;
}

/** The API requests (method and path) a page makes while `action` runs and the page settles. */
async function apiRequests(page: Page, action: () => Promise<void>): Promise<string[]> {
  const seen: string[] = [];
  const note = (request: HTTPRequest) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith('/api/v1/')) seen.push(`${request.method()} ${url.pathname.slice('/api/v1'.length)}`);
  };
  page.on('request', note);
  await action();
  // What waits for the first paint and the page to be idle too (presence, emoji names, topics:
  // 400 ms after the paint, then within a second).
  await new Promise((resolve) => setTimeout(resolve, 2500));
  page.off('request', note);
  return seen;
}

t.test('the requests the boot script starts before the bundle runs are each made once', async (t) => {
  const user = await member('booter');
  const page = await browser.page();
  await signIn(page, s.url, user.email, 'booter-password');

  const onChannel = await apiRequests(page, async () => {
    await page.goto(`${s.url}/?again#channel/${streamId}`);
    await page.waitForSelector('.messages[data-loaded] .message');
  });
  t.equal(onChannel.filter((r) => r === 'GET /users/me').length, 0, 'signed in when last seen: POST /register says whether it still is, no GET /users/me');
  t.equal(onChannel.filter((r) => r === 'GET /messages').length, 1, "a channel's first page is asked for once");
  t.equal(onChannel.filter((r) => r === 'POST /register').length, 1, 'the queue is registered once');

  // A direct message view needs the user's id (from /register) for its narrow: only the
  // registration starts early, the messages come after it.
  const onDm = await apiRequests(page, async () => {
    await page.goto(`${s.url}/?dm#dm/${s.owner.user_id}`);
    await page.waitForSelector('.messages[data-loaded]');
  });
  t.equal(onDm.filter((r) => r === 'GET /messages').length, 1, "a direct message view's first page is asked for once");
  t.equal(onDm.filter((r) => r === 'POST /register').length, 1, 'the queue is registered once');

  // Signed out elsewhere: the browser has no session cookie, but was signed in when last seen.
  await page.deleteCookie(...(await page.cookies()));
  const signedOutElsewhere = await apiRequests(page, async () => {
    await page.goto(`${s.url}/?out#channel/${streamId}`);
    await page.waitForSelector('form.login-card');
  });
  t.same(signedOutElsewhere.sort(), ['GET /messages', 'GET /server_settings', 'POST /register'], 'signed in when last seen: its requests start at once, and are refused');
  const signedOut = await apiRequests(page, async () => {
    await page.goto(`${s.url}/?out-again#channel/${streamId}`);
    await page.waitForSelector('form.login-card');
  });
  t.same(signedOut.sort(), ['GET /server_settings', 'GET /users/me'], 'signed out, the page asks whether it is signed in and for the server settings, nothing more');
  await page.close();
});

t.test('signed out elsewhere while the page loads: the boot script and the application decide alike, and signing in again holds', async (t) => {
  const user = await member('racer');
  // A browser signed in when last seen (the note), whose session ended elsewhere (no cookie). The
  // application's bundle is held back (a fresh browser: nothing cached) until the boot script
  // has sent its requests, and another tab drops the note then.
  const page = await browser.page();
  await page.evaluateOnNewDocument(() => window.localStorage.setItem('parley.signedIn:/', '1'));
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let booted!: () => void;
  const bootSent = new Promise<void>((resolve) => (booted = resolve));
  let bundleHeld = false;
  holdRequests(page, (url) => {
    if (url.endsWith('/api/v1/register')) booted();
    if (!/\/web\/app-[^/]+\.js$/.test(url)) return undefined;
    bundleHeld = true;
    return held;
  });
  const loaded = page.goto(`${s.url}/?race#channel/${streamId}`);
  await bootSent;
  await page.evaluate(() => window.localStorage.removeItem('parley.signedIn:/'));
  t.equal(await page.evaluate(() => document.readyState), 'interactive', 'the application has not run yet');
  release();
  await loaded;
  await page.waitForSelector('form.login-card');
  holdRequests(page, undefined);
  t.ok(bundleHeld, "the application's bundle was held back");
  await page.type('input[name=email]', user.email);
  await page.type('input[name=password]', 'racer-password');
  await page.click('button[type=submit]');
  await page.waitForSelector('.messages[data-loaded] .message');
  // The boot script's refused answers are not taken by the new sign-in.
  await new Promise((resolve) => setTimeout(resolve, 1000));
  t.equal(await page.$('form.login-card'), null, 'still signed in a moment later');
  t.ok(await page.$('.messages[data-loaded] .message'), "the channel's messages are shown");
  await page.close();
});

t.test('pages opened one after another in one tab each end the long-poll of the page before, and all load', async (t) => {
  const user = await member('walker');
  const page = await browser.page();
  await signIn(page, s.url, user.email, 'walker-password');
  // More pages than the browser opens connections to one host: each one left behind would keep
  // one if its long-poll went on, and the seventh page would wait for a connection.
  for (let i = 1; i <= 8; i++) {
    await page.goto(`${s.url}/?visit=${i}#channel/${streamId}`);
    await page.waitForSelector(`.messages[data-loaded] .message`);
    t.ok(await until(() => waiting() === 1), `page ${i}: its messages are shown, and only its own long-poll waits`);
  }
  await page.close();
});

t.test('a page in the back/forward cache ends its long-poll, and polls the same queue again when shown', async (t) => {
  const user = await member('returner');
  const page = await browser.page();
  await signIn(page, s.url, user.email, 'returner-password');
  await page.goto(`${s.url}/#channel/${streamId}`);
  await page.waitForSelector('.messages[data-loaded] .message');
  t.ok(await until(() => waiting() === 1), 'the signed-in page waits for events');
  const queues = queuesOf(user);
  await page.evaluate(() => { window.keptInCache = true; });

  // Another page of the same server in the same tab.
  await page.goto(`${s.url}/api/v1/server_settings`);
  t.ok(await until(() => waiting() === 0), 'the page left behind no longer waits');
  t.equal(queuesOf(user), queues, 'its queue is kept');
  await sendToStream(s, s.owner, streamId, 'hello', 'sent while the page was away');

  await page.goBack();
  t.equal(await page.evaluate(() => window.keptInCache), true, 'back, the page is the one from the back/forward cache');
  await waitForText(page, '.message .content', 'sent while the page was away');
  t.pass('the message sent meanwhile shows: the queue kept it');
  t.ok(await until(() => waiting() === 1), 'and the page waits for events again');
  t.equal(queuesOf(user), queues, 'on the same queue');
  await sendToStream(s, s.owner, streamId, 'hello', 'sent after it came back');
  await waitForText(page, '.message .content', 'sent after it came back');
  t.pass('and new messages arrive live');
  await page.close();
});

t.test('a page closed deletes its event queue', async (t) => {
  const user = await member('closer');
  const page = await browser.page();
  await signIn(page, s.url, user.email, 'closer-password');
  t.ok(await until(() => queuesOf(user) === 1 && waiting() === 1), 'the signed-in page has a queue and waits on it');
  await page.close({ runBeforeUnload: true });
  t.ok(await until(() => queuesOf(user) === 0), 'the queue is deleted when the tab closes');
  t.ok(await until(() => waiting() === 0), 'and nothing waits any more');
});

t.test('a slow server: the page says it is loading once that takes half a second, then shows the view whole', async (t) => {
  const user = await member('patient');
  const page = await browser.page();
  await signIn(page, s.url, user.email, 'patient-password');
  // Every request takes 1.5 s more: the page, its scripts, then the API's answers.
  await page.emulateNetworkConditions({ offline: false, download: -1, upload: -1, latency: 1500 });
  await page.reload();
  await page.waitForFunction(() => {
    const loading = document.querySelector('.login[aria-busy="true"] .loading');
    return loading !== null && getComputedStyle(loading).opacity === '1';
  });
  t.equal(await page.$eval('.loading', (el) => el.textContent), 'Loading…', 'the page says so');
  t.equal(await page.$('nav.sidebar'), null, 'no empty layout meanwhile');
  await page.waitForSelector('nav.sidebar .channels');
  await waitForText(page, 'nav.sidebar .channels', 'general');
  t.equal(await page.$('.loading'), null, 'then the layout, with its channels');
  await page.emulateNetworkConditions(null);
  await page.close();
});
