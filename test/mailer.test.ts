// The mailer: an email decided in a transaction is sent after the commit through options.email
// (an SMTP URL, any nodemailer transport, or the application's send function), retried while the
// mail server is down or answers "try later", dropped when it refuses, never sent for a rollback;
// without a mailer email is off. A real SMTP server on 127.0.0.1 receives, mailparser reads.
import t, { type Test } from 'tap';
import Database from 'better-sqlite3';
import nodemailer, { type SendMailOptions } from 'nodemailer';
import { createChatServer, type ChatOptions, type OutgoingEmail } from '../lib/index.js';
import { contextOf, type Ctx } from '../lib/context.js';
import { deliveryRunner } from '../lib/deliveries/runner.js';
import { sendEmail, type Email } from '../lib/domain/email.js';
import { emailOptionsFromEnv } from '../lib/mail/options.js';
import { silentLogger, type Logger } from '../lib/logger.js';
import { SMTP_PASSWORD, SMTP_USER, startSmtp } from './smtp.js';

const EMAIL: Email = { to: 'ada@example.com', subject: 'Hello', text: 'Plain words.', html: '<p>Plain <b>words</b>.</p>' };

function server(t: Test, options: ChatOptions): Ctx {
  const chat = createChatServer(new Database(':memory:'), { logger: silentLogger, ...options });
  t.teardown(() => chat.close());
  return contextOf(chat);
}

const send = (ctx: Ctx, email: Email = EMAIL) => ctx.tx(() => sendEmail(ctx, email));
const pending = (ctx: Ctx) => ctx.db.prepare("SELECT count(*) FROM delivery WHERE kind = 'email'").pluck().get() as number;

t.test('An email decided in a transaction is sent over SMTP after the commit, with login', async (t) => {
  const smtp = await startSmtp();
  t.teardown(() => smtp.close());
  const ctx = server(t, { email: { transport: smtp.url } });
  const arrived = smtp.next();
  t.equal(send(ctx), true);
  t.equal(smtp.received.length, 0, 'not inside the transaction');
  const mail = await arrived;
  t.equal(mail.user, SMTP_USER, 'logged in with the URL\'s credentials');
  t.same(mail.envelope, { from: 'noreply@parley.invalid', to: ['ada@example.com'] });
  t.equal(mail.parsed.from?.text, '"parley notifications" <noreply@parley.invalid>', "Zulip's no-reply sender, named after the organization");
  t.equal(mail.parsed.subject, 'Hello');
  t.equal(mail.parsed.text?.trim(), 'Plain words.');
  t.equal(mail.parsed.html, '<p>Plain <b>words</b>.</p>');
  t.equal(mail.parsed.headers.get('auto-submitted'), 'auto-generated');
  await deliveryRunner(ctx)!.settled();
  t.equal(pending(ctx), 0);
});

t.test('A rolled-back transaction sends no email', async (t) => {
  const smtp = await startSmtp();
  t.teardown(() => smtp.close());
  const ctx = server(t, { email: { transport: smtp.url } });
  t.throws(() => ctx.tx(() => {
    sendEmail(ctx, EMAIL);
    throw new Error('refused');
  }));
  await deliveryRunner(ctx)!.settled();
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.same(smtp.received, []);
  t.equal(pending(ctx), 0);
});

t.test('A mail server that answers "try later" (4xx) is tried again; the email arrives once', async (t) => {
  const smtp = await startSmtp();
  t.teardown(() => smtp.close());
  const ctx = server(t, { email: { transport: smtp.url, retryDelaysMs: [10, 10, 10] } });
  smtp.refuse.push(421, 451);
  const arrived = smtp.next();
  send(ctx);
  await arrived;
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(smtp.refused, 2);
  t.equal(smtp.received.length, 1);
  t.equal(pending(ctx), 0);
});

