// What a team does in the web client, run in Chromium (web_client_team.test.ts) and Firefox
// (web_client_team_firefox.test.ts): a new organization's first page, composing from anywhere
// with the keyboard, finding a person and starting a direct message that arrives live with a
// desktop notification, a group direct message, creating a channel that appears for its members,
// browsing and joining channels, search with highlighting, settings that persist across sign-in,
// an administrator renaming the organization and deactivating a user whose session then stops, and
// axe-core on every page.
import type { Page } from 'puppeteer-core';
import type { Test } from 'tap';
import { axeViolations, launchBrowser, recordNotifications, signIn, waitForText, type BrowserName } from './browser.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { sendToStream, subscribe } from './messaging_helpers.js';

// Inside page.evaluate callbacks (they run in the page).
declare const document: any, location: any, window: any;

const go = (page: Page, hash: string) => page.evaluate((h) => { location.hash = h; }, hash);
const value = (page: Page, selector: string) => page.$eval(selector, (el) => (el as any).value as string);
const checked = (page: Page, selector: string) => page.$eval(selector, (el) => (el as any).checked as boolean);

async function clearAndType(page: Page, selector: string, text: string): Promise<void> {
  await page.$eval(selector, (el) => { (el as any).value = ''; });
  await page.type(selector, text);
}

/** Adds a person to a recipient picker by typing their name and pressing Enter. */
async function pick(page: Page, input: string, name: string): Promise<void> {
  await page.type(input, name);
  await waitForText(page, '.picker-suggestions [role=option]', name);
  await page.keyboard.press('Enter');
}

