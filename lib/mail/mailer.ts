// The one mailer (options.email): a nodemailer transport, or the application's own send function;
// and how a failure reads for the delivery runner: worth retrying, or refused for good.
import nodemailer, { type Transport, type TransportConfig, type Transporter } from 'nodemailer';

/** One email as it leaves parley. */
export interface OutgoingEmail {
  /** An RFC 5322 address, display name allowed: `"Acme notifications" <noreply@acme.example>`. */
  from: string;
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  replyTo?: string | undefined;
  headers?: Record<string, string> | undefined;
}

export interface EmailOptions {
  /**
   * How emails leave: a nodemailer Transporter (nodemailer.createTransport(...)), or anything
   * createTransport takes (a transport, its options, an smtp:// or smtps:// URL).
   */
  transport?: Transporter | Transport | TransportConfig | string | undefined;
  /** Or the application sends them itself; a rejected promise is retried, unless the error has `permanent: true`. */
  send?: ((email: OutgoingEmail) => void | Promise<void>) | undefined;
  /** The From address (default: "<organization name> notifications" <noreply@organization host>). */
  from?: string | undefined;
  /** The longest one attempt at sending may take, in ms (default 30,000; SMTP connections use it as their timeouts). */
  timeoutMs?: number | undefined;
  /** The waits between attempts at sending one email, in ms. */
  retryDelaysMs?: number[] | undefined;
  /** The default of users' email_notifications_batching_period_seconds (Zulip's: 120). */
  batchingSeconds?: number | undefined;
}

export interface Mailer {
  send(email: OutgoingEmail): Promise<void>;
  close(): void;
}

export const DEFAULT_EMAIL_TIMEOUT_MS = 30_000;

function isTransporter(value: unknown): value is Transporter {
  return typeof value === 'object' && value !== null && typeof (value as { sendMail?: unknown }).sendMail === 'function';
}

/** A URL gets the attempt's timeout as its connection, greeting and socket timeouts. */
function transporter(transport: NonNullable<EmailOptions['transport']>, timeoutMs: number): Transporter {
  if (isTransporter(transport)) return transport;
  if (typeof transport === 'string') {
    return nodemailer.createTransport({ url: transport, connectionTimeout: timeoutMs, greetingTimeout: timeoutMs, socketTimeout: timeoutMs });
  }
  return nodemailer.createTransport(transport);
}

/** The mailer of options.email, or undefined: email is off. */
export function createMailer(options: EmailOptions | undefined): Mailer | undefined {
  if (options?.send) {
    const send = options.send;
    return { send: async (email) => send(email), close() {} };
  }
  if (!options?.transport) return undefined;
  const made = transporter(options.transport, options.timeoutMs ?? DEFAULT_EMAIL_TIMEOUT_MS);
  const own = !isTransporter(options.transport);
  return {
    async send(email) {
      await made.sendMail({ from: email.from, to: email.to, subject: email.subject, text: email.text, html: email.html, replyTo: email.replyTo, headers: email.headers });
    },
    close() {
      // A transporter the application made is the application's to close.
      if (own) made.close();
    },
  };
}

/**
 * Zulip's reading of an SMTP failure: a 5xx reply (the recipient or the message refused), or an
 * error the application marked `permanent`, is final; connection trouble, timeouts, 4xx replies
 * and refused credentials (an operator may fix them) are retried. The code names the failure
 * without its text, which may quote the server.
 */
export function classifyEmailFailure(error: unknown): { permanent: boolean; code: string } {
  const e = (error ?? {}) as { responseCode?: unknown; code?: unknown; permanent?: unknown };
  if (e.code === 'EAUTH') return { permanent: false, code: 'EAUTH' };
  const responseCode = typeof e.responseCode === 'number' ? e.responseCode : undefined;
  const code = responseCode !== undefined ? `SMTP_${responseCode}` : typeof e.code === 'string' ? e.code : 'SEND_FAILED';
  return { permanent: e.permanent === true || (responseCode !== undefined && responseCode >= 500), code };
}
