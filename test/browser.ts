// A headless Chromium for the web client's tests (Debian's `chromium`, driven by puppeteer-core).
// A missing browser fails the test: CI installs it (.ci/run), so nothing is silently skipped.
// Every request the pages make is checked: only the test server's loopback address is allowed.
import { execFileSync } from 'node:child_process';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

// Inside page.evaluate callbacks (they run in the page).
declare const document: any;

export function chromiumPath(): string {
  const fromEnv = process.env.PARLEY_CHROMIUM;
  if (fromEnv) return fromEnv;
  try {
    return execFileSync('which', ['chromium'], { encoding: 'utf8' }).trim();
  } catch {
    throw new Error('chromium is not installed: apt-get install chromium (or set PARLEY_CHROMIUM)');
  }
}

export interface TestBrowser {
  browser: Browser;
  /** Requests the pages tried to make to anything but the test server. */
  foreignRequests: string[];
  page(width?: number, height?: number): Promise<Page>;
  close(): Promise<void>;
}

export async function launchBrowser(serverUrl: string): Promise<TestBrowser> {
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // Root in CI containers cannot use Chromium's sandbox.
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-renderer-backgrounding', '--disable-backgrounding-occluded-windows'],
  });
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
      await page.setRequestInterception(true);
      page.on('request', (request) => {
        const url = request.url();
        if (url.startsWith(origin + '/') || url.startsWith('data:')) void request.continue();
        else {
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
    {},
    selector,
    text,
  );
}