t.test('A mail server that is down at first, then up: the email arrives once', async (t) => {
  const down = await startSmtp();
  const port = down.port;
  await down.close();
  const ctx = server(t, { email: { transport: down.url, retryDelaysMs: [50, 50, 50, 50, 50] } });
  send(ctx);
  while ((ctx.db.prepare("SELECT last_error FROM delivery WHERE kind = 'email'").pluck().get() ?? null) === null) {
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  t.equal(ctx.db.prepare("SELECT last_error FROM delivery WHERE kind = 'email'").pluck().get(), 'ESOCKET', 'the refused connection is remembered by its code');
  const up = await startSmtp(port);
  t.teardown(() => up.close());
  await up.next();
  await new Promise((resolve) => setTimeout(resolve, 120));
  t.equal(up.received.length, 1);
  t.equal(pending(ctx), 0);
});

t.test('A mail server that refuses (5xx) is not tried again', async (t) => {
  const smtp = await startSmtp();
  t.teardown(() => smtp.close());
  const ctx = server(t, { email: { transport: smtp.url, retryDelaysMs: [10, 10] } });
  smtp.refuse.push(550);
  send(ctx);
  while (smtp.refused === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  await deliveryRunner(ctx)!.settled();
  await new Promise((resolve) => setTimeout(resolve, 50));
  t.equal(smtp.refused, 1);
  t.same(smtp.received, []);
  t.equal(pending(ctx), 0);
});

t.test('An application sends emails itself (email.send), or through any nodemailer transport', async (t) => {
  const seen: OutgoingEmail[] = [];
  let failures = 1;
  const ctx = server(t, {
    email: {
      from: 'Acme <chat@acme.example>',
      retryDelaysMs: [5],
      send(email) {
        if (failures-- > 0) return Promise.reject(new Error('queue full'));
        seen.push(email);
      },
    },
  });
  send(ctx, { ...EMAIL, replyTo: 'help@acme.example' });
  while (seen.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
  t.same(seen, [{ from: 'Acme <chat@acme.example>', to: 'ada@example.com', subject: 'Hello', text: 'Plain words.', html: EMAIL.html, replyTo: 'help@acme.example', headers: { 'Auto-Submitted': 'auto-generated' } }], 'retried after a rejection');

  const permanent = server(t, { email: { retryDelaysMs: [5], send: () => Promise.reject(Object.assign(new Error('no such user'), { permanent: true })) } });
  send(permanent);
  await deliveryRunner(permanent)!.settled();
  t.equal(pending(permanent), 0, 'an error marked permanent is not retried');

  const sent: string[] = [];
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true });
  const viaTransport = server(t, { email: { transport: { sendMail: async (message: SendMailOptions) => sent.push(String((await transport.sendMail(message)).message)) } as never } });
  send(viaTransport);
  await deliveryRunner(viaTransport)!.settled();
  t.match(sent[0], /Subject: Hello/);
  const jsonTransport = server(t, { email: { transport: { jsonTransport: true } } });
  send(jsonTransport);
  await deliveryRunner(jsonTransport)!.settled();
  t.equal(pending(jsonTransport), 0, 'transport options are made into a transport');
});

t.test('Without a mailer email is off: nothing is written', async (t) => {
  const ctx = server(t, {});
  t.equal(send(ctx), false);
  t.equal(pending(ctx), 0);
  // A row left by a server that had a mailer does not wait forever on one that has none.
  ctx.tx(() => ctx.db.prepare("INSERT INTO delivery (kind, payload, due_at, created_at) VALUES ('email', ?, 0, 0)").run(JSON.stringify(EMAIL)));
  deliveryRunner(ctx)!.wake();
  await deliveryRunner(ctx)!.settled();
  t.equal(pending(ctx), 0);
});

t.test('The SMTP password never appears in a log line', async (t) => {
  const smtp = await startSmtp();
  t.teardown(() => smtp.close());
  const lines: string[] = [];
  const logger: Logger = { info: (m, f) => lines.push(m + JSON.stringify(f)), warn: (m, f) => lines.push(m + JSON.stringify(f)), error: (m, f) => lines.push(m + JSON.stringify(f)) };
  const wrong = smtp.url.replace(SMTP_PASSWORD, `${SMTP_PASSWORD}-wrong`);
  const ctx = server(t, { logger, email: { transport: wrong, retryDelaysMs: [5, 5] } });
  smtp.refuse.push(421);
  send(ctx);
  while (pending(ctx) > 0) await new Promise((resolve) => setTimeout(resolve, 5));
  t.ok(lines.length >= 3, 'failures were logged');
  t.notOk(lines.some((line) => line.includes(SMTP_PASSWORD)), 'no password');
  t.ok(lines.some((line) => line.includes('EAUTH')), 'the failure is named by its code');
});

t.test('emailOptionsFromEnv reads PARLEY_SMTP_URL, PARLEY_EMAIL_FROM and PARLEY_EMAIL_BATCHING_SECONDS, naming a bad setting without its value', async (t) => {
  t.equal(emailOptionsFromEnv({}), undefined);
  t.same(emailOptionsFromEnv({ PARLEY_SMTP_URL: ' smtp://u:p@mail.example:587 ', PARLEY_EMAIL_FROM: 'Chat <chat@example.com>' }), {
    transport: 'smtp://u:p@mail.example:587',
    from: 'Chat <chat@example.com>',
  });
  t.same(emailOptionsFromEnv({ PARLEY_EMAIL_BATCHING_SECONDS: '5', PARLEY_SMTP_URL: '' }), { batchingSeconds: 5 });
  const secret = 'smtp:///hunter2';
  for (const [env, message] of [
    [{ PARLEY_SMTP_URL: 'http://u:hunter2@mail.example' }, 'PARLEY_SMTP_URL must be an smtp:// or smtps:// URL'],
    [{ PARLEY_SMTP_URL: 'not a url hunter2' }, 'PARLEY_SMTP_URL is not a valid URL'],
    [{ PARLEY_SMTP_URL: secret }, 'PARLEY_SMTP_URL has no host'],
    [{ PARLEY_EMAIL_FROM: 'a@b.c' }, 'PARLEY_EMAIL_FROM needs PARLEY_SMTP_URL'],
    [{ PARLEY_EMAIL_BATCHING_SECONDS: '0' }, 'PARLEY_EMAIL_BATCHING_SECONDS must be a whole number of seconds from 1 to 604800'],
  ] as const) {
    t.throws(() => emailOptionsFromEnv(env), { message }, message);
  }
  t.throws(() => emailOptionsFromEnv({ PARLEY_SMTP_URL: 'ftp://x' }, { smtpUrl: '--smtp-url' }), { message: '--smtp-url must be an smtp:// or smtps:// URL' });
});
