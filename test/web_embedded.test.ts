// parley's web client inside an application that signs its users in itself (issue 33): an
// Express application on 127.0.0.1 mounts parley at /chat with `authenticate(request)` mapping its
// own cookie to a parley user; in a headless Chromium, its signed-in user opens /chat and is in,
// with no parley password and no sign-out of parley's own (there is no parley session to end).
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import Database from 'better-sqlite3';
import express from 'express';
import t from 'tap';
import { createChatServer, type ChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { axeViolations, launchBrowser, waitForText, type TestBrowser } from './browser.js';

let server: Server;
let chat: ChatServer;
let browser: TestBrowser;
let url: string;
const sessions = new Map<string, number>();

t.before(async () => {
  chat = createChatServer(new Database(':memory:'), {
    logger: silentLogger,
    webClient: true,
    authenticate: (req) => {
      const token = /(?:^|;\s*)app_session=([a-f0-9]+)/.exec(req.headers.cookie ?? '')?.[1];
      return Promise.resolve(token === undefined ? null : (sessions.get(token) ?? null));
    },
  });
  const app = express();
  app.use('/chat', chat.handler);
  app.get('/', (_req, res) => void res.send('<!doctype html><title>Acme intranet</title><a href="/chat/">Chat</a>'));
  server = await new Promise((resolve) => {
    const listening = app.listen(0, '127.0.0.1', () => resolve(listening));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  chat.admin.setOrganizationUrl(`${url}/chat`);
  const owner = await chat.admin.initOrganization({ email: 'boss@acme.test', fullName: 'The Boss' });
  chat.api.streams.subscribe(owner.user_id, { subscriptions: [{ name: 'general' }] });
  browser = await launchBrowser(url);
});

t.teardown(async () => {
  await browser?.close();
  await new Promise((resolve) => server?.close(resolve));
  await chat?.close();
});

t.test("the application's signed-in user opens /chat and is in, without a parley password", async (t) => {
  // The application made the account itself, without a password, and signed its user in.
  const dee = await chat.admin.addUser({ email: 'dee@acme.test', fullName: 'Dee Host' });
  chat.api.streams.subscribe(dee.user_id, { subscriptions: [{ name: 'general' }] });
  const token = randomBytes(16).toString('hex');
  sessions.set(token, dee.user_id);
  const page = await browser.page();
  await page.setCookie({ name: 'app_session', value: token, url, httpOnly: true, sameSite: 'Lax' });
  await page.goto(`${url}/chat`);
  t.equal(new URL(page.url()).pathname, '/chat/', '/chat is sent to /chat/');
  await page.waitForSelector('nav.sidebar .channels');
  await waitForText(page, 'nav.sidebar .channels', 'general');
  await page.goto(`${url}/chat/#settings/account`);
  await waitForText(page, 'section', 'You are signed in here through the application this chat is part of.');
  // Once the page knows whose session it is: no sign-out button.
  await page.waitForSelector('header[data-session="application"]');
  t.equal(await page.$('header .link-button'), null, 'no sign-out: the application signs its users in and out');
  t.same(await axeViolations(page), [], 'the account settings pass the accessibility check');
  await page.close();
});

t.test('without the application\'s cookie the page asks for a parley sign-in', async (t) => {
  const page = await browser.page();
  await page.goto(`${url}/chat/`);
  await page.waitForSelector('input[name=email]');
  t.pass('the sign-in form');
  t.same(browser.foreignRequests, [], 'no request left the application');
  await page.close();
});
