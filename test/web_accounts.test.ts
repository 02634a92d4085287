// The ways in through real email and real pages (issue 33), in a headless Chromium with a real
// SMTP server on 127.0.0.1: an owner invites an address in the web client, the email's link opens
// the sign-up page, and the new member lands in the invited channel and chats; the same through a
// reusable link; a password reset (old password refused, new one works, the link refused the
// second time); an expired link's page; signing out revokes the session (issue 27), and the page
// never holds the API key.
import t from 'tap';
import type { Page } from 'puppeteer-core';
import { axeViolations, launchBrowser, openView, signIn, topicHash, waitForText, type TestBrowser } from './browser.js';
import { keyOf, linkIn, mailServer, type MailServer } from './accounts_helpers.js';
import { withCookie } from './session_helpers.js';

// Inside page.evaluate callbacks (they run in the page).
declare const document: any, sessionStorage: any, localStorage: any;

let m: MailServer;
let browser: TestBrowser;
let generalId: number;
/** Milliseconds added to the server's clock (links expire without waiting). */
let ahead = 0;

t.before(async () => {
  m = await mailServer(t, { webClient: true, clock: () => Date.now() + ahead, realm: { name: 'Acme' } });
  m.s.chat.admin.setOrganizationUrl(m.s.url);
  browser = await launchBrowser(m.s.url);
  m.s.chat.api.streams.subscribe(m.s.owner.user_id, { subscriptions: [{ name: 'general' }, { name: 'design' }] });
  generalId = m.s.chat.api.streams.getId(m.s.owner.user_id, { stream: 'general' }).stream_id;
});

t.teardown(async () => {
  await browser?.close();
});

/** The page's form field, filled. */
async function fill(page: Page, selector: string, text: string): Promise<void> {
  await page.waitForSelector(selector);
  await page.type(selector, text);
}

/** Opens an emailed link in a fresh browser (its own cookies). */
async function follow(link: string): Promise<Page> {
  const page = await browser.page();
  await page.goto(link);
  return page;
}

/** The session cookie the page holds (the page's script cannot read it: HttpOnly). */
async function sessionCookie(page: Page): Promise<string> {
  const cookies = await page.browserContext().cookies();
  const found = cookies.find((c) => c.name === 'parley_session');
  if (!found) throw new Error('no session cookie');
  return `parley_session=${found.value}`;
}

t.test('the owner invites an address in the web client; the invitee signs up from the email and chats', async (t) => {
  const owner = await browser.page();
  await signIn(owner, m.s.url, m.s.owner.email, 'owner-password');
  t.same(
    await owner.evaluate(() => [document.cookie, JSON.stringify(sessionStorage), JSON.stringify(localStorage)]),
    ['', '{}', '{"parley.signedIn:/":"1"}'],
    'the page holds no credential: the session cookie is HttpOnly, no API key is stored, only a note that this browser is signed in',
  );
  await owner.goto(m.s.url + '/#organization/invitations');
  await fill(owner, '.invite-form textarea[name=emails]', 'ada@acme.test');
  await owner.select('.invite-form select[name=invite_as]', '400');
  await owner.$$eval('.invite-form input[name=stream_id]', (boxes: any[], id: number) => boxes.forEach((b) => (b.checked = Number(b.value) === id)), generalId);
  await owner.click('.invite-form input[name=defaults]');
  await owner.click('.invite-form button[type=submit]');
  await waitForText(owner, '[role=status]', 'Invitations sent.');
  await waitForText(owner, '.invites li', 'ada@acme.test');
  t.same(await axeViolations(owner), [], 'the invitations page passes the accessibility check');

  const mail = await m.mailTo('ada@acme.test');
  t.equal(mail.parsed.subject, 'Olivia Owner has invited you to join Acme');
  const ada = await follow(linkIn(mail));
  await waitForText(ada, '.signup-intro', 'Olivia Owner invited you to join Acme as a member.');
  t.same(await axeViolations(ada), [], 'the sign-up page passes the accessibility check');
  await fill(ada, 'input[name=full_name]', 'Ada Lovelace');
  await fill(ada, 'input[name=password]', 'ada-password');
  await ada.click('button[type=submit]');
  await ada.waitForSelector('nav.sidebar .channels');
  t.equal(new URL(ada.url()).pathname, '/', 'lands in the web client');
  await waitForText(ada, 'nav.sidebar .channels', 'general');
  t.notOk(await ada.$eval('nav.sidebar .channels', (el: any) => el.textContent.includes('design')), 'only the invited channel');
  await openView(ada, topicHash(generalId, 'hello'));
  await ada.click('.compose-box');
  await ada.type('.compose-box', 'hello, I just joined');
  await ada.keyboard.press('Enter');
  await openView(owner, topicHash(generalId, 'hello'));
  await waitForText(owner, '.message .content', 'hello, I just joined');
  await openView(owner, '#all');
  await waitForText(owner, '.message .content', 'accepted your invitation to join Acme!');
  t.pass('the referrer heard from Notification Bot');
  await owner.goto(m.s.url + '/#organization/invitations');
  await waitForText(owner, '.empty', 'No pending invitations.');
  await ada.goto(linkIn(mail));
  await waitForText(ada, '.link-problem', 'This link has already been used.');
  await Promise.all([owner.close(), ada.close()]);
});

