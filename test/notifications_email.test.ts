// Missed-message emails, through a real SMTP server on 127.0.0.1, read with mailparser: an idle
// recipient gets one email per conversation for each batching period, holding every message still
// unread when the period ends; read messages are left out; a mail server down at first gets it
// once it is up. The clock and timers are the test's, so a period passes in an instant.
import t, { type Test } from 'tap';
import { type ReceivedMail, startSmtp, type StandInSmtp } from './smtp.js';
import { startServer, type TestServer, type TestUser } from './helpers.js';
import { manualTime, type ManualTime } from './manual_time.js';
import { sendDirect, sendToStream, subscribe } from './messaging_helpers.js';
import { makeActive, setSettings, setSubscriptionProperty, settle } from './notification_helpers.js';

interface MailWorld {
  s: TestServer;
  smtp: StandInSmtp;
  time: ManualTime;
  user(name: string): Promise<TestUser>;
  /** Moves time on by `seconds` and waits for what came due. */
  pass(seconds: number): Promise<void>;
}

async function mailWorld(t: Test, email: { batchingSeconds?: number; retryDelaysMs?: number[] } = {}): Promise<MailWorld> {
  const smtp = await startSmtp();
  const time = manualTime(Date.now());
  const s = await startServer({ clock: time.clock, timers: time.timers, email: { transport: smtp.url, ...email } });
  t.teardown(async () => {
    await s.close();
    await smtp.close();
  });
  return {
    s,
    smtp,
    time,
    user: (name) => s.user('member', { fullName: name }),
    async pass(seconds) {
      await settle(s);
      time.advance(seconds * 1000);
      await settle(s);
      // The emails the batch wrote go out after its commit.
      await new Promise((resolve) => setTimeout(resolve, 30));
      await settle(s);
    },
  };
}

const to = (mail: ReceivedMail) => mail.envelope.to.join();

t.test('An idle recipient gets one email per conversation once the batching period (120 s) ends, with every missed message', async (t) => {
  const { s, smtp, user, pass } = await mailWorld(t);
  const [ada, bob, cy] = [await user('Ada Lovelace'), await user('Bob Babbage'), await user('Cy')];
  t.equal((await subscribe(s, ada, ['engines'], { principals: [ada.user_id, bob.user_id] })).status, 200);
  const first = await sendDirect(s, ada, [bob.user_id], 'Are the **gears** ready?');
  await sendDirect(s, ada, [bob.user_id], 'Reply when you can.');
  await sendToStream(s, ada, 'engines', 'Design', '@**Bob Babbage** please review');
  await sendToStream(s, ada, 'engines', 'Design', 'no mention here');
  await sendDirect(s, cy, [bob.user_id], 'From someone else');
  await pass(119);
  t.same(smtp.received, [], 'nothing before the period ends');
  await pass(1);
  t.equal(smtp.received.length, 3, 'one email per conversation');
  const [dm, topic, other] = smtp.received as [ReceivedMail, ReceivedMail, ReceivedMail];
  t.same([to(dm), to(topic), to(other)], [bob.email, bob.email, bob.email]);
  t.equal(dm.parsed.subject, 'DMs with Ada Lovelace');
  t.match(dm.parsed.text, /Ada Lovelace:\nAre the gears ready\?\n\nAda Lovelace:\nReply when you can\./);
  t.match(dm.parsed.html, /<strong>gears<\/strong>/);
  t.match(dm.parsed.text, new RegExp(`http://localhost:9991/#dm/${[ada.user_id, bob.user_id].sort((a, b) => a - b).join(',')}`), 'a link to the conversation in the web client');
  t.match(dm.parsed.text, /You are receiving this because you received direct messages\./);
  t.equal(topic.parsed.subject, '#engines > Design');
  t.match(topic.parsed.text, /please review/);
  t.notMatch(topic.parsed.text, /no mention here/, 'only the messages that notified');
  t.match(topic.parsed.text, /because you were personally mentioned/);
  t.equal(other.parsed.subject, 'DMs with Cy');
  t.ok(first > 0);
  await pass(3600);
  t.equal(smtp.received.length, 3, 'each message is mailed once');
});

t.test('A message read before the period ends is not mailed; a batch all read sends nothing', async (t) => {
  const { s, smtp, user, pass } = await mailWorld(t);
  const [ada, bob, cy] = [await user('Ada'), await user('Bob'), await user('Cy')];
  const read = await sendDirect(s, ada, [bob.user_id], 'you will read this one');
  await sendDirect(s, ada, [bob.user_id], 'but not this one');
  const cyRead = await sendDirect(s, ada, [cy.user_id], 'read at once');
  await pass(60);
  for (const [reader, id] of [[bob, read], [cy, cyRead]] as const) {
    t.equal((await s.request('POST', '/messages/flags', { as: reader, params: { messages: [id], op: 'add', flag: 'read' } })).status, 200);
  }
  await pass(60);
  t.equal(smtp.received.length, 1);
  t.equal(to(smtp.received[0]!), bob.email);
  t.match(smtp.received[0]!.parsed.text, /but not this one/);
  t.notMatch(smtp.received[0]!.parsed.text, /you will read this one/);
});

