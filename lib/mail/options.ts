// EmailOptions from an environment-like record, for `parley serve` (its --smtp-url and
// --email-from flags and the PARLEY_SMTP_URL, PARLEY_EMAIL_FROM, PARLEY_EMAIL_BATCHING_SECONDS
// variables). Errors name the setting, never its value: an SMTP URL holds a password.
import type { EmailOptions } from './mailer.js';

export const EMAIL_ENV = {
  smtpUrl: 'PARLEY_SMTP_URL',
  from: 'PARLEY_EMAIL_FROM',
  batchingSeconds: 'PARLEY_EMAIL_BATCHING_SECONDS',
} as const;

type EmailSetting = keyof typeof EMAIL_ENV;

/** Zulip's largest email batching period: one week. */
const MAX_BATCHING_SECONDS = 7 * 24 * 60 * 60;

/**
 * Reads the PARLEY_SMTP_URL (smtp:// or smtps://, credentials in it), PARLEY_EMAIL_FROM and
 * PARLEY_EMAIL_BATCHING_SECONDS variables (blank counts as unset). Without a URL email is off
 * (undefined, or only the batching default). `names` renames a setting in errors (the flag a
 * value came from).
 */
export function emailOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  names: Partial<Record<EmailSetting, string>> = {},
): EmailOptions | undefined {
  const read = (setting: EmailSetting): string | undefined => {
    const value = env[EMAIL_ENV[setting]]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const name = (setting: EmailSetting): string => names[setting] ?? EMAIL_ENV[setting];
  const options: EmailOptions = {};
  const batching = read('batchingSeconds');
  if (batching !== undefined) {
    const seconds = Number(batching);
    if (!Number.isInteger(seconds) || seconds <= 0 || seconds > MAX_BATCHING_SECONDS) {
      throw new Error(`${name('batchingSeconds')} must be a whole number of seconds from 1 to ${MAX_BATCHING_SECONDS}`);
    }
    options.batchingSeconds = seconds;
  }
  const url = read('smtpUrl');
  const from = read('from');
  if (url !== undefined) {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      throw new Error(`${name('smtpUrl')} is not a valid URL`);
    }
    if (parsed.protocol !== 'smtp:' && parsed.protocol !== 'smtps:') throw new Error(`${name('smtpUrl')} must be an smtp:// or smtps:// URL`);
    if (parsed.hostname === '') throw new Error(`${name('smtpUrl')} has no host`);
    options.transport = url;
  } else if (from !== undefined) {
    throw new Error(`${name('from')} needs ${name('smtpUrl')}`);
  }
  if (from !== undefined) options.from = from;
  return Object.keys(options).length === 0 ? undefined : options;
}