t.test('a reusable link: the joiner confirms their address by email, then signs up', async (t) => {
  const owner = await browser.page();
  await signIn(owner, m.s.url, m.s.owner.email, 'owner-password');
  await owner.goto(m.s.url + '/#organization/invitations');
  await owner.waitForSelector('.link-form');
  await owner.$$eval('.link-form input[name=stream_id]', (boxes: any[], id: number) => boxes.forEach((b) => (b.checked = Number(b.value) === id)), generalId);
  await owner.click('.link-form button[type=submit]');
  await owner.waitForSelector('.invite-link');
  const link = await owner.$eval('.invite-link', (el: any) => el.textContent);
  t.match(link, /\/join\/[A-Za-z0-9_-]{43}$/);

  const bo = await follow(link);
  await waitForText(bo, '.signup-intro', 'Olivia Owner invited you to join Acme.');
  await fill(bo, 'input[name=email]', 'bo@acme.test');
  await bo.click('button[type=submit]');
  await waitForText(bo, '.signup-sent', 'we sent a link to bo@acme.test');
  const confirm = await m.mailTo('bo@acme.test');
  t.equal(confirm.parsed.subject, 'Confirm your email address for Acme');
  await bo.goto(linkIn(confirm));
  await fill(bo, 'input[name=full_name]', 'Bo Peep');
  await fill(bo, 'input[name=password]', 'bo-password');
  await bo.click('button[type=submit]');
  await bo.waitForSelector('nav.sidebar .channels');
  await waitForText(bo, 'nav.sidebar .channels', 'general');
  await Promise.all([owner.close(), bo.close()]);
});

t.test('"Forgot password?": the emailed link sets a new password once; the old one is refused', async (t) => {
  await m.s.user('member', { email: 'cy@acme.test', password: 'old-password' });
  const cy = await browser.page();
  await cy.goto(m.s.url + '/');
  await cy.waitForSelector('.login-links a');
  await cy.click('.login-links a');
  await fill(cy, 'input[name=email]', 'cy@acme.test');
  await cy.click('button[type=submit]');
  await waitForText(cy, '.reset-sent', 'If cy@acme.test has an account here');
  t.same(await axeViolations(cy), [], 'the reset page passes the accessibility check');
  const mail = await m.mailTo('cy@acme.test');
  await cy.goto(linkIn(mail));
  await fill(cy, 'input[name=new_password]', 'new-password');
  await cy.click('button[type=submit]');
  await cy.waitForSelector('nav.sidebar .channels');
  t.pass('signed in with the new password');
  const old = await m.s.request('POST', '/sessions', { params: { username: 'cy@acme.test', password: 'old-password' } });
  t.equal(old.status, 401, 'the old password is refused');
  const other = await browser.page();
  await signIn(other, m.s.url, 'cy@acme.test', 'new-password');
  t.pass('the new one signs in through the form');
  await other.goto(linkIn(mail));
  await waitForText(other, '.link-problem', 'This link has already been used.');
  await Promise.all([cy.close(), other.close()]);
});

t.test('an expired invitation link shows a clear page, not an error', async (t) => {
  await m.s.request('POST', '/invites', { as: m.s.owner, params: { invitee_emails: 'late@acme.test', stream_ids: [], invite_expires_in_minutes: 60 } });
  const mail = await m.mailTo('late@acme.test');
  ahead += 61 * 60_000;
  const late = await follow(linkIn(mail));
  await waitForText(late, '.link-problem', 'This link has expired. Ask for a new one.');
  t.same(await axeViolations(late), [], "an expired link's page passes the accessibility check");
  t.equal(await late.$('input[name=password]'), null, 'no sign-up form');
  const unknown = await follow(`${m.s.url}/accounts/do_confirm/${keyOf(linkIn(mail)).replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`);
  await waitForText(unknown, '.link-problem', 'This link is not valid.');
  await Promise.all([late.close(), unknown.close()]);
});

t.test('signing out ends the session: its cookie stops working; settings list and end sessions', async (t) => {
  const here = await browser.page();
  const there = await browser.page();
  await signIn(here, m.s.url, m.s.owner.email, 'owner-password');
  await signIn(there, m.s.url, m.s.owner.email, 'owner-password');
  const thereCookie = await sessionCookie(there);
  await here.goto(m.s.url + '/#settings/account');
  await here.waitForSelector('.sessions li');
  t.ok((await here.$$('.sessions li')).length >= 2, 'both sessions are listed');
  await here.click('.danger');
  await waitForText(here, '[role=status]', 'Signed out everywhere else.');
  t.equal((await m.s.request('GET', '/users/me', { headers: withCookie(thereCookie) })).status, 401, "the other browser's session ended");
  const hereCookie = await sessionCookie(here);
  await here.waitForSelector('header .link-button');
  await here.click('header .link-button');
  await here.waitForSelector('input[name=email]');
  t.equal((await m.s.request('GET', '/users/me', { headers: withCookie(hereCookie) })).status, 401, 'signing out revoked the cookie');
  await Promise.all([here.close(), there.close()]);
});
