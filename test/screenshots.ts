// Makes the screenshots of docs/web-client.md and the README (wide and narrow) from a demo
// organization in the test browser: `node --import @tapjs/typescript/import test/screenshots.ts`
// after `npm run build`. Not a test: tap runs only *.test.ts files.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser, signIn } from './browser.js';
import { startServer } from './helpers.js';
import { sendDirect, sendToStream, subscribe } from './messaging_helpers.js';

// Inside page.evaluate callbacks (they run in the page).
declare const location: any;

const out = fileURLToPath(new URL('../docs/screenshots/', import.meta.url));
const s = await startServer({ webClient: true, realm: { name: 'Lighthouse Co-op' } });
const mia = await s.user('member', { fullName: 'Mia Member', password: 'member-password' });
const sam = await s.user('member', { fullName: 'Sam Sailor' });
await subscribe(s, s.owner, ['general', 'harbour', 'random'], { principals: [s.owner.user_id, mia.user_id, sam.user_id] });
const general = (await s.request('GET', '/get_stream_id', { as: s.owner, params: { stream: 'general' } })).body.stream_id as number;
const harbour = (await s.request('GET', '/get_stream_id', { as: s.owner, params: { stream: 'harbour' } })).body.stream_id as number;
await sendToStream(s, s.owner, general, 'welcome', 'Welcome to **parley**! This is the web client that comes with the server.');
const id = await sendToStream(s, sam, general, 'welcome', 'Thanks! Markdown works: `code`, *emphasis*, and\n```quote\nquoted text\n```');
await s.request('POST', `/messages/${id}/reactions`, { as: s.owner, params: { emoji_name: 'tada' } });
await sendToStream(s, mia, general, 'welcome', `@**Sam Sailor|${sam.user_id}** see you at the harbour at 6.`);
await sendToStream(s, sam, harbour, 'tides', 'High tide is at 17:42 today.');
await sendToStream(s, sam, harbour, 'boats', 'The blue boat is back in the water.');
await sendDirect(s, sam, [mia.user_id], 'Can you bring the charts?');

const browser = await launchBrowser(s.url);
try {
  const wide = await browser.page(1280, 800);
  await signIn(wide, s.url, mia.email, 'member-password');
  await wide.evaluate((h) => { location.hash = h; }, `#channel/${general}/topic/welcome`);
  await wide.waitForSelector('.messages[data-loaded] .message');
  await wide.click(`[data-stream-id="${harbour}"] .expander`);
  await wide.waitForSelector('.topics .topic-link');
  await wide.screenshot({ path: join(out, 'web-client-wide.png') });
  const narrow = await browser.page(390, 760);
  await signIn(narrow, s.url, mia.email, 'member-password');
  await narrow.evaluate((h) => { location.hash = h; }, `#channel/${general}/topic/welcome`);
  await narrow.waitForSelector('.messages[data-loaded] .message');
  await narrow.screenshot({ path: join(out, 'web-client-narrow.png') });
  const login = await browser.page(1280, 800);
  await login.goto(s.url + '/');
  await login.waitForSelector('form.login-card');
  await login.screenshot({ path: join(out, 'web-client-login.png') });
} finally {
  await browser.close();
  await s.close();
}
