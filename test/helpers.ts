// Shared test set-up: a parley server on a real SQLite database, with an owner and helpers to make
// users and HTTP requests (urlencoded, multipart or query string). The server listens on 127.0.0.1
// (`url`, for clients and raw fetches), but `request()` goes in-process through light-my-request
// (fastify's inject) into chat.handler; with `{ socket: true }` it goes over the socket with fetch.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { inject } from 'light-my-request';
import { createChatServer, type ChatOptions, type ChatServer, type Credentials } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { TO_VERSION_23 } from './schema_23.js';
import { hashPassword } from '../lib/domain/credentials.js';
import { contextOf } from '../lib/context.js';
import { checkStoredEvents } from './stored_events.js';

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
  as?: TestUser | null | undefined;
  params?: Record<string, unknown> | undefined;
  encoding?: Encoding | undefined;
  headers?: Record<string, string> | undefined;
  signal?: AbortSignal | undefined;
}

export interface TestServer {
  chat: ChatServer;
  db: Database.Database;
  /** The listening server's base URL (http://127.0.0.1:port). */
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

/**
 * With PARLEY_TEST_ALL_BY_PERIOD=1 every channel counts as big (largeChannelSubscribers 0): its
 * messages are had by subscription period, not by a row per subscriber (test/by_period/ re-runs
 * suites so).
 */
export function testChannelOptions(): { largeChannelSubscribers?: number } {
  return process.env.PARLEY_TEST_ALL_BY_PERIOD === '1' ? { largeChannelSubscribers: 0 } : {};
}

/**
 * With PARLEY_TEST_MIGRATED=1 a test server's database is made in schema 23's layout (before subscription periods) and migrated
 * forward by createChatServer, as an existing installation's is (test/migrated/ re-runs suites so).
 */
async function migratedSchema(db: Database.Database): Promise<void> {
  await createChatServer(db, { logger: silentLogger }).close();
  db.exec(TO_VERSION_23);
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

/** The URL (path and query after the API prefix) and the init of a request as `fetch` takes it. */
function requestInit(method: string, path: string, options: RequestOptions): { url: string; init: RequestInit } {
  const encoding = options.encoding ?? (method === 'GET' ? 'query' : 'urlencoded');
  const headers: Record<string, string> = { ...options.headers };
  if (options.as) headers.authorization = options.as.auth;
  let url = '/api/v1' + path;
  let body: string | FormData | null = null;
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
  return { url, init: { method, headers, body, signal: options.signal ?? null } };
}

export async function sendRequest(base: string, method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  const { url, init } = requestInit(method, path, options);
  const response = await fetch(base + url, init);
  return { status: response.status, body: await jsonBody(response), headers: response.headers };
}

// The headers fetch (undici) sends with every request, so a handler sees the same request either way.
const FETCH_HEADERS: Readonly<Record<string, string>> = {
  accept: '*/*',
  'accept-language': '*',
  'sec-fetch-mode': 'cors',
  'user-agent': 'node',
  'accept-encoding': 'gzip, deflate',
};

/** The same request as sendRequest, dispatched into a request listener without a socket. */
export async function injectRequest(handler: ChatServer['handler'], method: string, path: string, options: RequestOptions = {}): Promise<Reply> {
  if (options.signal) throw new Error('an aborting request needs a socket: startServer({ socket: true })');
  const { url, init } = requestInit(method, path, options);
  // Request encodes the body as fetch would (a multipart body with its boundary).
  const encoded = new Request('http://127.0.0.1' + url, init);
  const headers: Record<string, string> = { ...FETCH_HEADERS };
  encoded.headers.forEach((value, key) => (headers[key] = value));
  const injected = { method: method as 'GET', url, headers };
  const response = await inject(
    (req, res) => handler(req, res),
    init.body === null ? injected : { ...injected, payload: Buffer.from(await encoded.arrayBuffer()) },
  );
  const replyHeaders = new Headers();
  for (const [key, value] of Object.entries(response.headers)) {
    for (const one of Array.isArray(value) ? value : [value]) if (one !== undefined) replyHeaders.append(key, String(one));
  }
  return { status: response.statusCode, body: parseJson(response.payload), headers: replyHeaders };
}

/** A response's JSON body; a body that is not JSON comes back as `{ _raw: text }`. */
export async function jsonBody(response: Response): Promise<Record<string, any>> {
  return parseJson(await response.text());
}

function parseJson(text: string): Record<string, any> {
  try {
    return JSON.parse(text) as Record<string, any>;
  } catch {
    return { _raw: text };
  }
}

/**
 * A test server with an owner. `request()` is in-process unless `socket` is set: then it goes over
 * HTTP, for tests of HTTP itself (bodies on the wire, aborted long-polls, sockets' addresses).
 * `defaultChannels`: the organization starts with parley's default channels (general, sandbox);
 * off by default, so suites start from the channels they create.
 */
// The owner's password is 'owner-password'. Its scrypt hash (parley's real parameters) is made once
// per test process and stored with each new owner: scrypt is meant to be slow, and most suites
// never log in with a password (test/auth.test.ts and test/passwords.test.ts hash their own).
let ownerPasswordHash: Promise<string> | undefined;

export async function startServer({
  defaultChannels = false,
  ...options
}: ChatOptions & { file?: boolean; socket?: boolean; defaultChannels?: boolean } = {}): Promise<TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-test-'));
  const opened = openTestDatabase(options.file === false ? ':memory:' : join(dir, 'chat.db'));
  if (process.env.PARLEY_TEST_MIGRATED === '1') await migratedSchema(opened);
  // Most suites address users by their real emails: their organizations show emails to everyone
  // unless a test says otherwise (test/email_visibility.test.ts covers parley's own default).
  const chat = createChatServer(opened, { logger: silentLogger, ...testChannelOptions(), ...options, realm: { emailAddressVisibility: 1, ...options.realm } });
  // With libsql, tests read and write rows through the same adapter parley uses.
  const db = contextOf(chat).db;
  const url = `http://127.0.0.1:${(await chat.listen(0, '127.0.0.1')).port}`;
  const owner = withAuth(await chat.admin.initOrganization({ email: 'owner@example.com', fullName: 'Olivia Owner', defaultChannels }));
  ownerPasswordHash ??= hashPassword('owner-password', randomBytes);
  db.prepare('UPDATE user SET password_hash = ? WHERE id = ?').run(await ownerPasswordHash, owner.user_id);
  const server: TestServer = {
    chat,
    db,
    url,
    dir,
    owner,
    request: (method, path, opts) => (options.socket ? sendRequest(url, method, path, opts) : injectRequest(chat.handler, method, path, opts)),
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
    // Closing checks every stored event against its schema (test/stored_events.ts) and fails the
    // closing test when one is not as its schema says; the server is closed either way. A test
    // that closed the database itself (a restart) has nothing left to check.
    async close() {
      let wrongEvents: unknown;
      try {
        if (db.open !== false) checkStoredEvents(db);
      } catch (error) {
        wrongEvents = error;
      }
      await chat.close();
      db.close();
      rmSync(dir, { recursive: true, force: true });
      if (wrongEvents !== undefined) throw wrongEvents;
    },
  };
  return server;
}

/** Waits (up to 10 s) until the condition holds, and says whether it did: for what another process or the browser does in its own time. */
export async function until(condition: () => boolean): Promise<boolean> {
  for (let i = 0; i < 500 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 20));
  return condition();
}
