// A headless browser for the web client's tests, driven by puppeteer-core: Debian's `chromium`
// (over the DevTools protocol) or Debian's `firefox-esr` (over WebDriver BiDi).
// A missing browser fails the test: CI installs both (.ci/run), so nothing is silently skipped.
// Every request the pages make is checked: only the test server's loopback address is allowed.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, LaunchOptions, Page, PuppeteerNode } from 'puppeteer-core';

// puppeteer-core's CommonJS build: tap's TypeScript loader resolves ES module imports with an old
// copy of Node's resolver that misreads chromium-bidi's "exports" pattern "./lib/cjs/*.js"
// (importing "BidiMapper.js.js"), which breaks the ES module build's WebDriver BiDi code (Firefox).
const puppeteer = createRequire(import.meta.url)('puppeteer-core') as PuppeteerNode;

// Inside page.evaluate callbacks (they run in the page).
declare const document: any, location: any;

export type BrowserName = 'chromium' | 'firefox';

const BROWSERS: Record<BrowserName, { command: string; env: string; launch: LaunchOptions }> = {
  chromium: {
    command: 'chromium',
    env: 'PARLEY_CHROMIUM',
    launch: {
      // Root in CI containers cannot use Chromium's sandbox.
      args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows'],
    },
  },
  firefox: { command: 'firefox-esr', env: 'PARLEY_FIREFOX', launch: { browser: 'firefox' } },
};

/** The browser's executable: $PARLEY_CHROMIUM / $PARLEY_FIREFOX, else the Debian package's command. */
export function browserPath(name: BrowserName): string {
  const { command, env } = BROWSERS[name];
  const fromEnv = process.env[env];
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('which', [command], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error(`${command} is not installed: apt-get install ${command} (or set ${env})`);
  }
}

/** Per page: the requests to hold back until a promise settles (holdRequests). */
const holds = new WeakMap<Page, (url: string) => Promise<void> | undefined>();

/** Holds each of the page's requests for which `hold` returns a promise until it settles. */
export function holdRequests(page: Page, hold: ((url: string) => Promise<void> | undefined) | undefined): void {
  if (hold) holds.set(page, hold);
  else holds.delete(page);
}

export interface TestBrowser {
  browser: Browser;
  /** Requests the pages tried to make to anything but the test server. */
  foreignRequests: string[];
  page(width?: number, height?: number): Promise<Page>;
  close(): Promise<void>;
}

/** `firefoxPrefs`: preferences of the Firefox profile (e.g. a push service stand-in's address). */
export async function launchBrowser(serverUrl: string, name: BrowserName = 'chromium', options: { firefoxPrefs?: Record<string, unknown> } = {}): Promise<TestBrowser> {
  const launch = { ...BROWSERS[name].launch, ...(options.firefoxPrefs ? { extraPrefsFirefox: options.firefoxPrefs } : {}) };
  const browser = await puppeteer.launch({ ...launch, executablePath: browserPath(name), headless: true });
  const origin = new URL(serverUrl).origin;
  const foreignRequests: string[] = [];
  return {
    browser,
    foreignRequests,
    async page(width = 1200, height = 800) {
      // Its own browser context: its own sessionStorage, like another browser.
      const context = await browser.createBrowserContext();
      const page = await context.newPage();
      await page.setViewport({ width, height });
      // Waits poll by interval unless a test says otherwise: puppeteer's default polls on
      // animation frames, and a page in a background tab or window gets none (Firefox gives a
      // page brought to the front none either until it is painted again).
      const waitForFunction = page.waitForFunction.bind(page);
      page.waitForFunction = ((fn: any, options: any = {}, ...args: any[]) => waitForFunction(fn, { polling: 100, ...options }, ...args)) as Page['waitForFunction'];
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        const url = request.url();
        if (url.startsWith(origin + '/') || url.startsWith('data:')) {
          const held = holds.get(page)?.(url);
          if (held) void held.then(() => request.continue());
          else void request.continue();
        } else {
          foreignRequests.push(url);
          void request.abort();
        }
      });
      page.on('dialog', (dialog) => void dialog.accept());
      return page;
    },
    close: () => browser.close(),
  };
}

