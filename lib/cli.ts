#!/usr/bin/env node
// The `parley` command: `init` (organization and owner), `user add`, `serve` (standalone server).
// Bad arguments print a clear message and exit with code 2.
import { randomBytes } from 'node:crypto';
import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { fromEnv, integer, openChat, parse, processIo, required, secret, switchFromEnv, UsageError, type Io, type Values } from './cli_args.js';
import { PASSWORD_ENV, userCommand } from './cli_user.js';
import { parseTrustProxy } from './http/client_address.js';
import { PUSH_ENV, pushOptionsFromEnv, type PushSetting } from './push/options.js';
import { EMAIL_ENV, emailOptionsFromEnv } from './mail/options.js';
import { ORGANIZATION_DEFAULTS, ORGANIZATION_FLAGS, organizationFile, serveOrganizations, untilStopped } from './cli_orgs.js';
import type { ChatOptions } from './context.js';

/** What `parley serve` uses when neither a flag nor the environment says otherwise. */
export const SERVE_DEFAULTS = { db: './parley.db', port: 9991, host: '127.0.0.1', rateLimit: 200 } as const;

const HELP = `parley: an embeddable, Zulip-compatible team-chat server

Usage:
  parley serve [--db FILE] [--port N] [--host H] [--url URL] [--rate-limit N]
               [--trust-proxy N|ADDRESSES] [--push-bouncer-url URL] [--push-server-id ID]
               [--push-server-key KEY | --push-server-key-file FILE] [--smtp-url URL]
               [--email-from ADDRESS] [--synchronous normal|full]
  parley serve --orgs DIR [--org-url TEMPLATE] [--max-open N] [--idle-seconds N] [--port N]
               [--host H] [other serve flags but --db and --url]
  parley init --db FILE --email E (--password P | --password-file FILE) [--full-name N]
              [--org-name N] [--url URL]
  parley init --orgs DIR --org NAME [the other init flags]
  parley user add --db FILE --email E --full-name N [--password P | --password-file FILE]
                  [--role owner|admin|moderator|member|guest] [--bot]
  parley user import --db FILE USERS.csv
  parley user deactivate --db FILE --email E
  parley user reactivate --db FILE --email E
  parley user regenerate-api-key --db FILE --email E
  parley user set-password --db FILE --email E (--password P | --password-file FILE)
  parley --help

serve      Serves the Zulip API on http://HOST:PORT/api/v1 and the web client on http://HOST:PORT/ (defaults: ${SERVE_DEFAULTS.db}, ${SERVE_DEFAULTS.port},
           ${SERVE_DEFAULTS.host}). A database without an organization gets one, and its owner's
           credentials are printed once. --url sets the organization URL (where clients log
           in); without it, a URL nobody chose follows the listening address. SIGINT/SIGTERM stop
           it cleanly.
--orgs     Serves every NAME.db of DIR as organization NAME, at http://NAME.localhost:PORT/ unless
           --org-url gives another template with {org}: https://{org}.chat.example.com (by host
           name) or https://chat.example.com/org/{org} (by path). Organizations open on first use
           (migrated as they open) and close after --idle-seconds unused (default
           ${ORGANIZATION_DEFAULTS.idleSeconds}), at most --max-open at once (default ${ORGANIZATION_DEFAULTS.maxOpen}). Unknown addresses get
           404 NONEXISTENT_SUBDOMAIN.
init       Creates the organization and its owner (with --orgs: DIR/NAME.db, a new organization);
           the last line of output is JSON {"email","api_key","user_id"}. Refuses a database that
           already has users.
user add   Adds a user or bot; the last line of output is JSON {"email","api_key","user_id"}.
user import   Adds the users of a CSV file (header: email,full_name[,role]; no passwords), all or
           none; prints their credentials as CSV: email,user_id,api_key.
user deactivate   Deactivates a user or bot, and the bots a user owns; their keys stop working.
user reactivate   Reactivates a user or bot (not a bot whose owner is deactivated).
user regenerate-api-key   Prints a new API key for a user or bot; the old one stops working.
user set-password   Sets a user's password (never printed); their web sessions end.

--smtp-url  Where emails leave (missed-message notifications): smtp://user:pass@host:port, or
           smtps:// for TLS from the start; without it email is off. --email-from sets their From.
--trust-proxy  Reverse proxies whose X-Forwarded-For gives the client address (for rate limits):
           a number of hops, or a comma-separated list of addresses, subnets (10.0.0.0/8) and
           loopback, linklocal, uniquelocal. Without it the header is ignored.
Secrets: a --password, --push-server-key or --smtp-url on the command line is
visible to other local users (ps); prefer --password-file / --push-server-key-file FILE (its
content, without the final line break) or the environment: PARLEY_PASSWORD,
PARLEY_PUSH_SERVER_KEY, PARLEY_SMTP_URL.
Passwords have at least 6 characters.

Environment: PARLEY_RATE_LIMIT (requests per minute per user, 0 = off; default ${SERVE_DEFAULTS.rateLimit} for serve),
PARLEY_TRUST_PROXY, PARLEY_PUSH_BOUNCER_URL, PARLEY_PUSH_SERVER_ID, PARLEY_PUSH_SERVER_KEY,
PARLEY_PUSH_TIMEOUT_MS, PARLEY_SMTP_URL, PARLEY_EMAIL_FROM, PARLEY_EMAIL_BATCHING_SECONDS (the
default email batching period), PARLEY_WEBHOOKS_ALLOW_PRIVATE (1: outgoing webhooks may reach
loopback and private addresses), PARLEY_WEBHOOKS_TIMEOUT_MS (how long an outgoing webhook's
server has to answer; default 10000), PARLEY_OWNER_EMAIL, PARLEY_PASSWORD (init, user add, user set-password).
A flag wins over its variable; a blank variable counts as unset.
`;


