// The in-process API and HTTP answer alike, for every route of the route table: the permission
// matrix's representative request (test/permission_matrix.ts) for callers of several roles, a
// deactivated one and one that does not exist, sent over HTTP to one copy of a world and called
// in-process on another copy made from the same bytes, with the same clock and the same random
// bytes. The same data fields answer a success; the same status, code, message and extra fields
// an error.
import t, { type Test } from 'tap';
import { createHash } from 'node:crypto';
import Database from 'better-sqlite3';
import { createChatServer, ApiError, type ChatServer } from '../lib/index.js';
import { silentLogger } from '../lib/logger.js';
import { RawResponse } from '../lib/http/respond.js';
import type { UploadedFile } from '../lib/http/body.js';
import { routeGroups } from '../lib/routes/index.js';
import type { RouteDef } from '../lib/routes/route.js';
import { basic, sendRequest, type TestUser } from './helpers.js';
import { MATRIX, matrixEnv, type MatrixRequest, type Role } from './permission_matrix.js';
import { pushWorld } from './push_helpers.js';
import { IMAGES } from './user_status_helpers.js';
import { pngEverywhere } from './image_host.js';

const NOW = Date.now();
const ROLES: readonly Role[] = ['owner', 'member', 'guest', 'bot'];

/** Random bytes that start over at `restart(call)`: both copies draw the same ones for the same call. */
function replayableRandom() {
  let seed = '';
  let drawn = 0;
  return {
    restart: (call: string) => {
      seed = call;
      drawn = 0;
    },
    random: (size: number): Buffer => {
      const bytes = Buffer.alloc(size);
      for (let at = 0; at < size; at += 32) createHash('sha256').update(`${seed} ${drawn++}`).digest().copy(bytes, at);
      return bytes;
    },
  };
}

const replay = replayableRandom();
// Email to a sink and no per-client-address limit, as the permission matrix's world.
const accountOptions = { email: { send: async () => undefined }, accounts: { emailsPerClientAddressPerDay: 0 } };
const { s, bouncer } = await pushWorld(t, { push: { retryDelaysMs: [1] }, chat: { imageProxy: { fetch: pngEverywhere }, clock: () => NOW, ...accountOptions } });
const chatOptions = {
  logger: silentLogger,
  clock: () => NOW,
  random: replay.random,
  imageProxy: { fetch: pngEverywhere },
  ...accountOptions,
  push: { bouncerUrl: bouncer.url, serverId: bouncer.serverId, serverKey: bouncer.serverKey, retryDelaysMs: [1], timeoutMs: 2000 },
};
const env = await matrixEnv(s, bouncer, 'parity');

/** A copy of the world as it is now: its database's bytes in a server of their own. */
async function copy(t: Test): Promise<ChatServer> {
  const bytes = s.db.serialize();
  // The file is in WAL mode (header bytes 18 and 19); the copy lives in memory, with a rollback journal.
  bytes[18] = 1;
  bytes[19] = 1;
  const chat = createChatServer(new Database(bytes), chatOptions);
  t.teardown(() => chat.close());
  return chat;
}

type Outcome = { answer: unknown } | { error: Record<string, unknown> };

/** An HTTP answer as the in-process API gives it: the data fields, or the error's fields. */
async function overHttp(url: string, route: RouteDef, as: TestUser, request: MatrixRequest): Promise<Outcome> {
  let response: Response;
  if (request.upload) {
    const form = new FormData();
    form.append('f1', new Blob([IMAGES.png], { type: 'image/png' }), 'e.png');
    response = await fetch(`${url}/api/v1${request.path}`, { method: route.method, headers: { authorization: as.auth }, body: form });
  } else if (route.rawResponse !== undefined) {
    response = await fetch(`${url}${route.outsideApi ? '' : '/api/v1'}${request.path}`, { method: route.method, headers: { authorization: as.auth } });
  } else {
    const reply = await sendRequest(url, route.method, request.path, { as, params: request.params });
    return outcome(reply.status, reply.body);
  }
  if (response.status === 200 && route.rawResponse !== undefined) {
    return { answer: { status: 200, body: Buffer.from(await response.arrayBuffer()).toString('base64') } };
  }
  return outcome(response.status, (await response.json()) as Record<string, unknown>);
}

