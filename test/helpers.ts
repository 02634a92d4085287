// Shared test set-up: a parley server on a real SQLite database, listening on 127.0.0.1, with an
// owner and helpers to make users and HTTP requests (urlencoded, multipart or query string).
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { createChatServer, type ChatOptions, type ChatServer, type Credentials } from '../lib/index.js';
import { silentLogger } from '../lib/context.js';

export interface TestUser extends Credentials {
  auth: string;
}

export interface Reply {
  status: number;
  body: Record<string, any>;
  headers: Headers;
}

export type Encoding = 'urlencoded' | 'multipart' | 'query';

export interface RequestOptions {
  as?: TestUser | null;
  params?: Record<string, unknown>;
  encoding?: Encoding;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface TestServer {
  chat: ChatServer;
  db: Database.Database;
  url: string;
  dir: string;
  owner: TestUser;
  request(method: string, path: string, options?: RequestOptions): Promise<Reply>;
  user(
    role?: 'owner' | 'admin' | 'moderator' | 'member' | 'guest',
    extra?: { bot?: boolean; fullName?: string; password?: string; email?: string; emailAddressVisibility?: 1 | 2 | 3 | 4 | 5 },
  ): Promise<TestUser>;
  close(): Promise<void>;
}

let counter = 0;

/**
 * The SQLite driver of the test servers: better-sqlite3, or with PARLEY_TEST_DRIVER=libsql the
 * `libsql` package (the scale-out path; test/libsql/ re-runs the core suites with it).
 */
export function testDriver(): 'better-sqlite3' | 'libsql' {
  return process.env.PARLEY_TEST_DRIVER === 'libsql' ? 'libsql' : 'better-sqlite3';
}

/** A database of the test driver (a file path or ':memory:'). */
export function openTestDatabase(file: string): Database.Database {
  if (testDriver() === 'better-sqlite3') return new Database(file);
  const Libsql = createRequire(import.meta.url)('libsql') as new (path: string) => Database.Database;
  return new Libsql(file);
}

export function basic(email: string, apiKey: string): string {
  return 'Basic ' + Buffer.from(`${email}:${apiKey}`).toString('base64');
}

export function withAuth(c: Credentials): TestUser {
  return { ...c, auth: basic(c.email, c.api_key) };
}

/** Form value for one parameter: strings as they are, everything else as JSON. */
export function formValue(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

export async function sendRequest(base: string, method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const encoding = options.encoding ?? (method === 'GET' ? 'query' : 'urlencoded');
  const headers: Record<string, string> = { ...options.headers };
  if (options.as) headers.authorization = options.as.auth;
  let url = base + '/api/v1' + path;
  let body: string | FormData | undefined;
  const entries = Object.entries(options.params ?? {}).filter(([, v]) => v !== undefined);
  if (entries.length > 0) {
    if (encoding === 'query') {
      url += (url.includes('?') ? '&' : '?') + new URLSearchParams(entries.map(([k, v]): [string, string] => [k, formValue(v)]));
    } else if (encoding === 'multipart') {
      const form = new FormData();
      for (const [k, v] of entries) form.append(k, formValue(v));
      body = form;
    } else {
      headers['content-type'] = 'application/x-www-form-urlencoded';
      body = new URLSearchParams(entries.map(([k, v]): [string, string] => [k, formValue(v)])).toString();
    }
  }
  const response = await fetch(url, { method, headers, body, signal: options.signal });
  return { status: response.status, body: await jsonBody(response), headers: response.headers };
}

/** A response's JSON body; a body that is not JSON comes back as `{ _raw: text }`. */
export async function jsonBody(response: Response): Promise<Record<string, any>> {
  const text = await response.text();
  try {
    return JSON.parse(text) as Record<string, any>;
  } catch {
    return { _raw: text };
  }
}

/**
 * A server with an owner. `defaultChannels`: the organization starts with parley's default
 * channels (general, sandbox); off by default, so suites start from the channels they create.
 */
export async function startServer({ defaultChannels = false, ...options }: ChatOptions & { file?: boolean; defaultChannels?: boolean } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  const opened = openTestDatabase(options.file === false ? ':memory:' : join(dir, 'chat.db'));
  // Most suites address users by their real emails: their organizations show emails to everyone
  // unless a test says otherwise (test/email_visibility.test.ts covers parley's own default).
  const chat = createChatServer(opened, { logger: silentLogger, ...options, realm: { emailAddressVisibility: 1, ...options.realm } });
  // With libsql, tests read and write rows through the same adapter parley uses.
  const db = chat.ctx.db;
  const address = await chat.listen(0, '127.0.0.1');
  const url = `http://127.0.0.1:${address.port}`;
  const owner = withAuth(await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Olivia Owner', password: 'owner-password', defaultChannels }));
  const server: TestServer = {
    chat,
    db,
    url,
    dir,
    owner,
    request: (method, path, opts) => sendRequest(url, method, path, opts),
    async user(role = 'member', extra = {}) {
      counter += 1;
      const email = extra.email ?? `${role}${counter}@example.com`;
      return withAuth(
        await chat.admin.addUser({
          email,
          fullName: extra.fullName ?? `${role[0]!.toUpperCase()}${role.slice(1)} ${counter}`,
          role,
          bot: extra.bot,
          password: extra.password,
          emailAddressVisibility: extra.emailAddressVisibility,
        }),
      );
    },
    async close() {
      await chat.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return server;
}
