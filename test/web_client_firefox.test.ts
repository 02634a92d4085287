// The web client in a real headless Firefox (Debian's firefox-esr, driven by puppeteer-core over
// WebDriver BiDi), as test/web_client.test.ts does in Chromium: sign in, open a channel, a message
// sent in one session appears live in the other (with the typing notice), star and react, a
// mention from the autocomplete and an edit, and a phone-size window shows the conversation with
// the channel list behind its menu.
import t from 'tap';
import { launchBrowser, openView, signIn, topicHash, unreadCount, waitForText, type TestBrowser, reactToLast } from './browser.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { sendToStream, subscribe } from './messaging_helpers.js';

// Inside page.evaluate callbacks (they run in the page).
declare const document: any, getComputedStyle: any;

let s: TestServer;
let browser: TestBrowser;
let member: TestUser;
let streamId: number;

t.before(async () => {
  s = await startServer({ webClient: true });
  browser = await launchBrowser(s.url, 'firefox');
  member = await s.user('member', { fullName: 'Mia Member', password: 'member-password' });
  await subscribe(s, s.owner, ['general'], { principals: [s.owner.user_id, member.user_id] });
  streamId = (await s.request('GET', '/get_stream_id', { as: s.owner, params: { stream: 'general' } })).body.stream_id;
  for (let i = 1; i <= 2; i++) await sendToStream(s, s.owner, streamId, 'earlier', `earlier message ${i}`);
});

t.teardown(async () => {
  await browser?.close();
  await s?.close();
});

t.test('the web client in Firefox, a wide and a phone-size session', async (t) => {
  const owner = await browser.page();
  const mia = await browser.page(390, 760);
  const hash = topicHash(streamId, 'earlier');

  await t.test('signing in shows the subscribed channels with unread counts', async (t) => {
    await signIn(owner, s.url, s.owner.email, 'owner-password');
    await signIn(mia, s.url, member.email, 'member-password');
    await waitForText(owner, '.channels', '#general');
    await mia.waitForSelector(`[data-stream-id="${streamId}"]`);
    t.equal(await unreadCount(mia, `[data-stream-id="${streamId}"]`), '2', "Mia's channel shows her 2 unread messages");
  });

  await t.test('a phone-size window opens the channel from its menu and shows the conversation', async (t) => {
    const sidebarShown = () => mia.$eval('nav.sidebar', (el) => getComputedStyle(el).display !== 'none');
    t.equal(await sidebarShown(), false, 'the channel list is hidden behind the menu');
    await mia.click('.menu-button');
    t.equal(await sidebarShown(), true, 'the menu shows it');
    await mia.click(`[data-stream-id="${streamId}"] .expander`);
    await waitForText(mia, '.topics', 'earlier');
    await mia.click('.topics .topic-link');
    await mia.waitForSelector(`.messages[data-loaded="${hash}"]`);
    t.equal(await sidebarShown(), false, 'opening a topic closes the menu');
    await waitForText(mia, '.message .content', 'earlier message 2');
    const width = await mia.$eval('.message-list', (el) => el.getBoundingClientRect().width);
    t.ok(width > 300 && width <= 390, `the conversation fills the narrow window (${width} px)`);
    t.ok(await mia.$eval('.compose-box', (el) => el.getBoundingClientRect().width > 0), 'with the compose box');
    await mia.waitForFunction((id) => !document.querySelector(`[data-stream-id="${id}"] .count`), {}, streamId);
    t.pass('reading the topic cleared the unread count');
  });

  await t.test('a message sent in one session appears live in the other', async (t) => {
    await owner.bringToFront();
    await openView(owner, hash);
    await owner.click('.compose-box');
    await owner.type('.compose-box', 'hello from Firefox');
    await waitForText(mia, '.typing', 'Olivia Owner is typing');
    t.pass('the other session sees the sender typing');
    await owner.keyboard.press('Enter');
    await waitForText(mia, '.message .content', 'hello from Firefox');
    await waitForText(owner, '.message .content', 'hello from Firefox');
    t.equal(await owner.$eval('.compose-box', (el) => (el as any).value), '', 'the compose box is empty after sending');
  });

  await t.test('star and react; the reaction shows in the other session', async (t) => {
    const last = await owner.waitForSelector('.message-list li:last-child .message');
    await last!.hover();
    await owner.click('.message-list li:last-child .star');
    await owner.waitForSelector('.message-list li:last-child .star-mark');
    await owner.waitForFunction(() => document.querySelector('.views a[href="#starred"] .count')?.textContent === '1');
    t.pass('starring shows the star mark and the Starred view counts it');

    t.equal(await reactToLast(owner, mia, 'octopus'), '🐙 1', 'the reaction shows in the phone-size session');
  });

  await t.test('edit one\'s own message from the phone-size session; @-mention autocomplete', async (t) => {
    await mia.bringToFront();
    await mia.click('.compose-box');
    await mia.type('.compose-box', 'mine @Oli');
    await waitForText(mia, '.autocomplete [role=option]', 'Olivia Owner');
    await mia.keyboard.press('Tab');
    t.equal(await mia.$eval('.compose-box', (el) => (el as any).value), `mine @**Olivia Owner|${s.owner.user_id}** `, 'Tab inserts the mention');
    await mia.keyboard.press('Enter');
    await waitForText(owner, '.message .content', 'mine @Olivia Owner');
    await mia.waitForSelector('.message-list li:last-child .edit-button');
    await mia.click('.message-list li:last-child .edit-button');
    await mia.waitForSelector('.message-list li:last-child .edit textarea');
    await mia.$eval('.message-list li:last-child .edit textarea', (el) => { (el as any).value = ''; });
    await mia.type('.message-list li:last-child .edit textarea', 'mine, edited');
    await mia.click('.message-list li:last-child .edit button[type=submit]');
    await waitForText(owner, '.message .content', 'mine, edited');
    await owner.waitForSelector('.message-list li:last-child .edited');
    t.pass('the edit and its (edited) mark show in the other session');
  });

  t.same(browser.foreignRequests, [], 'the pages made no request to any other host');
});
