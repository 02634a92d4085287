// Bots in Slack's format (interface_type 2): a hand-written receiver of Slack's outgoing webhooks
// (https://api.slack.com/legacy/custom-integrations/outgoing-webhooks) gets Slack's form fields as
// Zulip fills them, and its `text` answer is posted; direct messages are refused as Zulip refuses them.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import t, { type Test } from 'tap';
import { sendDirect, sendToStream } from './messaging_helpers.js';
import { channel, outgoingBot, outgoingServer, pendingDeliveries, postedBy, settle, tokenOf } from './outgoing_helpers.js';

/** A receiver written as Slack's documentation describes one: a form in, `{"text": ...}` out. */
async function slackReceiver(t: Test) {
  const forms: { contentType: string | undefined; fields: URLSearchParams }[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const fields = new URLSearchParams(body);
      forms.push({ contentType: req.headers['content-type'], fields });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ text: `${fields.get('user_name')} said: ${fields.get('text')}` }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack`, forms };
}

t.test("a mention POSTs Slack's form fields; the answer's text is posted in the topic", async (t) => {
  const s = await outgoingServer({ realm: { name: 'Acme', url: 'https://chat.acme.test:8443' } });
  t.teardown(() => s.close());
  const receiver = await slackReceiver(t);
  const iago = await s.user('member', { fullName: 'Iago Z' });
  const bot = await outgoingBot(s, iago, receiver.url, { name: 'Slacky', interfaceType: 2 });
  const streamId = await channel(s, [iago], 'Verona');
  const id = await sendToStream(s, iago, 'Verona', 'birds', '@**Slacky Bot** What is the air-speed velocity?');
  await settle(s);
  const timestamp = s.db.prepare('SELECT date_sent FROM message WHERE id = ?').pluck().get(id);
  t.equal(receiver.forms[0]!.contentType, 'application/x-www-form-urlencoded');
  t.same([...receiver.forms[0]!.fields], [
    ['token', tokenOf(s, bot.user_id)],
    ['team_id', 'T1'],
    ['team_domain', 'chat.acme.test:8443'],
    ['channel_id', `C${streamId}`],
    ['channel_name', 'Verona'],
    ['thread_ts', String(timestamp)],
    ['timestamp', String(timestamp)],
    ['user_id', `U${iago.user_id}`],
    ['user_name', 'Iago Z'],
    ['text', '@**Slacky Bot** What is the air-speed velocity?'],
    ['trigger_word', 'mention'],
    ['service_id', String(bot.user_id)],
  ]);
  t.match(postedBy(s, bot.user_id), [{ content: 'Iago Z said: @**Slacky Bot** What is the air-speed velocity?', stream_id: streamId, topic: 'birds' }]);
});

t.test('a direct message to a Slack-format bot: no request, "Failure! Slack outgoing webhooks don\'t support direct messages."', async (t) => {
  const s = await outgoingServer();
  t.teardown(() => s.close());
  const receiver = await slackReceiver(t);
  const iago = await s.user('member');
  const bot = await outgoingBot(s, iago, receiver.url, { name: 'Slacky', interfaceType: 2 });
  await sendDirect(s, iago, [bot.user_id], 'hi');
  await settle(s);
  t.equal(receiver.forms.length, 0);
  t.same(postedBy(s, bot.user_id).map((m) => m.content), ["Failure! Slack outgoing webhooks don't support direct messages."]);
  t.equal(pendingDeliveries(s), 0);
});
