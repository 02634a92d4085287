// `parley serve --orgs DIR`: every `<name>.db` of a directory served as organization <name>,
// reached by subdomain (http://<name>.localhost:PORT by default, --org-url for another template),
// through one host (lib/host/); and `parley init --orgs DIR --org NAME`, which creates one more.
import { statSync } from 'node:fs';
import { integer, UsageError, type Io, type Values } from './cli_args.js';
import type { ChatOptions } from './context.js';
import { isOrganizationName, NAME_RULE, organizationAddresses } from './host/addresses.js';

export const ORGANIZATION_FLAGS = {
  orgs: { type: 'string' },
  'org-url': { type: 'string' },
  'max-open': { type: 'string' },
  'idle-seconds': { type: 'string' },
} as const;

/** What a host of many keeps open by default: ChatHostOptions' maxOpen and idleMs. */
export const ORGANIZATION_DEFAULTS = { maxOpen: 100, idleSeconds: 600 } as const;

function directoryFlag(v: Values): string {
  const dir = v.orgs as string;
  let isDirectory = false;
  try {
    isDirectory = statSync(dir).isDirectory();
  } catch {
    isDirectory = false;
  }
  if (!isDirectory) throw new UsageError(`--orgs ${dir} is not a directory`);
  return dir;
}

/** `init --orgs DIR --org NAME`: the database file of a new organization. */
export function organizationFile(v: Values): string {
  if (v.db !== undefined) throw new UsageError('--db and --orgs are exclusive');
  const dir = directoryFlag(v);
  const name = v.org as string | undefined;
  if (name === undefined || name === '') throw new UsageError('--org is required with --orgs');
  if (!isOrganizationName(name)) throw new UsageError(`--org '${name}': ${NAME_RULE}`);
  return `${dir.replace(/\/+$/, '')}/${name}.db`;
}

/** --org-url: a template with {org} (lib/host/addresses.ts), or a usage error. */
function templateFlag(value: unknown): string | undefined {
  if (value === undefined) return undefined;
  try {
    organizationAddresses(value as string);
  } catch (error) {
    throw new UsageError(`--org-url: ${(error as Error).message}`);
  }
  return value as string;
}

/** Until SIGINT or SIGTERM. */
export function untilStopped(): Promise<void> {
  return new Promise((resolve) => {
    const stop = () => resolve();
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}

export async function serveOrganizations(v: Values, where: { port: number; host: string; options: ChatOptions }, io: Io): Promise<number> {
  if (v.db !== undefined) throw new UsageError('--db and --orgs are exclusive');
  if (v.url !== undefined) throw new UsageError('--url is for one organization; with --orgs, --org-url sets the template');
  const dir = directoryFlag(v);
  const template = templateFlag(v['org-url']);
  const maxOpen = integer(v['max-open'] as string | undefined, '--max-open', ORGANIZATION_DEFAULTS.maxOpen);
  if (maxOpen < 1) throw new UsageError('--max-open must be at least 1');
  const idleSeconds = integer(v['idle-seconds'] as string | undefined, '--idle-seconds', ORGANIZATION_DEFAULTS.idleSeconds);
  // Loaded on first use, as openChat does: argument errors answer without loading the server.
  const [{ createChatHost, organizationsIn }, { listen }, { jsonLogger }] = await Promise.all([
    import('./index.js'),
    import('./http/listen.js'),
    import('./logger.js'),
  ]);
  const directory = organizationsIn(dir);
  let handler: ((...args: Parameters<ReturnType<typeof createChatHost>['handler']>) => void) | undefined;
  let listening;
  try {
    listening = await listen((req, res) => handler?.(req, res), where.port, where.host);
  } catch (error) {
    io.err(`parley serve: cannot listen on ${where.host}:${where.port}: ${(error as Error).message}`);
    return 1;
  }
  const url = `http://${where.host.includes(':') ? `[${where.host}]` : where.host}:${listening.address.port}`;
  const chatHost = createChatHost({
    url: template ?? `http://{org}.localhost:${listening.address.port}`,
    open: directory.open,
    options: { logger: jsonLogger, ...where.options },
    maxOpen,
    idleMs: idleSeconds * 1000,
    webClient: true,
  });
  handler = chatHost.handler;
  const names = directory.names();
  io.out(`parley listening on ${url}`);
  io.out(`Organizations: ${names.length} in ${dir}, each at ${chatHost.url('{org}')} (parley init --orgs ${dir} --org NAME adds one)`);
  // Every database migrated and its pending deliveries resumed, in the background.
  const visiting = chatHost.visit(names);
  await untilStopped();
  await listening.close();
  await chatHost.close();
  await visiting.catch(() => undefined);
  return 0;
}
