// The web client in a real headless Chromium: sign in, channels and topics, sending and seeing
// a message live in another session, unread counts, star, react, edit, delete, drafts synced
// between two sessions of one user, and reconnecting after the server restarts.
import { join } from 'node:path';
import t from 'tap';
import { createChatServer, type ChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { launchBrowser, openView, signIn, topicHash as topicHashIn, unreadCount as count, waitForText, type TestBrowser, reactToLast } from './browser.js';
import { openTestDatabase, startServer, type TestServer, type TestUser } from './helpers.js';
import { sendToStream, subscribe } from './messaging_helpers.js';

// Inside page.evaluate callbacks (they run in the page).
declare const document: any, location: any;

let s: TestServer;
let browser: TestBrowser;
let member: TestUser;
let streamId: number;
let restarted: { chat: ChatServer; db: { close(): void } } | undefined;

t.before(async () => {
  s = await startServer({ webClient: true });
  browser = await launchBrowser(s.url);
  member = await s.user('member', { fullName: 'Mia Member', password: 'member-password' });
  await subscribe(s, s.owner, ['general'], { principals: [s.owner.user_id, member.user_id] });
  streamId = (await s.request('GET', '/get_stream_id', { as: s.owner, params: { stream: 'general' } })).body.stream_id;
  for (let i = 1; i <= 3; i++) await sendToStream(s, s.owner, streamId, 'earlier', `earlier message ${i}`);
});

t.teardown(async () => {
  await browser?.close();
  await s?.close();
  await restarted?.chat.close();
  restarted?.db.close();
});

const topicHash = (topic: string) => topicHashIn(streamId, topic);

t.test('the web client end to end, in two sessions', async (t) => {
  const owner = await browser.page();
  const mia = await browser.page();

  await t.test('signing in shows the organization and the subscribed channels with unread counts', async (t) => {
    await signIn(owner, s.url, s.owner.email, 'owner-password');
    await signIn(mia, s.url, member.email, 'member-password');
    await waitForText(mia, '.channels', '#general');
    t.equal(await count(mia, `[data-stream-id="${streamId}"]`), '3', "Mia's channel shows her 3 unread messages");
    t.equal(await mia.$eval('.views a[href="#unread"] .count', (el) => el.textContent), '3', 'and the Unread view too');
    t.equal(await mia.evaluate(() => location.search + document.cookie), '', 'the API key is in no URL and no cookie');
  });

  await t.test('a channel expands to its topics, newest first, with their unread counts', async (t) => {
    await sendToStream(s, s.owner, streamId, 'newer', 'a newer topic');
    await mia.click(`[data-stream-id="${streamId}"] .expander`);
    await waitForText(mia, '.topics', 'newer');
    const topics = await mia.$$eval('.topics .topic-link', (els) => els.map((el) => el.textContent));
    t.same(topics, ['newer1', 'earlier3'], 'newest topic first, each with its unread count');
  });

  await t.test('opening a topic marks its messages read and the counts drop', async (t) => {
    await mia.bringToFront();
    await openView(mia, topicHash('earlier'));
    await mia.waitForFunction((id) => document.querySelector(`[data-stream-id="${id}"] .count`)?.textContent === '1', {}, streamId);
    t.pass('the channel count dropped from 4 to 1 (the other topic)');
    t.equal(await mia.$$eval('.message.unread', (els) => els.length), 0, 'no message is shown unread any more');
  });

  await t.test('a message sent in one session appears live in the other', async (t) => {
    await openView(owner, topicHash('live'));
    await openView(mia, topicHash('live'));
    await owner.click('.compose-box');
    await owner.type('.compose-box', 'hello from the browser');
    await waitForText(mia, '.typing', 'Olivia Owner is typing');
    t.pass('the other session sees the sender typing');
    await owner.keyboard.press('Enter');
    await waitForText(mia, '.message .content', 'hello from the browser');
    await mia.waitForFunction(() => document.querySelector('.typing') === null);
    t.pass('and no longer once the message arrived');
    await waitForText(owner, '.message .content', 'hello from the browser');
    t.equal(await owner.$eval('.compose-box', (el) => (el as any).value), '', 'the compose box is empty after sending');
  });

  await t.test('star, react, edit and delete one\'s own message', async (t) => {
    await owner.bringToFront();
    const last = await owner.waitForSelector('.message-list li:last-child .message');
    await last!.hover();
    await owner.click('.message-list li:last-child .star');
    await owner.waitForSelector('.message-list li:last-child .star-mark');
    t.pass('starring shows the star mark');
    await owner.waitForFunction(() => document.querySelector('.views a[href="#starred"] .count')?.textContent === '1');
    t.pass('and the Starred view counts it');

    t.equal(await reactToLast(owner, mia, 'octopus'), '🐙 1', 'the reaction shows in the other session');

    await owner.click('.message-list li:last-child .edit-button');
    await owner.waitForSelector('.message-list li:last-child .edit textarea');
    await owner.$eval('.message-list li:last-child .edit textarea', (el) => { (el as any).value = ''; });
    await owner.type('.message-list li:last-child .edit textarea', 'hello, edited');
    await owner.click('.message-list li:last-child .edit button[type=submit]');
    await waitForText(mia, '.message .content', 'hello, edited');
    await mia.waitForSelector('.message-list li:last-child .edited');
    t.pass('the edit and its (edited) mark show in the other session');

    await owner.click('.message-list li:last-child .delete');
    await mia.waitForFunction(() => ![...document.querySelectorAll('.message .content')].some((el) => el.textContent?.includes('hello, edited')));
    t.pass('the deleted message disappears from the other session');
  });

  await t.test('a spoiler stays hidden until its header is clicked', async (t) => {
    await mia.bringToFront();
    await sendToStream(s, s.owner, streamId, 'live', '```spoiler The **ending**\nThe butler did it.\n```');
    await mia.waitForSelector('.message-list li:last-child .spoiler-header');
    const shown = () => mia.$eval('.message-list li:last-child .spoiler-content', (el) => (globalThis as any).getComputedStyle(el).display);
    t.equal(await mia.$eval('.message-list li:last-child .spoiler-header strong', (el) => el.textContent), 'ending', 'the header is Markdown');
    t.equal(await shown(), 'none', 'the content is hidden');
    await mia.click('.message-list li:last-child .spoiler-header');
    t.equal(await shown(), 'block', 'clicking the header shows it');
  });

  await t.test('compose: @-mention autocomplete and the Markdown preview', async (t) => {
    await owner.bringToFront();
    await owner.click('.compose-box');
    await owner.type('.compose-box', '**bold** @Mi');
    await waitForText(owner, '.autocomplete [role=option]', 'Mia Member');
    await owner.keyboard.press('Tab');
    t.equal(await owner.$eval('.compose-box', (el) => (el as any).value), `**bold** @**Mia Member|${member.user_id}** `, 'Tab inserts the mention');
    await owner.click('.compose-actions button[type=button]');
    await owner.waitForSelector('.preview strong');
    t.equal(await owner.$eval('.preview strong', (el) => el.textContent), 'bold', 'the preview is the server\'s rendering');
    t.equal(await owner.$eval('.preview .user-mention', (el) => el.textContent), '@Mia Member', 'mention included');
    await owner.click('.compose-actions button[type=button]');
    await owner.waitForSelector('.compose-box');
    await sendToStream(s, member, streamId, 'live', 'worth quoting');
    await waitForText(owner, '.message .content', 'worth quoting');
    await owner.hover('.message-list li:last-child .message');
    await owner.click('.message-list li:last-child .quote');
    await owner.waitForFunction(() => document.querySelector('.compose-box').value.includes('said:\n> '));
    t.match(await owner.$eval('.compose-box', (el) => (el as any).value), `@_**Mia Member|${member.user_id}** said:\n> worth quoting\n`, 'Quote adds the message as a Markdown quote');
  });

  await t.test('a draft typed in one session shows in another and goes when the message is sent', async (t) => {
    const mia2 = await browser.page();
    await signIn(mia2, s.url, member.email, 'member-password');
    await mia2.evaluate(() => { location.hash = '#drafts'; });
    await mia.bringToFront();
    await mia.click('.compose-box');
    await mia.type('.compose-box', 'a thought in progress');
    await waitForText(mia2, '.draft-content', 'a thought in progress');
    t.pass('the draft reached the second session');
    await mia.keyboard.press('Enter');
    await waitForText(owner, '.message .content', 'a thought in progress');
    await mia2.waitForFunction(() => document.querySelectorAll('.draft').length === 0);
    t.pass('sent: the draft is gone from the second session');
    await mia2.close();
  });

  await t.test('after the server restarts the client reconnects, missing nothing and showing nothing twice', async (t) => {
    const port = Number(new URL(s.url).port);
    await s.chat.close();
    await mia.waitForSelector('[data-connection="reconnecting"]');
    t.pass('the client shows it is reconnecting');
    const db = openTestDatabase(join(s.dir, 'chat.db'));
    restarted = { db, chat: createChatServer(db, { logger: silentLogger, webClient: true }) };
    await restarted.chat.listen(port, '127.0.0.1');
    await sendToStream(s, s.owner, streamId, 'live', 'sent while reconnecting');
    await mia.waitForSelector('[data-connection="live"]');
    await waitForText(mia, '.message .content', 'sent while reconnecting');
    await sendToStream(s, s.owner, streamId, 'live', 'sent after reconnecting');
    await waitForText(mia, '.message .content', 'sent after reconnecting');
    const texts = await mia.$$eval('.message .content', (els) => els.map((el) => el.textContent?.trim()));
    t.equal(texts.filter((x) => x === 'sent while reconnecting').length, 1, 'the message sent during the outage shows once');
    t.equal(texts.filter((x) => x === 'sent after reconnecting').length, 1, 'and the next one too');
  });

  t.same(browser.foreignRequests, [], 'the pages made no request to any other host');
});