/** Signs in through the form and waits for the signed-in layout. */
export async function signIn(page: Page, url: string, email: string, password: string): Promise<void> {
  await page.goto(url + '/');
  await page.waitForSelector('input[name=email]');
  await page.type('input[name=email]', email);
  await page.type('input[name=password]', password);
  await page.click('button[type=submit]');
  await page.waitForSelector('nav.sidebar .channels');
}

/** Waits until an element matching the selector shows the text. */
export async function waitForText(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForFunction(
    (sel, txt) => [...document.querySelectorAll(sel)].some((el) => el.textContent?.includes(txt)),
    // An interval, not animation frames: a page in a background tab gets no frames.
    { polling: 100 },
    selector,
    text,
  );
}

/** Opens a view by its `#` address and waits until its messages are loaded. */
export async function openView(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => { location.hash = h; }, hash);
  await page.waitForSelector(`.messages[data-loaded="${hash}"]`);
}

/** The unread count shown inside the element matching the selector ('0' when none is shown). */
export const unreadCount = (page: Page, selector: string) => page.$eval(selector, (el) => el.querySelector('.count')?.textContent ?? '0');

/** The `#` address of a topic. */
export const topicHash = (streamId: number, topic: string) => `#channel/${streamId}/topic/${encodeURIComponent(topic)}`;

/**
 * Reacts with `emoji` to the last message of `page`'s list through the picker, waits for the
 * reaction in `other`'s list, and returns how it shows there ("🐙 1").
 */
export async function reactToLast(page: Page, other: Page, emoji: string): Promise<string | undefined> {
  // A message's actions are there once it is hovered or focused.
  await page.hover('.message-list li:last-child .message');
  await page.click('.message-list li:last-child .react');
  await page.waitForSelector('.emoji-picker input');
  await page.type('.emoji-picker input', emoji);
  await page.waitForSelector(`.emoji-grid button[data-emoji="${emoji}"]`);
  await page.click(`.emoji-grid button[data-emoji="${emoji}"]`);
  await other.waitForSelector(`.message-list li:last-child .reaction[data-emoji="${emoji}"]`);
  return other.$eval('.message-list li:last-child .reaction', (el) => el.textContent?.trim());
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/**
 * The serious and critical accessibility violations axe-core finds in the page as it is now
 * (contrast, names, roles, focus order). axe is evaluated by the test driver: the page's CSP lets
 * no script of its own be injected.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const results = await page.evaluate(async () => {
    const axe = (globalThis as any).axe;
    const { violations } = await axe.run(document, { resultTypes: ['violations'] });
    return violations.map((v: any) => ({ id: v.id, impact: v.impact, targets: v.nodes.slice(0, 3).map((n: any) => n.target.join(' ')) }));
  });
  return (results as { id: string; impact: string; targets: string[] }[])
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(', ')}`);
}

/**
 * Grants the page's origin the Notification permission (Chromium over the DevTools protocol,
 * Firefox over WebDriver BiDi) and records each notification the page shows in
 * `window.parleyNotifications`; the notifications themselves are the browser's own.
 */
export async function recordNotifications(page: Page, url: string): Promise<void> {
  await page.browserContext().overridePermissions(new URL(url).origin, ['notifications']);
  await page.evaluateOnNewDocument(() => {
    const w = globalThis as any;
    const Real = w.Notification;
    if (!Real) return;
    w.parleyNotifications = [];
    class Recorded extends Real {
      constructor(title: string, options?: { body?: string }) {
        super(title, options);
        w.parleyNotifications.push({ title, body: options?.body ?? '' });
      }
    }
    Object.defineProperty(Recorded, 'permission', { get: () => Real.permission });
    (Recorded as any).requestPermission = (...args: unknown[]) => Real.requestPermission(...args);
    w.Notification = Recorded;
  });
}
