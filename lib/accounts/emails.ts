// The emails of the ways in (the texts of Zulip's templates/zerver/emails/, in parley's words):
// an invitation, a sign-up's address confirmation, a password reset and the answer to a reset for
// an address without an account, a new address's confirmation and the notice to the old one.
import type { Ctx } from '../context.js';
import type { Email } from '../domain/email.js';
import { getRealm } from '../domain/realm.js';

interface Organization {
  name: string;
  url: string;
}

/** A date as people read it in an email, in UTC. */
function until(seconds: number | null): string {
  if (seconds === null) return 'The link does not expire.';
  const date = new Date(seconds * 1000).toISOString().replace('T', ' ').slice(0, 16);
  return `The link works until ${date} UTC.`;
}

/** An email to `to` in the organization's name: a greeting, then the paragraphs (lines, '' between paragraphs). */
function email(ctx: Ctx, to: string, write: (org: Organization) => { subject: string; body: string[] }): Email {
  const realm = getRealm(ctx);
  const { subject, body } = write({ name: realm.name, url: realm.url });
  return { to, subject, text: ['Hi there,', '', ...body].join('\n') + '\n' };
}

export function invitationEmail(ctx: Ctx, to: string, referrer: { name: string; email: string }, link: string, expiresAt: number | null): Email {
  return email(ctx, to, (org) => ({
    // Zulip's subject: "{referrer} has invited you to join {organization}".
    subject: `${referrer.name} has invited you to join ${org.name}`,
    body: [
      `${referrer.name} (${referrer.email}) wants you to join them on ${org.name}, their team chat at ${org.url}.`,
      '',
      'To get started, follow the link below:',
      `    ${link}`,
      '',
      until(expiresAt),
    ],
  }));
}

export function registrationEmail(ctx: Ctx, to: string, link: string): Email {
  return email(ctx, to, (org) => ({
    subject: `Confirm your email address for ${org.name}`,
    body: [
      `Someone (possibly you) asked to join ${org.name} (${org.url}) with this email address.`,
      '',
      'To confirm it and create your account, follow the link below:',
      `    ${link}`,
      '',
      `${until(ctx.now() + 24 * 3600)} If you did not ask to join, ignore this email.`,
    ],
  }));
}

/** Sign-up with an address that already has an account: no account is made, and the owner is told. */
export function alreadyRegisteredEmail(ctx: Ctx, to: string): Email {
  return email(ctx, to, (org) => ({
    subject: `You already have an account in ${org.name}`,
    body: [
      `Someone (possibly you) asked to join ${org.name} (${org.url}) with ${to}, which already has an account there.`,
      '',
      `Sign in at ${org.url}, or use "Forgot password?" on its sign-in page to choose a new password.`,
    ],
  }));
}

export function passwordResetEmail(ctx: Ctx, to: string, link: string): Email {
  return email(ctx, to, (org) => ({
    subject: `Reset your password for ${org.name}`,
    body: [
      `Someone (possibly you) asked for a new password for ${to} on ${org.name} (${org.url}).`,
      '',
      'Follow the link below to choose one; it works once, for 24 hours:',
      `    ${link}`,
      '',
      'If you did not ask for this, ignore this email: your password stays as it is.',
    ],
  }));
}

/** Zulip's password_reset email for an address with no active account in the organization. */
export function noAccountEmail(ctx: Ctx, to: string): Email {
  return email(ctx, to, (org) => ({
    subject: `Reset your password for ${org.name}`,
    body: [
      `Someone (possibly you) requested a password reset email for ${to} on ${org.url}, but you do not have an active account in ${org.url}.`,
      '',
      'If you did not ask for this, ignore this email.',
    ],
  }));
}

export function confirmNewEmail(ctx: Ctx, to: string, oldEmail: string, link: string): Email {
  return email(ctx, to, (org) => ({
    subject: `Confirm your new email address for ${org.name}`,
    body: [
      `Someone (possibly you) asked to change the email address of an account on ${org.name} (${org.url}) from ${oldEmail} to ${to}.`,
      '',
      'To confirm the change, follow the link below; it works once, for 24 hours. Until then nothing changes.',
      `    ${link}`,
    ],
  }));
}

/** Zulip's notify_change_in_email, to the address the account had. */
export function emailChangedEmail(ctx: Ctx, to: string, newEmail: string): Email {
  return email(ctx, to, (org) => ({
    subject: `Your email address on ${org.name} has changed`,
    body: [
      `The email address of your account on ${org.name} (${org.url}) is now ${newEmail}.`,
      '',
      'If you did not make this change, contact an administrator of the organization at once.',
    ],
  }));
}
