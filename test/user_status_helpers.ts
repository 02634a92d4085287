// Shared by the user status and custom emoji tests: one rule checked over HTTP and in-process with
// the same expectation, test images, multipart uploads, and applying events to /register state.
import type { Test } from 'tap';
import { ApiError } from '../lib/index.js';
import type { UploadedFile } from '../lib/http/body.js';
import type { Reply, TestServer, TestUser } from './helpers.js';

export type Outcome = { status: 200 } | { status: number; code: string; msg: string };

export const OK: Outcome = { status: 200 };

export function badRequest(msg: string): Outcome {
  return { status: 400, code: 'BAD_REQUEST', msg };
}

/** The outcome of a reply, in the shape of Outcome. */
export function outcomeOf(reply: Reply): Outcome {
  if (reply.status === 200) return { status: 200 };
  return { status: reply.status, code: reply.body.code, msg: reply.body.msg };
}

/** Runs an in-process call and reports its outcome (ApiErrors become the same shape as HTTP errors). */
export async function inProcess(call: () => unknown): Promise<Outcome> {
  try {
    await call();
    return { status: 200 };
  } catch (error) {
    if (error instanceof ApiError) return { status: error.status, code: error.code, msg: error.message };
    throw error;
  }
}

/** Checks a rule both ways: the HTTP request, then the in-process call, must end as `wanted`. */
export async function expectBoth(
  t: Test,
  wanted: Outcome,
  http: () => Promise<Reply>,
  call: () => unknown,
  label = '',
): Promise<void> {
  const reply = await http();
  t.same(outcomeOf(reply), wanted, `over HTTP${label ? `: ${label}` : ''}`);
  if (reply.status === 200) t.equal(reply.body.result, 'success');
  t.same(await inProcess(call), wanted, `in-process${label ? `: ${label}` : ''}`);
}

/** snake_case request parameters -> the in-process API's camelCase input. */
export function camel(params: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(params)) input[key.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase())] = value;
  return input;
}

export const IMAGES = {
  png: Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==', 'base64'),
  gif: Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64'),
  jpeg: Buffer.from('FFD8FFE000104A46494600010100000100010000FFD9', 'hex'),
  webp: Buffer.concat([Buffer.from('RIFF'), Buffer.from('1A000000', 'hex'), Buffer.from('WEBPVP8L'), Buffer.from('0D0000002F0000000007D0FF0FFE', 'hex')]),
  avif: Buffer.concat([Buffer.from('0000001C', 'hex'), Buffer.from('ftypavif'), Buffer.from('00000000', 'hex'), Buffer.from('avifmif1miaf')]),
  tiff: Buffer.from('49492A000800000000000000', 'hex'),
  svg: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
};

export interface FilePart {
  filename: string;
  data: Buffer;
  type?: string;
}

/** POST /realm/emoji/{name} with the files as multipart parts (f1, f2, ...). */
export async function uploadEmoji(s: TestServer, as: TestUser, name: string, files: FilePart[] = [{ filename: 'emoji.png', data: IMAGES.png }]): Promise<Reply> {
  const form = new FormData();
  files.forEach((file, i) => form.append(`f${i + 1}`, new Blob([file.data], { type: file.type ?? 'image/png' }), file.filename));
  const response = await fetch(`${s.url}/api/v1/realm/emoji/${name}`, { method: 'POST', headers: { authorization: as.auth }, body: form });
  return { status: response.status, body: (await response.json()) as Record<string, any>, headers: response.headers };
}

/** The same files as the in-process API takes them. */
export function uploaded(files: FilePart[] = [{ filename: 'emoji.png', data: IMAGES.png }]): UploadedFile[] {
  return files.map((file, i) => ({ field: `f${i + 1}`, filename: file.filename, mimetype: file.type ?? 'image/png', data: file.data }));
}

export async function register(s: TestServer, as: TestUser, eventTypes: string[]): Promise<Record<string, any>> {
  const reply = await s.request('POST', '/register', { as, params: { event_types: eventTypes } });
  if (reply.status !== 200) throw new Error(`register: ${JSON.stringify(reply.body)}`);
  return reply.body;
}

export async function eventsSince(s: TestServer, as: TestUser, queue: Record<string, any>): Promise<Record<string, any>[]> {
  const reply = await s.request('GET', '/events', { as, params: { queue_id: queue.queue_id, last_event_id: queue.last_event_id, dont_block: true } });
  if (reply.status !== 200) throw new Error(`events: ${JSON.stringify(reply.body)}`);
  return reply.body.events as Record<string, any>[];
}
