// What a host's organizations share: one HTTP server, one clock and set of timers, one email
// and push configuration. Two organizations' missed-message emails come due on the host's one
// clock and leave through its one SMTP server (real, on 127.0.0.1), each from its own database,
// with its own organization's URL.
import { rmSync } from 'node:fs';
import t from 'tap';
import { createChatHost } from '../lib/index.js';
import { contextOf } from '../lib/context.js';
import { deliveryRunner } from '../lib/deliveries/runner.js';
import { silentLogger } from '../lib/logger.js';
import { manualTime } from './manual_time.js';
import { hostRequest, seedOrganizations } from './organization_helpers.js';
import { startSmtp } from './smtp.js';
import { startBouncer } from './bouncer.js';

t.test("both organizations push through the host's bouncer; their missed-message emails come due on the host's clock and leave through its one mail server, each with its own URL", async (t) => {
  const { dir, directory, organizations } = await seedOrganizations(['acme', 'globex']);
  const smtp = await startSmtp();
  const bouncer = await startBouncer();
  const time = manualTime(Date.now());
  const host = createChatHost({
    url: 'http://{org}.chat.test',
    open: directory.open,
    options: {
      logger: silentLogger,
      clock: time.clock,
      timers: time.timers,
      email: { transport: smtp.url, from: 'chat@chat.test' },
      push: { bouncerUrl: bouncer.url, serverId: bouncer.serverId, serverKey: bouncer.serverKey },
    },
  });
  t.teardown(async () => {
    await host.close();
    await smtp.close();
    await bouncer.close();
    rmSync(dir, { recursive: true, force: true });
  });
  const { port } = await host.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${port}`;
  const settle = async (): Promise<void> => {
    for (const name of host.openOrganizations()) await deliveryRunner(contextOf((await host.organization(name))!))!.settled();
    await new Promise((resolve) => setTimeout(resolve, 30));
  };

  for (const name of ['acme', 'globex']) {
    const org = organizations[name]!;
    const settings = await hostRequest(base, `${name}.chat.test:${port}`, 'GET', '/api/v1/server_settings');
    t.match(settings.json, { realm_url: `http://${name}.chat.test`, push_notifications_enabled: true }, `${name}: push through the host's bouncer`);
    // Over the host's one HTTP server, at the organization's own address.
    const sent = await hostRequest(base, `${name}.chat.test:${port}`, 'POST', '/api/v1/messages', {
      as: org.owner,
      params: { type: 'direct', to: JSON.stringify([org.members[0]!.user_id]), content: `news of ${name}` },
    });
    t.equal(sent.status, 200, `${name}: sent`);
  }
  await settle();
  time.advance(119_000);
  await settle();
  t.same(smtp.received, [], 'nothing before the batching period (120 s) ends on the host clock');
  time.advance(1000);
  await settle();
  await settle();
  const mails = smtp.received.map((mail) => ({ to: mail.envelope.to.join(), from: mail.envelope.from, text: mail.parsed.text ?? '' })).sort((a, b) => a.to.localeCompare(b.to));
  t.same(
    mails.map((mail) => [mail.to, mail.from]),
    [
      ['member0@acme.test', 'chat@chat.test'],
      ['member0@globex.test', 'chat@chat.test'],
    ],
    'one email to each organization’s member, from the one configured sender',
  );
  t.match(mails[0]!.text, /news of acme/);
  t.match(mails[0]!.text, /http:\/\/acme\.chat\.test\//, "acme's email links to acme's address");
  t.notMatch(mails[0]!.text, /globex/);
  t.match(mails[1]!.text, /news of globex/);
  t.match(mails[1]!.text, /http:\/\/globex\.chat\.test\//, "globex's to globex's");
  t.notMatch(mails[1]!.text, /acme/);
});