const PUSH_FLAGS: Record<Exclude<PushSetting, 'timeoutMs'>, string> = {
  bouncerUrl: 'push-bouncer-url',
  serverId: 'push-server-id',
  serverKey: 'push-server-key',
};

/**
 * The push settings of `parley serve`: each --push-* flag wins over its PARLEY_PUSH_* variable.
 * An error names the flag when the value came from one (or is missing next to a flag's URL).
 */
function servePush(v: Values, io: Io) {
  const env: Record<string, string | undefined> = { ...io.env };
  const names: Partial<Record<PushSetting, string>> = {};
  const urlFromFlag = v[PUSH_FLAGS.bouncerUrl] !== undefined;
  const key = secret(v, io, PUSH_FLAGS.serverKey, PUSH_ENV.serverKey);
  for (const [setting, flag] of Object.entries(PUSH_FLAGS) as [keyof typeof PUSH_FLAGS, string][]) {
    const value = setting === 'serverKey' && key?.from !== PUSH_ENV.serverKey ? key?.value : (v[flag] as string | undefined);
    if (value !== undefined) env[PUSH_ENV[setting]] = value;
    const from = setting === 'serverKey' && key !== undefined ? key.from : `--${flag}`;
    if (value !== undefined || (urlFromFlag && fromEnv(io, PUSH_ENV[setting]) === undefined)) names[setting] = from;
  }
  try {
    return pushOptionsFromEnv(env, names);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** The email settings of `parley serve`: --smtp-url and --email-from win over their variables. */
function serveEmail(v: Values, io: Io) {
  const env: Record<string, string | undefined> = { ...io.env };
  const names: Partial<Record<keyof typeof EMAIL_ENV, string>> = {};
  for (const [setting, flag] of [['smtpUrl', 'smtp-url'], ['from', 'email-from']] as const) {
    const value = v[flag] as string | undefined;
    if (value === undefined) continue;
    env[EMAIL_ENV[setting]] = value;
    names[setting] = `--${flag}`;
  }
  try {
    return emailOptionsFromEnv(env, names);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
}

/** --trust-proxy (or PARLEY_TRUST_PROXY): a number of hops or a list of proxy addresses. */
function serveTrustProxy(v: Values, io: Io) {
  const flag = v['trust-proxy'] as string | undefined;
  const [text, name] = flag !== undefined ? [flag, '--trust-proxy'] : [fromEnv(io, 'PARLEY_TRUST_PROXY'), 'PARLEY_TRUST_PROXY'];
  if (text === undefined) return undefined;
  try {
    return parseTrustProxy(text);
  } catch (error) {
    throw new UsageError(`${name}: ${(error as Error).message.replace(/^trustProxy: /, '')}`);
  }
}

/** PARLEY_WEBHOOKS_TIMEOUT_MS: how long an outgoing webhook's server has to answer (Zulip's OUTGOING_WEBHOOK_TIMEOUT_SECONDS). */
function webhookTimeout(io: Io): { timeoutMs?: number } {
  const text = fromEnv(io, 'PARLEY_WEBHOOKS_TIMEOUT_MS');
  if (text === undefined) return {};
  const timeoutMs = integer(text, 'PARLEY_WEBHOOKS_TIMEOUT_MS', 0);
  // (Node's timers take at most 2^31 - 1 ms.)
  if (timeoutMs === 0 || timeoutMs > 2_147_483_647) throw new UsageError('PARLEY_WEBHOOKS_TIMEOUT_MS must be a positive integer of at most 2147483647');
  return { timeoutMs };
}

/** What `parley serve` gives every organization it serves: limits, proxies, push, email, durability. */
function sharedServeOptions(v: Values, io: Io): ChatOptions {
  const rateLimitFlag = v['rate-limit'] as string | undefined;
  const rateLimit = rateLimitFlag !== undefined
    ? integer(rateLimitFlag, '--rate-limit', SERVE_DEFAULTS.rateLimit)
    : integer(fromEnv(io, 'PARLEY_RATE_LIMIT'), 'PARLEY_RATE_LIMIT', SERVE_DEFAULTS.rateLimit);
  const synchronous = ((v.synchronous as string | undefined) ?? 'normal').toUpperCase();
  if (synchronous !== 'NORMAL' && synchronous !== 'FULL') throw new UsageError(`--synchronous must be normal or full`);
  const trustProxy = serveTrustProxy(v, io);
  return {
    synchronous,
    rateLimit: { requestsPerMinute: rateLimit },
    ...(trustProxy === undefined ? {} : { trustProxy }),
    push: servePush(v, io),
    email: serveEmail(v, io),
    outgoingWebhooks: { allowPrivateAddresses: switchFromEnv(io, 'PARLEY_WEBHOOKS_ALLOW_PRIVATE'), ...webhookTimeout(io) },
  };
}

/** --url: an absolute http(s) URL (lib/domain/realm.ts organizationUrl), or a usage error. */
async function urlFlag(value: unknown): Promise<string | undefined> {
  if (value === undefined) return undefined;
  const { organizationUrl } = await import('./domain/realm.js');
  try {
    return organizationUrl(value as string);
  } catch (error) {
    throw new UsageError(`--url: ${(error as Error).message}`);
  }
}

async function init(args: string[], io: Io): Promise<number> {
  const v = parse(args, {
    db: { type: 'string' },
    email: { type: 'string' },
    password: { type: 'string' },
    'password-file': { type: 'string' },
    'full-name': { type: 'string' },
    'org-name': { type: 'string' },
    url: { type: 'string' },
    orgs: { type: 'string' },
    org: { type: 'string' },
  });
  const file = v.orgs === undefined ? required(v, 'db') : organizationFile(v);
  const email = required(v, 'email');
  const password = secret(v, io, 'password', PASSWORD_ENV)?.value;
  if (password === undefined) throw new UsageError(`--password, --password-file or ${PASSWORD_ENV} is required`);
  const url = await urlFlag(v.url);
  const { db, chat } = await openChat(file);
  try {
    if (chat.admin.hasUsers()) {
      io.err(`parley init: ${file} already has an organization; use \`parley user add\` to add users.`);
      return 1;
    }
    const credentials = await chat.admin.initOrganization({
      email,
      password,
      fullName: v['full-name'] as string | undefined,
      orgName: v['org-name'] as string | undefined,
      url,
    });
    io.out(`Created the organization in ${file} with owner ${credentials.email}.`);
    io.out(JSON.stringify(credentials));
    return 0;
  } finally {
    await chat.close();
    db.close();
  }
}

async function serve(args: string[], io: Io): Promise<number> {
  const v = parse(args, {
    db: { type: 'string' },
    port: { type: 'string' },
    host: { type: 'string' },
    url: { type: 'string' },
    'rate-limit': { type: 'string' },
    'push-bouncer-url': { type: 'string' },
    'push-server-id': { type: 'string' },
    'push-server-key': { type: 'string' },
    'push-server-key-file': { type: 'string' },
    'trust-proxy': { type: 'string' },
    'smtp-url': { type: 'string' },
    'email-from': { type: 'string' },
    synchronous: { type: 'string' },
    ...ORGANIZATION_FLAGS,
  });
  const port = integer(v.port as string | undefined, '--port', SERVE_DEFAULTS.port);
  if (port > 65535) throw new UsageError(`--port must be at most 65535, not ${port}`);
  const host = (v.host as string | undefined) ?? SERVE_DEFAULTS.host;
  if (v.orgs !== undefined) return serveOrganizations(v, { port, host, options: sharedServeOptions(v, io) }, io);
  const file = (v.db as string | undefined) ?? SERVE_DEFAULTS.db;
  const urlOption = await urlFlag(v.url);
  const { db, chat } = await openChat(file, {
    ...sharedServeOptions(v, io),
    webClient: true,
    ...(urlOption === undefined ? {} : { realm: { url: urlOption } }),
  });
  let address;
  try {
    address = await chat.listen(port, host);
  } catch (error) {
    io.err(`parley serve: cannot listen on ${host}:${port}: ${(error as Error).message}`);
    await chat.close();
    db.close();
    return 1;
  }
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}`;
  // --url is the operator's choice; without it, an organization URL nobody chose follows this
  // address, which is where Zulip's clients send their logins (realm_url).
  if (urlOption !== undefined) chat.admin.setOrganizationUrl(urlOption);
  const organizationUrl = urlOption ?? chat.admin.followListeningUrl(url);
  if (!chat.admin.hasUsers()) {
    const email = fromEnv(io, 'PARLEY_OWNER_EMAIL') ?? 'owner@example.com';
    // Several processes started on a new file race to create the organization: one does.
    // A password too, so the owner can sign in to the web client at once.
    const password = randomBytes(12).toString('base64url');
    const owner = await chat.admin.initOrganization({ email, fullName: 'Owner', url: urlOption, password }).catch((error: unknown) => {
      if (chat.admin.hasUsers()) return undefined;
      throw error;
    });
    if (owner) {
      io.out(`Created a new organization in ${file}. Its owner's credentials (shown only this once):`);
      io.out(`  email:   ${owner.email}`);
      io.out(`  API key: ${owner.api_key}`);
      io.out(`  password: ${password} (for the web client at ${url}/)`);
    }
  }
  io.out(`parley listening on ${url}`);
  if (organizationUrl !== url) io.out(`Organization URL (where clients log in): ${organizationUrl}`);

  await untilStopped();
  await chat.close();
  db.close();
  return 0;
}

export async function main(argv: string[], io: Io = processIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
      io.out(HELP);
      return command === undefined ? 2 : 0;
    }
    if (command === 'init') return await init(rest, io);
    if (command === 'serve') return await serve(rest, io);
    if (command === 'user' && rest[0] !== undefined) return await userCommand(rest[0], rest.slice(1), io);
    throw new UsageError(`unknown command '${[command, ...rest.slice(0, 1)].join(' ')}'`);
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`parley: ${error.message}\nRun \`parley --help\` for usage.`);
      return 2;
    }
    if (error instanceof Error && error.name === 'ApiError') {
      io.err(`parley: ${error.message}`);
      return 1;
    }
    throw error;
  }
}

function invokedDirectly(): boolean {
  const script = process.argv[1];
  if (script === undefined) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(script)).href;
  } catch {
    return false;
  }
}

if (invokedDirectly()) {
  main(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      process.stderr.write(`parley: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exit(1);
    },
  );
}
