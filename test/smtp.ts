// A real SMTP server for tests (smtp-server on 127.0.0.1, with login), whose messages are parsed
// with mailparser as a mail client would; it can be told to refuse (4xx: try later, 5xx: never).
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';

export interface ReceivedMail {
  /** The envelope: who the server was told the message is from and for. */
  envelope: { from: string; to: string[] };
  user: string | undefined;
  parsed: ParsedMail;
}

export interface StandInSmtp {
  /** smtp://user:pass@127.0.0.1:port */
  url: string;
  port: number;
  received: ReceivedMail[];
  /** SMTP reply codes for the next messages, one each (e.g. 421 try later, 550 mailbox unavailable). */
  refuse: number[];
  /** Messages refused so far. */
  refused: number;
  /** Resolves with the next message received. */
  next(): Promise<ReceivedMail>;
  close(): Promise<void>;
}

export const SMTP_USER = 'mailer';
export const SMTP_PASSWORD = 'smtp-secret-3f9a';

/** Listens on `port` (a free one by default). */
export async function startSmtp(port = 0): Promise<StandInSmtp> {
  const waiting: ((mail: ReceivedMail) => void)[] = [];
  const smtp: StandInSmtp = {
    url: '',
    port: 0,
    received: [],
    refuse: [],
    refused: 0,
    next: () => new Promise((resolve) => waiting.push(resolve)),
    close: async () => {},
  };
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username !== SMTP_USER || auth.password !== SMTP_PASSWORD) return callback(new Error('Invalid username or password'));
      callback(null, { user: auth.username });
    },
    onData(stream, session, callback) {
      const code = smtp.refuse.shift();
      simpleParser(stream).then(
        (parsed) => {
          if (code !== undefined) {
            smtp.refused += 1;
            return callback(Object.assign(new Error(code >= 500 ? 'Mailbox unavailable' : 'Try again later'), { responseCode: code }));
          }
          const mail: ReceivedMail = {
            envelope: {
              from: session.envelope.mailFrom === false ? '' : session.envelope.mailFrom.address,
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            user: session.user as string | undefined,
            parsed,
          };
          smtp.received.push(mail);
          waiting.shift()?.(mail);
          callback();
        },
        (error: Error) => callback(error),
      );
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  smtp.port = (server.server.address() as AddressInfo).port;
  smtp.url = `smtp://${SMTP_USER}:${SMTP_PASSWORD}@127.0.0.1:${smtp.port}`;
  smtp.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return smtp;
}