t.test('One email per batching period: later messages join the pending batch, and the next period starts after it', async (t) => {
  const { s, smtp, user, pass } = await mailWorld(t);
  const [ada, bob] = [await user('Ada'), await user('Bob')];
  await setSettings(s, bob, { email_notifications_batching_period_seconds: 300 });
  await sendDirect(s, ada, [bob.user_id], 'one');
  await pass(200);
  await sendDirect(s, ada, [bob.user_id], 'two');
  await pass(100);
  t.equal(smtp.received.length, 1, 'the batch ends 300 s after its first message');
  t.match(smtp.received[0]!.parsed.text, /one[\s\S]*two/);
  await sendDirect(s, ada, [bob.user_id], 'three');
  await pass(299);
  t.equal(smtp.received.length, 1);
  await pass(1);
  t.equal(smtp.received.length, 2);
  t.match(smtp.received[1]!.parsed.text, /three/);
});

t.test('A mail server down at first, then up: the email arrives once', async (t) => {
  const { s, smtp, user, pass } = await mailWorld(t, { retryDelaysMs: [30_000, 30_000, 30_000] });
  const [ada, bob] = [await user('Ada'), await user('Bob')];
  smtp.refuse.push(421, 421);
  await sendDirect(s, ada, [bob.user_id], 'persistent');
  await pass(120);
  t.equal(smtp.refused, 1);
  await pass(30);
  t.equal(smtp.refused, 2);
  t.same(smtp.received, []);
  await pass(30);
  t.equal(smtp.received.length, 1);
  await pass(600);
  t.equal(smtp.received.length, 1, 'once');
});

t.test('Who is emailed: not an active recipient, not with offline email off; channels with email on; mentions', async (t) => {
  const { s, smtp, user, pass } = await mailWorld(t);
  const [ada, active, off, follower] = [await user('Ada'), await user('Active'), await user('Off'), await user('Follower')];
  t.equal((await subscribe(s, ada, ['news'], { principals: [ada.user_id, active.user_id, off.user_id, follower.user_id] })).status, 200);
  const news = s.db.prepare("SELECT id FROM stream WHERE name = 'news'").pluck().get() as number;
  await makeActive(s, active);
  await setSettings(s, off, { enable_offline_email_notifications: false });
  await setSubscriptionProperty(s, follower, news, 'email_notifications', true);
  await sendDirect(s, ada, [active.user_id, off.user_id], 'hello both');
  await sendToStream(s, ada, 'news', 'today', 'channel news');
  await pass(120);
  t.same(smtp.received.map(to), [follower.email]);
  t.match(smtp.received[0]!.parsed.text, /you have email notifications enabled for #news/);
});

t.test('message_content_in_email_notifications off: "New messages", no content; realm_name_in_email_notifications_policy 2 names the organization', async (t) => {
  const { s, smtp, user, pass } = await mailWorld(t);
  const [ada, bob] = [await user('Ada'), await user('Bob')];
  await setSettings(s, bob, { message_content_in_email_notifications: false, realm_name_in_email_notifications_policy: 2 });
  await sendDirect(s, ada, [bob.user_id], 'a secret');
  await pass(120);
  const [mail] = smtp.received;
  t.equal(mail!.parsed.subject, 'New messages [parley]');
  t.notMatch(mail!.parsed.text, /a secret/);
  t.notMatch(mail!.parsed.html, /a secret/);
});

t.test('email.batchingSeconds sets the default batching period, as /register shows it', async (t) => {
  const { s, smtp, user, pass } = await mailWorld(t, { batchingSeconds: 5 });
  const [ada, bob] = [await user('Ada'), await user('Bob')];
  const registered = await s.request('POST', '/register', { as: bob, params: { fetch_event_types: ['user_settings'] } });
  t.equal(registered.body.user_settings.email_notifications_batching_period_seconds, 5);
  await sendDirect(s, ada, [bob.user_id], 'quick');
  await pass(5);
  t.equal(smtp.received.length, 1);
});

t.test('The footer names why: a group mention names the group, a wildcard names the channel', async (t) => {
  const { s, smtp, user, pass } = await mailWorld(t);
  const [ada, bob, cy] = [await user('Ada'), await user('Bob'), await user('Cy')];
  t.equal((await subscribe(s, ada, ['ops'], { principals: [ada.user_id, bob.user_id, cy.user_id] })).status, 200);
  t.equal((await s.request('POST', '/user_groups/create', { as: ada, params: { name: 'oncall', description: 'd', members: [bob.user_id] } })).status, 200);
  await sendToStream(s, ada, 'ops', 'pager', '@*oncall* wake up');
  await sendToStream(s, ada, 'ops', 'news', '@**all** release');
  await pass(120);
  const byTo = (who: TestUser) => smtp.received.filter((m) => to(m) === who.email).map((m) => [m.parsed.subject, /because ([^.]*)\./.exec(m.parsed.text ?? '')?.[1]]);
  t.same(byTo(bob), [
    ['#ops > pager', '@oncall was mentioned'],
    ['#ops > news', 'everyone was mentioned in #ops'],
  ]);
  t.same(byTo(cy), [['#ops > news', 'everyone was mentioned in #ops']]);
});