function outcome(status: number, body: Record<string, unknown>): Outcome {
  const { result, msg, ignored_parameters_unsupported: _ignored, ...fields } = body;
  if (result === 'success') return { answer: fields };
  return { error: { status, msg, ...fields } };
}

/** The same request as an in-process call: path segments and form values decoded as HTTP decodes them. */
async function inProcess(chat: ChatServer, group: string, name: string, route: RouteDef, actor: number, request: MatrixRequest): Promise<Outcome> {
  const input: Record<string, unknown> = {};
  const pattern = new RegExp(`^${route.path.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:(\w+)/g, '(?<$1>[^/]+)').replace('*', '(?<tail>.*)')}$`);
  const path = request.path.split('?')[0]!;
  const segments = pattern.exec(path)?.groups ?? {};
  for (const { name: key, wire, param } of route.fields) {
    const given = param.in === 'path' ? decodeURIComponent(segments[wire] ?? segments.tail ?? '') : [wire, ...param.aliases].map((alias) => request.params?.[alias]).find((v) => v !== undefined);
    if (given === undefined) continue;
    input[key] = typed(param.wire, given);
  }
  if (request.upload) input.files = [{ field: 'f1', filename: 'e.png', mimetype: 'image/png', data: IMAGES.png } satisfies UploadedFile];
  const call = (chat.api as unknown as Record<string, Record<string, (actor: number, input: unknown) => unknown>>)[group]![name]!;
  try {
    const result = await call(actor, input);
    if (result instanceof RawResponse) {
      const body = Buffer.isBuffer(result.body) || typeof result.body === 'string' ? Buffer.from(result.body) : Buffer.concat(await result.body.toArray());
      return { answer: { status: result.status, body: body.toString('base64') } };
    }
    return { answer: JSON.parse(JSON.stringify(result ?? {})) as unknown };
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    return { error: { status: error.status, msg: error.message, code: error.code, ...error.extra } };
  }
}

/** A value as the test helpers send it (text, or JSON text), decoded as its parameter's wire kind decodes it. */
function typed(wire: 'string' | 'json' | 'json-or-string', value: unknown): unknown {
  if (wire === 'string') return typeof value === 'string' ? value : JSON.stringify(value);
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}

const callerOf = (role: Role): Promise<TestUser> => (role === 'bot' ? s.user('member', { bot: true }) : s.user(role));

for (const [group, routes] of Object.entries(routeGroups)) {
  for (const [name, route] of Object.entries(routes) as [string, RouteDef][]) {
    const key = `${route.method} ${route.path}`;
    const entry = MATRIX[key];
    if (!entry) continue; // test/permissions.test.ts fails for it
    t.test(`${key} (api.${group}.${name})`, async (t) => {
      // Each caller's request is made in the world first (it may add what it acts on), then the
      // world is copied twice and every request runs on both copies in the same order.
      const calls: [string, TestUser, MatrixRequest][] = [];
      for (const role of ROLES) {
        const as = await callerOf(role);
        calls.push([role, as, await entry.request(env, as, role)]);
      }
      const deactivated = await s.user('member');
      calls.push(['deactivated', deactivated, await entry.request(env, deactivated, 'member')]);
      s.chat.admin.deactivateUser(deactivated.user_id);
      const nobody = { user_id: 999_999, email: 'nobody@example.com', api_key: 'k'.repeat(32), auth: basic('nobody@example.com', 'k'.repeat(32)) } as TestUser;
      calls.push(['nobody', nobody, await entry.request(env, await s.user('member'), 'member')]);

      const [http, api] = [await copy(t), await copy(t)];
      const url = `http://127.0.0.1:${(await http.listen(0, '127.0.0.1')).port}`;
      for (const [who, as, request] of calls) {
        replay.restart(`${key} ${who}`);
        const overHttpOutcome = await overHttp(url, route, as, request);
        replay.restart(`${key} ${who}`);
        const inProcessOutcome = await inProcess(api, group, name, route, as.user_id, request);
        t.same(inProcessOutcome, overHttpOutcome, `${who}: ${JSON.stringify(overHttpOutcome).slice(0, 160)}`);
      }
    });
  }
}
