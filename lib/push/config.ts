// Push settings from the environment (or the `parley serve` flags, passed in the same shape).
import type { PushOptions } from '../context.js';

export interface PushEnv {
  PARLEY_PUSH_BOUNCER_URL?: string | undefined;
  PARLEY_PUSH_SERVER_ID?: string | undefined;
  PARLEY_PUSH_SERVER_KEY?: string | undefined;
}

/** undefined when no bouncer URL is set: push is then off, as on a Zulip server without one. */
export function pushOptionsFromEnv(env: PushEnv): PushOptions | undefined {
  const bouncerUrl = env.PARLEY_PUSH_BOUNCER_URL?.trim();
  if (!bouncerUrl) return undefined;
  return {
    bouncerUrl: bouncerUrl.replace(/\/+$/, ''),
    serverId: env.PARLEY_PUSH_SERVER_ID ?? '',
    serverKey: env.PARLEY_PUSH_SERVER_KEY ?? '',
  };
}
