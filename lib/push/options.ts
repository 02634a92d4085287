// PushOptions from an environment-like record, for `parley serve` (its --push-* flags and the
// PARLEY_PUSH_* variables). Errors name the setting, never its value: the server key is a secret.
import type { PushOptions } from '../context.js';

export const PUSH_ENV = {
  bouncerUrl: 'PARLEY_PUSH_BOUNCER_URL',
  serverId: 'PARLEY_PUSH_SERVER_ID',
  serverKey: 'PARLEY_PUSH_SERVER_KEY',
  timeoutMs: 'PARLEY_PUSH_TIMEOUT_MS',
} as const;

export type PushSetting = keyof typeof PUSH_ENV;

/**
 * Reads PARLEY_PUSH_BOUNCER_URL, PARLEY_PUSH_SERVER_ID, PARLEY_PUSH_SERVER_KEY and the optional
 * PARLEY_PUSH_TIMEOUT_MS (blank counts as unset). Returns undefined when no bouncer URL is set
 * (push off); throws an Error when the URL is not http(s) or the id or key is missing. `names`
 * renames a setting in those errors (`parley serve` names the flag a value came from).
 */
export function pushOptionsFromEnv(
  env: Readonly<Record<string, string | undefined>>,
  names: Partial<Record<PushSetting, string>> = {},
): PushOptions | undefined {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? undefined : value;
  };
  const name = (setting: PushSetting): string => names[setting] ?? PUSH_ENV[setting];
  const bouncerUrl = read(PUSH_ENV.bouncerUrl);
  if (bouncerUrl === undefined) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(bouncerUrl);
  } catch {
    throw new Error(`${name('bouncerUrl')} is not a valid URL`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new Error(`${name('bouncerUrl')} must be an http or https URL`);
  const serverId = read(PUSH_ENV.serverId);
  const serverKey = read(PUSH_ENV.serverKey);
  if (serverId === undefined) throw new Error(`${name('serverId')} is required with ${name('bouncerUrl')}`);
  if (serverKey === undefined) throw new Error(`${name('serverKey')} is required with ${name('bouncerUrl')}`);
  const options: PushOptions = { bouncerUrl: bouncerUrl.replace(/\/+$/, ''), serverId, serverKey };
  const timeout = read(PUSH_ENV.timeoutMs);
  if (timeout !== undefined) {
    const ms = Number(timeout);
    if (!Number.isInteger(ms) || ms <= 0) throw new Error(`${name('timeoutMs')} must be a positive integer`);
    options.timeoutMs = ms;
  }
  return options;
}
