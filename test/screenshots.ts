// Makes the screenshots of docs/web-client.md and the README (wide and narrow) from a demo
// organization in the test browser: `node --import @tapjs/typescript/import test/screenshots.ts`
// after `npm run build`. Not a test: tap runs only *.test.ts files.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'puppeteer-core';
import { launchBrowser, signIn } from './browser.js';
import { startServer } from './helpers.js';
import { sendDirect, sendToStream, subscribe } from './messaging_helpers.js';

// Inside page.evaluate callbacks (they run in the page).
declare const location: any, document: any;

const out = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const fresh = await startServer({ webClient: true, realm: { name: 'Lighthouse Co-op' } });
const s = await startServer({ webClient: true, realm: { name: 'Lighthouse Co-op' } });
const mia = await s.user('member', { fullName: 'Mia Member', password: 'member-password' });
const sam = await s.user('member', { fullName: 'Sam Sailor' });
const ada = await s.user('member', { fullName: 'Ada Anchor' });
await subscribe(s, s.owner, ['general', 'harbour', 'random'], { principals: [s.owner.user_id, mia.user_id, sam.user_id] });
await s.request('POST', '/users/me/subscriptions', { as: s.owner, params: { subscriptions: JSON.stringify([{ name: 'regatta', description: 'Planning the **summer regatta**' }]) } });
const general = (await s.request('GET', '/get_stream_id', { as: s.owner, params: { stream: 'general' } })).body.stream_id as number;
const harbour = (await s.request('GET', '/get_stream_id', { as: s.owner, params: { stream: 'harbour' } })).body.stream_id as number;
await s.request('PATCH', `/streams/${harbour}`, { as: s.owner, params: { description: 'Boats, tides and the harbour office' } });
await sendToStream(s, s.owner, general, 'welcome', 'Welcome to **parley**! This is the web client that comes with the server.');
const id = await sendToStream(s, sam, general, 'welcome', 'Thanks! Markdown works: `code`, *emphasis*, and\n```quote\nquoted text\n```');
await s.request('POST', `/messages/${id}/reactions`, { as: s.owner, params: { emoji_name: 'tada' } });
await sendToStream(s, mia, general, 'welcome', `@**Sam Sailor|${sam.user_id}** see you at the harbour at 6.`);
await sendToStream(s, sam, harbour, 'tides', 'High tide is at 17:42 today.');
await sendToStream(s, sam, harbour, 'boats', 'The blue boat is back in the water.');
await sendDirect(s, sam, [mia.user_id], 'Can you bring the charts?');
await s.request('POST', '/users/me/presence', { as: sam, params: { status: 'active' } });
await s.request('POST', '/users/me/presence', { as: ada, params: { status: 'idle' } });
await s.request('POST', '/users/me/status', { as: sam, params: { status_text: 'On the water', emoji_name: 'sailboat' } });

const browser = await launchBrowser(s.url);
const shot = (page: Page, name: string) => page.screenshot({ path: join(out, `web-client-${name}.png`) });
const go = async (page: Page, hash: string, selector: string) => {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForSelector(selector);
  await page.evaluate(() => document.activeElement?.blur());
};
try {
  const wide = await browser.page(1280, 800);
  await signIn(wide, s.url, mia.email, 'member-password');
  await go(wide, `#channel/${general}/topic/welcome`, '.messages[data-loaded] .message');
  await wide.click(`[data-stream-id="${harbour}"] .expander`);
  await wide.waitForSelector('.topics .topic-link');
  await shot(wide, 'wide');
  await wide.click(`.people-list [data-user-id="${sam.user_id}"] .person`);
  await wide.waitForSelector('.profile-card');
  await shot(wide, 'profile-card');
  await wide.keyboard.press('Escape');
  await go(wide, '#recent', '.conversations');
  await shot(wide, 'recent');
  await go(wide, '#inbox', '.inbox');
  await wide.click('.view');
  await wide.keyboard.press('x');
  await wide.waitForSelector('.compose-to [role=combobox]');
  await wide.type('.compose-to [role=combobox]', 'sa');
  await wide.waitForSelector('.picker-suggestions');
  await shot(wide, 'inbox-new-dm');
  await go(wide, '#channels/all', '.channel-cards');
  await shot(wide, 'channels');
  await go(wide, '#channels/new', '.new-channel');
  await shot(wide, 'new-channel');
  await go(wide, '#search/%22blue%20boat%22', '.messages[data-loaded] .message');
  await shot(wide, 'search');
  for (const section of ['profile', 'account', 'notifications', 'display', 'status', 'topics', 'bots']) {
    await go(wide, `#settings/${section}`, `.section-nav [aria-current=page][href="#settings/${section}"]`);
    await shot(wide, `settings-${section}`);
  }
  const admin = await browser.page(1280, 800);
  await signIn(admin, s.url, s.owner.email, 'owner-password');
  await go(admin, `#channels/${harbour}`, '.channel-settings input[name=name]');
  await shot(admin, 'channel-settings');
  for (const section of ['users', 'invitations', 'profile', 'emoji', 'linkifiers', 'default-channels', 'statuses']) {
    await go(admin, `#organization/${section}`, `.section-nav [aria-current=page][href="#organization/${section}"]`);
    await shot(admin, `organization-${section}`);
  }
  const narrow = await browser.page(390, 760);
  await signIn(narrow, s.url, mia.email, 'member-password');
  await go(narrow, `#channel/${general}/topic/welcome`, '.messages[data-loaded] .message');
  await shot(narrow, 'narrow');
  await narrow.click('.people-button');
  await narrow.waitForSelector('.people-list li');
  await shot(narrow, 'narrow-people');
  await go(narrow, '#channels/all', '.channel-cards');
  await shot(narrow, 'narrow-channels');
  await go(narrow, '#settings/notifications', '.section-body fieldset');
  await shot(narrow, 'narrow-settings');
  const login = await browser.page(1280, 800);
  await login.goto(s.url + '/');
  await login.waitForSelector('form.login-card');
  await shot(login, 'login');
  const other = await launchBrowser(fresh.url);
  try {
    const first = await other.page(1280, 800);
    await signIn(first, fresh.url, fresh.owner.email, 'owner-password');
    await first.waitForSelector('.onboarding');
    await shot(first, 'onboarding');
  } finally {
    await other.close();
  }
} finally {
  await browser.close();
  await s.close();
  await fresh.close();
}
