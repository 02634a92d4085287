// Servers for the ways in that go through email: a test server whose mailer sends to a real SMTP
// server on 127.0.0.1 (test/smtp.ts), the emails it received, and the links in them.
import type { Test } from 'tap';
import type { ChatOptions } from '../lib/index.js';
import { contextOf } from '../lib/context.js';
import { deliveryRunner } from '../lib/deliveries/runner.js';
import { startServer, type TestServer } from './helpers.js';
import { startSmtp, type ReceivedMail, type StandInSmtp } from './smtp.js';

export interface MailServer {
  s: TestServer;
  smtp: StandInSmtp;
  /**
   * The next email to `to` (already received or still to come), once its delivery is recorded as
   * sent (a test that then moves a manual clock finds no attempt under way).
   */
  mailTo(to: string): Promise<ReceivedMail>;
  /** Resolves once every email decided so far was sent (before a manual clock moves: see mailTo). */
  settle(): Promise<void>;
}

/** A test server sending email to its own SMTP server; both close with the test. */
export async function mailServer(t: Test, options: Parameters<typeof startServer>[0] = {}): Promise<MailServer> {
  const smtp = await startSmtp();
  const s = await startServer({ ...options, email: { transport: smtp.url, ...(options as ChatOptions).email } });
  t.teardown(async () => {
    await s.close();
    await smtp.close();
  });
  const seen = new Set<ReceivedMail>();
  const mailTo = async (to: string): Promise<ReceivedMail> => {
    for (;;) {
      const found = smtp.received.find((mail) => !seen.has(mail) && mail.envelope.to.includes(to.toLowerCase()));
      if (found !== undefined) {
        seen.add(found);
        await deliveryRunner(contextOf(s.chat))?.settled();
        return found;
      }
      await smtp.next();
    }
  };
  const settle = async () => deliveryRunner(contextOf(s.chat))?.settled();
  return { s, smtp, mailTo, settle };
}

/** The one link of a parley email. */
export function linkIn(mail: ReceivedMail): string {
  const links = (mail.parsed.text ?? '').match(/https?:\/\/\S+/g) ?? [];
  const own = links.filter((link) => /\/(accounts|join)\//.test(link));
  if (own.length !== 1) throw new Error(`expected one link in: ${mail.parsed.text}`);
  return own[0]!;
}

/** The key at the end of a link. */
export function keyOf(link: string): string {
  return link.slice(link.lastIndexOf('/') + 1);
}
