// A conversation's history in the web client (headless Chromium): a channel opens at its first
// unread message with a first page on each side of it (web/src/narrow.ts FIRST_PAGE); scrolling
// to the top fetches older pages until the beginning; a window taller than the first page fetches
// more by itself, since there is nothing to scroll.
import t from 'tap';
import { launchBrowser, openView, signIn, type TestBrowser } from './browser.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { sendToStream, subscribe } from './messaging_helpers.js';

// Inside page.evaluate callbacks (they run in the page).
declare const document: any, window: any, MutationObserver: any;

/** web/src/narrow.ts FIRST_PAGE: messages on each side of the anchor when a view opens. */
const FIRST_PAGE = 15;
const MESSAGES = 120;
const UNREAD = 5;

let s: TestServer;
let browser: TestBrowser;
let mia: TestUser;
let streamId: number;
let ids: number[] = [];

t.before(async () => {
  s = await startServer({ webClient: true });
  browser = await launchBrowser(s.url);
  mia = await s.user('member', { fullName: 'Mia Member', password: 'mia-password' });
  await subscribe(s, s.owner, ['history'], { principals: [s.owner.user_id, mia.user_id] });
  streamId = (await s.request('GET', '/get_stream_id', { as: s.owner, params: { stream: 'history' } })).body.stream_id;
  for (let i = 1; i <= MESSAGES; i++) ids.push(await sendToStream(s, s.owner, streamId, 'log', `entry ${i}`));
  const read = await s.request('POST', '/messages/flags', { as: mia, params: { messages: JSON.stringify(ids.slice(0, -UNREAD)), op: 'add', flag: 'read' } });
  t.equal(read.status, 200);
});

t.teardown(async () => {
  await browser?.close();
  await s?.close();
});

const shownIds = (page: Awaited<ReturnType<TestBrowser['page']>>) =>
  page.$$eval('.message-list .message', (els) => els.map((el: any) => Number(el.dataset.messageId)));

t.test('a channel opens at its first unread message; scrolling up fetches older pages until the beginning', async (t) => {
  const page = await browser.page();
  await signIn(page, s.url, mia.email, 'mia-password');
  await openView(page, `#channel/${streamId}`);
  const first = await shownIds(page);
  t.same(first, ids.slice(-UNREAD - FIRST_PAGE), 'the first page: FIRST_PAGE read messages before the first unread one, and the unread ones');
  // (By its id: seen, it is marked read a moment later.)
  t.ok(await page.$eval(`.message[data-message-id="${ids[MESSAGES - UNREAD]}"]`, (el: any) => {
    const box = el.getBoundingClientRect();
    const list = document.querySelector('.messages').getBoundingClientRect();
    return box.top >= list.top && box.bottom <= list.bottom;
  }), 'the first unread message is in sight');
  t.notOk(await page.$('.list-edge'), 'no beginning shown yet');

  for (let i = 0; i < 10 && !(await page.$('.list-edge')); i++) {
    const before = (await shownIds(page)).length;
    await page.$eval('.messages', (el: any) => { el.scrollTop = 0; });
    await page.waitForFunction((n) => document.querySelectorAll('.message-list .message').length > n || document.querySelector('.list-edge'), {}, before);
  }
  t.same(await shownIds(page), ids, 'every message, in order, none twice');
  t.equal(await page.$eval('.list-edge', (el) => el.textContent), 'The beginning of this conversation.');
  await page.close();
});

t.test('a window taller than the first page fetches the rest by itself', async (t) => {
  // Taller than all the messages (about 50 px each): the list never fills it, and fetches everything.
  const page = await browser.page(1200, 9000);
  await signIn(page, s.url, s.owner.email, 'owner-password');
  await openView(page, `#channel/${streamId}`);
  // (The owner sent them through the API: unread for the owner, the view opens at the oldest and
  // fetches newer pages.)
  await page.waitForFunction((n) => document.querySelectorAll('.message-list .message').length >= n, {}, MESSAGES);
  t.same(await shownIds(page), ids, 'every message without scrolling');
  t.ok(await page.$('.list-edge'), 'from the beginning');
  await page.close();
});

t.test('a page opened straight onto a channel shows its first unread message in its first frame', async (t) => {
  const fresh: number[] = [];
  for (let i = 1; i <= UNREAD; i++) fresh.push(await sendToStream(s, s.owner, streamId, 'log', `later ${i}`));
  const page = await browser.page();
  await signIn(page, s.url, mia.email, 'mia-password');
  // Where the list is when it first appears (layout effects have run by then; the paint follows).
  await page.evaluateOnNewDocument((firstUnread) => {
    const seen = new MutationObserver(() => {
      const list = document.querySelector('.messages[data-loaded]');
      const row = document.querySelector(`.message[data-message-id="${firstUnread}"]`);
      if (!list || !row) return;
      seen.disconnect();
      const [box, bounds] = [row.getBoundingClientRect(), list.getBoundingClientRect()];
      window.firstFrame = { inSight: box.top >= bounds.top && box.bottom <= bounds.bottom, scrollTop: list.scrollTop };
    });
    seen.observe(document, { childList: true, subtree: true, attributes: true });
  }, fresh[0]);
  // (A new document: the address differs in more than its # part.)
  await page.goto(`${s.url}/?opened#channel/${streamId}`);
  await page.waitForFunction(() => window.firstFrame !== undefined);
  const first = await page.evaluate(() => window.firstFrame);
  t.equal(first.inSight, true, 'the first unread message is in sight when the list first shows');
  t.ok(first.scrollTop > 0, 'scrolled to it, below the read messages before it');
  await page.close();
});
