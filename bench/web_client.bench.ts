// The web client: time from opening the page (signed in, a channel of 10,000 messages in the
// address) to its message list painted, next to the sign-in page painted from the same server;
// and the size of the JavaScript and CSS it ships, gzipped (target: under 100 KB together).
// BENCH_COMPARE_ROOT=<another checkout> measures that checkout's server and client in the same
// rounds (before/after figures from one run).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createRequire } from 'node:module';
import type { Page, PuppeteerNode } from 'puppeteer-core';
import { browserPath } from '../test/browser.js';
import { median, record } from './harness.js';
import type { Account } from './chat.js';
import { startBenchServer } from './load.js';

// Inside page.evaluate callbacks (they run in the page).
declare const sessionStorage: any, localStorage: any, requestAnimationFrame: any, document: any, window: any, MutationObserver: any, MessageChannel: any;

const puppeteer = createRequire(import.meta.url)('puppeteer-core') as PuppeteerNode;
const GROUP = 'web client';
const MESSAGES = 10_000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 15);
const SIGN_IN_FORM = 'form.login-card';
const MESSAGE_LIST = '.messages[data-loaded] .message';

/** One checkout's server (in a child process), serving its own built client, with the channel of 10,000 messages. */
interface Subject {
  /** '' for this checkout, else the compared checkout's path (appended to its figures' names). */
  label: string;
  url: string;
  streamId: number;
  owner: Account;
  /** The owner's session cookie (a checkout before sessions has none: its client reads sessionStorage). */
  session: { name: string; value: string } | undefined;
  webDir: string;
  stop(): void;
}

async function startSubject(root: string | undefined): Promise<Subject> {
  const server = await startBenchServer<{ owner: Account; streamId: number; ownerPassword: string }>('parley', { BENCH_WEB_MESSAGES: String(MESSAGES), ...(root && { BENCH_PARLEY_ROOT: root }) });
  return {
    label: root ?? '',
    url: server.url,
    streamId: server.info.streamId,
    owner: server.info.owner,
    session: await signIn(server.url, server.info.owner.email, server.info.ownerPassword),
    webDir: join(root ?? join(import.meta.dirname, '..'), 'dist/web'),
    stop: () => server.stop(),
  };
}

/** POST /sessions as the web client's sign-in form does: the session cookie it sets. */
async function signIn(url: string, email: string, password: string): Promise<{ name: string; value: string } | undefined> {
  const response = await fetch(`${url}/api/v1/sessions`, { method: 'POST', body: new URLSearchParams({ username: email, password }) });
  const cookie = response.ok ? response.headers.get('set-cookie')?.split(';')[0] : undefined;
  if (cookie === undefined) return undefined;
  const at = cookie.indexOf('=');
  return { name: cookie.slice(0, at), value: cookie.slice(at + 1) };
}

function shippedSizes(dir: string, label: string): void {
  const files = readdirSync(dir).filter((f) => f.endsWith('.js') || f.endsWith('.css'));
  const gzipped = (f: string) => gzipSync(readFileSync(join(dir, f))).length / 1024;
  const suffix = label ? `, ${label}` : '';
  for (const [kind, ext] of [['JavaScript', '.js'], ['CSS', '.css']] as const) {
    record({ group: GROUP, name: `shipped ${kind} (gzipped)${suffix}`, value: files.filter((f) => f.endsWith(ext)).reduce((sum, f) => sum + gzipped(f), 0), unit: 'KB' });
  }
  record({ group: GROUP, name: `shipped JavaScript + CSS (gzipped)${suffix}`, value: files.reduce((sum, f) => sum + gzipped(f), 0), unit: 'KB', target: '< 100 KB' });
}

/**
 * Milliseconds from the navigation's start to the frame that first shows the page's `selector`
 * (a mutation observer in the page notes when it is in the document; the next animation frame
 * paints it, and the task after that frame's callbacks runs once it is painted); and, as this bench measured it before, to an animation
 * frame the driver asks for once it has seen the selector (two DevTools round trips later, after
 * whatever the page does right after its first paint). Each
 * subject has its own tab (and browser context: cache, kept-alive connections); between two
 * measurements the tab shows about:blank, and the back/forward cache is off, so no page left
 * behind keeps a request going while the next one is measured. No request interception (a
 * DevTools round trip per request that the client's users do not pay).
 */