export async function teamScenario(t: Test, browserName: BrowserName): Promise<void> {
  let s: TestServer | undefined;
  const browser = await (async () => {
    s = await startServer({ webClient: true, realm: { name: 'Lighthouse Co-op' } });
    return launchBrowser(s.url, browserName);
  })();
  t.teardown(async () => {
    await browser.close();
    await s?.close();
  });
  const server = s!;
  const url = server.url;
  const mia = await server.user('member', { fullName: 'Mia Member', password: 'mia-password' });
  const sam: TestUser = await server.user('member', { fullName: 'Sam Sailor', password: 'sam-password' });
  await subscribe(server, server.owner, ['general'], { principals: [server.owner.user_id, mia.user_id, sam.user_id] });
  const general = (await server.request('GET', '/get_stream_id', { as: server.owner, params: { stream: 'general' } })).body.stream_id as number;
  const axeFindings: Record<string, string[]> = {};
  const audit = async (page: Page, name: string) => {
    const found = await axeViolations(page);
    if (found.length > 0) axeFindings[name] = found;
  };

  const owner = await browser.page();
  const miaPage = await browser.page();
  const samPage = await browser.page();

  await t.test("a new organization's first page says what to do, and composing works from the Unread view", async (t) => {
    await owner.bringToFront();
    await signIn(owner, url, server.owner.email, 'owner-password');
    await waitForText(owner, '.onboarding', 'Create a channel');
    await owner.waitForSelector('.onboarding a[href="#organization/invitations"]');
    t.pass('it offers inviting people');
    t.ok(await owner.$('.compose .new-message'), 'and a compose action');
    await audit(owner, 'unread (onboarding)');
    await owner.click('.view');
    await owner.keyboard.press('c');
    await owner.waitForFunction(() => document.activeElement?.matches('.compose-to select'));
    t.equal(await owner.$eval('.compose-to select', (el) => el.selectedOptions[0]?.textContent), '#general', 'c opens a channel message with a channel picker');
    await owner.type('.compose-to .topic-input', 'welcome');
    await owner.click('.compose-box');
    await owner.type('.compose-box', 'Welcome aboard, everyone.');
    await owner.keyboard.press('Enter');
    await owner.waitForFunction(() => !document.querySelector('.compose-to'));
    const sent = await server.request('GET', '/messages', { as: server.owner, params: { anchor: 'newest', num_before: 1, num_after: 0, narrow: '[]' } });
    t.match(sent.body.messages[0], { subject: 'welcome', content: '<p>Welcome aboard, everyone.</p>' }, 'the message went to the chosen channel and topic');
  });

  await t.test('a member finds a person in the list and starts a direct message; it arrives live with a desktop notification', async (t) => {
    await recordNotifications(samPage, url);
    await signIn(samPage, url, sam.email, 'sam-password');
    await signIn(miaPage, url, mia.email, 'mia-password');
    // Sam looks at another tab: parley's is open but hidden.
    const samElsewhere = await samPage.browserContext().newPage();
    await samElsewhere.bringToFront();
    await miaPage.bringToFront();
    await miaPage.waitForSelector(`.people-list [data-user-id="${sam.user_id}"][data-presence="active"]`);
    t.pass("Sam shows as active in Mia's list");
    await miaPage.type('.people-search', 'sam');
    await miaPage.waitForFunction(() => document.querySelectorAll('.people-list li').length === 1);
    await miaPage.click(`.people-list [data-user-id="${sam.user_id}"] .person`);
    await waitForText(miaPage, '.profile-card h2', 'Sam Sailor');
    t.match(await miaPage.$eval('.profile-card', (el) => el.textContent), /Member/, 'the profile card shows the role');
    await audit(miaPage, 'profile card');
    await miaPage.click('.profile-card .send-dm');
    await miaPage.waitForSelector(`.messages[data-loaded="#dm/${[mia.user_id, sam.user_id].sort((a, b) => a - b).join(',')}"]`);
    await miaPage.waitForFunction(() => document.activeElement?.classList.contains('compose-box'));
    await miaPage.keyboard.type('Hello Sam, welcome!');
    await miaPage.keyboard.press('Enter');
    await waitForText(samPage, '.dms', 'Mia Member');
    await waitForText(samPage, '.message .content', 'Hello Sam, welcome!');
    t.pass("the message arrives live in Sam's session");
    await samPage.waitForFunction(() => window.parleyNotifications?.length > 0, { polling: 100 });
    t.same(await samPage.evaluate(() => window.parleyNotifications), [{ title: 'Mia Member (to you)', body: 'Hello Sam, welcome!' }], 'with a desktop notification');
    t.match(await samPage.title(), /^\(\d+\) /, 'and the unread count in the tab title');
    await samElsewhere.close();
  });

  await t.test('x starts a group direct message with several people', async (t) => {
    await miaPage.bringToFront();
    await go(miaPage, '#recent');
    await miaPage.waitForSelector('.conversations');
    await audit(miaPage, 'recent conversations');
    await miaPage.click('.view');
    await miaPage.keyboard.press('x');
    await miaPage.waitForFunction(() => document.activeElement?.matches('.compose-to [role=combobox]'));
    await pick(miaPage, '.compose-to [role=combobox]', 'Sam');
    await pick(miaPage, '.compose-to [role=combobox]', 'Olivia');
    await audit(miaPage, 'compose with recipients');
    await miaPage.click('.compose-box');
    await miaPage.type('.compose-box', 'Hello both of you.');
    await miaPage.keyboard.press('Enter');
    await waitForText(owner, '.dms', 'Mia Member, Sam Sailor');
    t.pass('the group conversation shows for the other two');
    await waitForText(miaPage, '.conversations', 'Olivia Owner, Sam Sailor');
    t.pass("and in Mia's Recent conversations");
  });

  await t.test('a channel created in the browser appears for its members; others browse and join channels', async (t) => {
    await owner.bringToFront();
    await go(owner, '#channels/new');
    await owner.waitForSelector('.new-channel input[name=name]');
    await audit(owner, 'create a channel');
    await owner.type('.new-channel input[name=name]', 'harbour');
    await owner.type('.new-channel textarea[name=description]', 'Boats and **tides**');
    await owner.click('.new-channel input[value=private]');
    await pick(owner, '.new-channel [role=combobox]', 'Mia');
    await owner.click('.new-channel button[type=submit]');
    await owner.waitForFunction(() => location.hash.startsWith('#channel/'));
    await waitForText(miaPage, '.channels', '#harbour');
    t.pass("the private channel appears in its member's channel list");
    await server.request('POST', '/users/me/subscriptions', { as: server.owner, params: { subscriptions: JSON.stringify([{ name: 'random', description: 'Anything else' }]) } });
    await samPage.bringToFront();
    await go(samPage, '#channels/all');
    await waitForText(samPage, '.channel-cards', 'random');
    t.notMatch(await samPage.$eval('.channel-cards', (el) => el.textContent), /harbour/, 'a non-member does not see the private channel');
    t.match(await samPage.$eval('.channel-cards', (el) => el.textContent), /Anything else/, 'channels show their descriptions');
    await audit(samPage, 'channel browser');
    const random = (await server.request('GET', '/get_stream_id', { as: server.owner, params: { stream: 'random' } })).body.stream_id as number;
    await samPage.click(`.channel-card[data-stream-id="${random}"] .subscribe`);
    await waitForText(samPage, '.channels', '#random');
    t.pass('subscribing from the browser adds it to the channel list');
    const harbour = (await server.request('GET', '/get_stream_id', { as: server.owner, params: { stream: 'harbour' } })).body.stream_id as number;
    await go(owner, `#channels/${harbour}`);
    await owner.waitForSelector('.channel-settings input[name=name]');
    await audit(owner, 'channel settings');
    await clearAndType(owner, '.channel-settings input[name=name]', 'harbour-office');
    await owner.click('.channel-settings button[type=submit]');
    await waitForText(miaPage, '.channels', '#harbour-office');
    t.pass('renaming shows for its members');
  });

  await t.test('search finds a phrase and shows the matches highlighted', async (t) => {
    await sendToStream(server, sam, general, 'boats', 'The blue boat is back in the water.');
    await sendToStream(server, sam, general, 'boats', 'A boat, and something blue.');
    await miaPage.bringToFront();
    await miaPage.click('.search input');
    await miaPage.type('.search input', '"blue boat" channel:general');
    await miaPage.keyboard.press('Enter');
    await miaPage.waitForSelector('.messages[data-loaded^="#search/"] .message');
    const found = await miaPage.$$eval('.message .content', (els) => els.map((el) => el.textContent?.trim()));
    t.same(found, ['The blue boat is back in the water.'], 'only the message with the phrase');
    t.same(await miaPage.$$eval('.message .content .highlight', (els) => els.map((el) => el.textContent)), ['blue', 'boat'], 'its words highlighted as the server marked them');
    await audit(miaPage, 'search results');
  });

  await t.test('settings persist across signing in again', async (t) => {
    await go(miaPage, '#settings/display');
    await miaPage.waitForSelector('input[name=twenty_four_hour_time]');
    await audit(miaPage, 'settings: display');
    await miaPage.click('input[name=twenty_four_hour_time]');
    await waitForText(miaPage, '.section-body [role=status]', 'Saved.');
    await go(miaPage, '#settings/profile');
    await miaPage.waitForSelector('input[name=full_name]');
    await clearAndType(miaPage, 'input[name=full_name]', 'Mia M. Member');
    await miaPage.click('input[name=full_name] ~ button, .settings-form button[type=submit]');
    await waitForText(miaPage, '.section-body [role=status]', 'Saved.');
    for (const section of ['profile', 'account', 'notifications', 'status', 'topics']) {
      await go(miaPage, `#settings/${section}`);
      await miaPage.waitForSelector(`.section-nav a[href="#settings/${section}"][aria-current=page]`);
      await audit(miaPage, `settings: ${section}`);
    }
    await miaPage.waitForSelector('.topbar .link-button');
    await miaPage.click('.topbar .link-button');
    await miaPage.waitForSelector('form.login-card');
    await signIn(miaPage, url, mia.email, 'mia-password');
    await go(miaPage, '#settings/display');
    await miaPage.waitForSelector('input[name=twenty_four_hour_time]');
    t.equal(await checked(miaPage, 'input[name=twenty_four_hour_time]'), true, 'twenty-four hour time is still on');
    await go(miaPage, '#settings/profile');
    await miaPage.waitForSelector('input[name=full_name]');
    t.equal(await value(miaPage, 'input[name=full_name]'), 'Mia M. Member', 'and the new name kept');
  });

  await t.test("an administrator renames and describes the organization; a member's page shows the new name at once", async (t) => {
    await owner.bringToFront();
    await go(owner, '#organization/profile');
    await owner.waitForSelector('input.org-name-input');
    await clearAndType(owner, 'input.org-name-input', 'Lighthouse Cooperative');
    await clearAndType(owner, 'textarea[name=description]', 'Boats and **lights**');
    await owner.click('.section-body form button[type=submit]');
    await waitForText(owner, '.section-body [role=status]', 'Saved.');
    await waitForText(miaPage, '.org-name', 'Lighthouse Cooperative');
    t.pass("Mia's sidebar shows the new name (the realm update event)");
    t.equal(await value(owner, 'textarea[name=description]'), 'Boats and **lights**', 'the form shows what the server now holds');
    const settings = (await server.request('GET', '/server_settings')).body;
    t.same([settings.realm_name, settings.realm_description], ['Lighthouse Cooperative', '<p>Boats and <strong>lights</strong></p>']);
  });

  await t.test("an administrator deactivates a user and that user's session stops working", async (t) => {
    await owner.bringToFront();
    for (const section of ['profile', 'emoji', 'linkifiers', 'default-channels', 'statuses', 'users']) {
      await go(owner, `#organization/${section}`);
      await owner.waitForSelector(`.section-nav a[href="#organization/${section}"][aria-current=page]`);
      await audit(owner, `organization: ${section}`);
    }
    await owner.waitForSelector(`.users-table tr[data-user-id="${sam.user_id}"] .deactivate`);
    await owner.click(`.users-table tr[data-user-id="${sam.user_id}"] .deactivate`);
    await owner.waitForSelector(`.users-table tr[data-user-id="${sam.user_id}"] .reactivate`);
    t.pass('the list shows Sam deactivated');
    await samPage.waitForSelector('form.login-card');
    t.pass("Sam's session is back at the sign-in form");
    const again = await server.request('GET', '/users/me', { as: sam });
    t.equal(again.status, 401, "and Sam's key no longer works");
    await audit(samPage, 'sign-in form');
  });

  await t.test('the other views pass the accessibility check', async (t) => {
    for (const hash of ['#inbox', '#followed', '#drafts', '#starred', `#channel/${general}/topic/boats`]) {
      await go(owner, hash);
      await owner.waitForFunction((h) => location.hash === h && !document.querySelector('[aria-busy=true]'), {}, hash);
      await audit(owner, hash);
    }
    t.same(axeFindings, {}, 'axe-core finds no serious or critical violation on any page');
  });

  t.same(browser.foreignRequests, [], 'the pages made no request to any other host');
}
