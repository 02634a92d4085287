// Sending an email: sendEmail writes an `email` delivery in the deciding transaction; the mailer
// (lib/mail/mailer.ts) sends it after the commit, with retries. Without a mailer nothing is written.
import type { Ctx } from '../context.js';
import { enqueueDelivery, type DeliveryKind } from '../deliveries/outbox.js';
import { classifyEmailFailure, createMailer, DEFAULT_EMAIL_TIMEOUT_MS, type Mailer } from '../mail/mailer.js';
import { botDomain, getRealm } from './realm.js';

/** Waits between attempts at one email: about a day and a half of an unreachable mail server in all. */
const DEFAULT_EMAIL_RETRY_DELAYS_MS: readonly number[] = [5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000];

const MAILER = Symbol('parley.mailer');

/** An email to send; `from` defaults to the server's (options.email.from, else the organization's no-reply address). */
export interface Email {
  to: string;
  subject: string;
  text: string;
  html?: string | undefined;
  from?: string | undefined;
  replyTo?: string | undefined;
}

/** The server's mailer, made on first use; undefined when email is off. */
export function mailerOf(ctx: Ctx): Mailer | undefined {
  return ctx.once(MAILER, () => createMailer(ctx.options.email));
}

export function emailEnabled(ctx: Ctx): boolean {
  return mailerOf(ctx) !== undefined;
}

/** Zulip's FromAddress.NOREPLY with its "<installation> notifications" name; the organization stands for the installation. */
function defaultFrom(ctx: Ctx): string {
  const realm = getRealm(ctx);
  const name = `${realm.name} notifications`.replace(/["\\\r\n]/g, '');
  return `"${name}" <noreply@${botDomain(realm)}>`;
}

/**
 * Sends `email` after the caller's transaction commits (call inside ctx.tx): retried while the
 * mail server is unreachable or answers 4xx, dropped when it refuses (5xx), never sent for a
 * rollback. Returns false, writing nothing, when email is off.
 */
export function sendEmail(ctx: Ctx, email: Email): boolean {
  if (!emailEnabled(ctx)) return false;
  enqueueDelivery(ctx, emailDelivery, email);
  return true;
}

export const emailDelivery: DeliveryKind<Email> = {
  name: 'email',
  // Always on, so that with email switched off nothing waits forever: such a row fails at once.
  enabled: () => true,
  timeoutMs: (ctx) => ctx.options.email?.timeoutMs ?? DEFAULT_EMAIL_TIMEOUT_MS,
  retryDelaysMs: (ctx) => ctx.options.email?.retryDelaysMs ?? DEFAULT_EMAIL_RETRY_DELAYS_MS,
  async send(ctx, { payload }) {
    const mailer = mailerOf(ctx);
    if (!mailer) return { status: 'failed', reason: 'email is off on this server' };
    const from = payload.from ?? ctx.options.email?.from ?? defaultFrom(ctx);
    try {
      await mailer.send({
        from,
        to: payload.to,
        subject: payload.subject,
        text: payload.text,
        html: payload.html,
        replyTo: payload.replyTo,
        headers: { 'Auto-Submitted': 'auto-generated' },
      });
    } catch (error) {
      const failure = classifyEmailFailure(error);
      return failure.permanent ? { status: 'failed', reason: 'the mail server refused the email', code: failure.code } : { status: 'retry', reason: 'mail server unreachable or busy', code: failure.code };
    }
    return { status: 'sent' };
  },
};
