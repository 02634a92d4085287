// The web client: time from opening the page (signed in, a channel of 10,000 messages in the
// address) to its message list painted, next to the sign-in page painted from the same server;
// and the size of the JavaScript and CSS it ships, gzipped (target: under 100 KB together).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { DEFAULT_WEB_CLIENT_DIR } from '../lib/http/web_client.js';
import { launchBrowser } from '../test/browser.js';
import { median, record } from './harness.js';
import { messageRowWriters, openBenchChat } from './chat.js';

// Inside page.evaluate callbacks (they run in the page).
declare const sessionStorage: any, requestAnimationFrame: any;

const GROUP = 'web client';
const MESSAGES = 10_000;
const ROUNDS = 5;

function shippedSizes(): void {
  const files = readdirSync(DEFAULT_WEB_CLIENT_DIR).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  const gzipped = (f: string) => gzipSync(readFileSync(join(DEFAULT_WEB_CLIENT_DIR, f))).length / 1024;
  for (const f of files) record({ group: GROUP, name: `shipped ${f.endsWith('.js') ? 'JavaScript' : 'CSS'} (gzipped)`, value: gzipped(f), unit: 'KB' });
  record({ group: GROUP, name: 'shipped JavaScript + CSS (gzipped)', value: files.reduce((sum, f) => sum + gzipped(f), 0), unit: 'KB', target: '< 100 KB' });
}

export async function run(): Promise<void> {
  shippedSizes();
  const bench = await openBenchChat();
  await bench.chat.close();
  const chat = createChatServer(bench.db, { logger: silentLogger, webClient: true });
  const address = await chat.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${address.port}`;
  const owner = bench.owner;
  chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'busy' }] });
  const streamId = (bench.db.prepare("SELECT id FROM stream WHERE name = 'busy'").get() as { id: number }).id;
  const { message, userMessage } = messageRowWriters(bench.db);
  bench.db.transaction(() => {
    for (let i = 0; i < MESSAGES; i++) {
      const id = Number(message.run(owner.user_id, streamId, `topic ${i % 50}`, `message ${i}`, `<p>message ${i}</p>`, 1_700_000_000 + i).lastInsertRowid);
      // All read but the last 20: the channel opens at its first unread, near the end.
      userMessage.run(owner.user_id, id, i < MESSAGES - 20 ? 1 : 0);
    }
  })();

  const browser = await launchBrowser(url);
  try {
    const page = await browser.page();
    const paintMs = async (hash: string, selector: string, signedIn: boolean): Promise<number> => {
      await page.goto(url + '/');
      await page.evaluate((email, key, signed) => {
        if (signed) sessionStorage.setItem('parley.credentials', JSON.stringify({ email, apiKey: key }));
        else sessionStorage.clear();
      }, owner.email, owner.api_key, signedIn);
      await page.goto(`${url}/?fresh=${Math.random()}${hash}`);
      await page.waitForSelector(selector);
      // From the navigation's start to the frame after the list is in the document.
      return page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))));
    };
    const times = async (hash: string, selector: string, signedIn: boolean) => {
      const all: number[] = [];
      for (let i = 0; i < ROUNDS + 1; i++) all.push(await paintMs(hash, selector, signedIn));
      return median(all.slice(1));
    };
    const signInPage = await times('', 'form.login-card', false);
    const list = await times(`#channel/${streamId}`, '.messages[data-loaded] .message', true);
    record({
      group: GROUP,
      name: `open page -> message list painted (channel of ${MESSAGES.toLocaleString('en-US')} messages)`,
      value: list,
      unit: 'ms',
      baseline: { name: 'open page -> sign-in form painted', value: signInPage },
    });
  } finally {
    await browser.close();
    await chat.close();
    await bench.close();
  }
}