async function paintMs(page: Page, s: Subject, signedIn: boolean): Promise<{ frame: number; driver: number }> {
  // The tab is signed in as if the owner had signed in here before, or not: by the session cookie
  // and the client's note that it was (web/src/signed_in_hint.ts), or (a checkout before
  // sessions) by the credentials set before the page's own script runs.
  if (s.session && signedIn) await page.setCookie({ ...s.session, url: s.url });
  else if (s.session) await page.deleteCookie({ name: s.session.name, url: s.url });
  const selector = signedIn ? MESSAGE_LIST : SIGN_IN_FORM;
  const { identifier } = await page.evaluateOnNewDocument(
    (email, apiKey, signed, sel) => {
      if (signed) {
        sessionStorage.setItem('parley.credentials', JSON.stringify({ email, apiKey }));
        localStorage.setItem('parley.signedIn:/', '1');
      } else {
        sessionStorage.clear();
        localStorage.removeItem('parley.signedIn:/');
      }
      const seen = new MutationObserver(() => {
        if (!document.querySelector(sel)) return;
        seen.disconnect();
        // The frame's style, layout and paint follow its animation frame callbacks: the task
        // after them runs once it is painted.
        requestAnimationFrame(() => {
          const after = new MessageChannel();
          after.port1.onmessage = () => { window.parleyBenchFrame = performance.now(); };
          after.port2.postMessage(null);
        });
      });
      seen.observe(document, { childList: true, subtree: true, attributes: true });
    },
    s.owner.email,
    s.owner.api_key,
    signedIn,
    selector,
  );
  try {
    await page.goto(`${s.url}/?fresh=${Math.random()}${signedIn ? `#channel/${s.streamId}` : ''}`);
    await page.waitForSelector(selector);
    const driver = await page.evaluate(() => new Promise<number>((resolve) => requestAnimationFrame(() => resolve(performance.now()))));
    await page.waitForFunction(() => window.parleyBenchFrame !== undefined, { polling: 10 });
    return { frame: await page.evaluate(() => window.parleyBenchFrame as number), driver };
  } finally {
    await page.removeScriptToEvaluateOnNewDocument(identifier);
    await page.goto('about:blank');
  }
}

export async function run(): Promise<void> {
  const compareRoot = process.env.BENCH_COMPARE_ROOT;
  const subjects = [await startSubject(undefined)];
  if (compareRoot) subjects.push(await startSubject(compareRoot));
  for (const s of subjects) shippedSizes(s.webDir, s.label);

  const browser = await puppeteer.launch({
    executablePath: browserPath('chromium'),
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-features=BackForwardCache'],
  });
  try {
    const pages = await Promise.all(
      subjects.map(async () => {
        const page = await (await browser.createBrowserContext()).newPage();
        await page.setViewport({ width: 1200, height: 800 });
        return page;
      }),
    );
    const times = subjects.map(() => ({ signIn: [] as number[], list: [] as number[], signInDriver: [] as number[], listDriver: [] as number[] }));
    // Rounds alternate the subjects and the two pages, so that the machine's drift within the
    // run weighs on every figure alike; the first round warms the caches and is left out.
    for (let round = 0; round <= ROUNDS; round++) {
      for (const [i, s] of subjects.entries()) {
        const signIn = await paintMs(pages[i]!, s, false);
        const list = await paintMs(pages[i]!, s, true);
        if (process.env.BENCH_VERBOSE) console.log(`    round ${round} ${s.label || 'this checkout'}: sign-in ${signIn.frame.toFixed(0)} ms, list ${list.frame.toFixed(0)} ms (seen by the driver: ${signIn.driver.toFixed(0)}, ${list.driver.toFixed(0)})`);
        if (round === 0) continue;
        times[i]!.signIn.push(signIn.frame);
        times[i]!.list.push(list.frame);
        times[i]!.signInDriver.push(signIn.driver);
        times[i]!.listDriver.push(list.driver);
      }
    }
    for (const [i, s] of subjects.entries()) {
      const { signIn, list, signInDriver, listDriver } = times[i]!;
      // The spread, from the two pages of each round (measured a moment apart).
      const ratios = list.map((l, r) => l / signIn[r]!).sort((a, b) => a - b);
      const at = (q: number) => `${(ratios[Math.floor(q * (ratios.length - 1))]! * 100).toFixed(0)}%`;
      console.log(`    ${s.label || 'this checkout'}: list / sign-in per round: median ${at(0.5)}, middle half ${at(0.25)}-${at(0.75)}, all ${at(0)}-${at(1)}`);
      record({
        group: GROUP,
        name: `open page -> message list painted (channel of ${MESSAGES.toLocaleString('en-US')} messages)${s.label ? `, ${s.label}` : ''}`,
        value: median(list),
        unit: 'ms',
        baseline: { name: 'open page -> sign-in form painted', value: median(signIn) },
        target: '<= 150% of baseline',
      });
      record({
        group: GROUP,
        name: `the same, as the driver sees it (the frame it asks for after finding the list)${s.label ? `, ${s.label}` : ''}`,
        value: median(listDriver),
        unit: 'ms',
        baseline: { name: 'the sign-in form, as the driver sees it', value: median(signInDriver) },
      });
    }
  } finally {
    await browser.close();
    for (const s of subjects) s.stop();
  }
}
