// The JSON envelope: `{"result":"success","msg":"",...}` and `{"result":"error","msg","code",...}`.
import type { ServerResponse } from 'node:http';
import { ApiError } from '../errors.js';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
  });
  res.end(text);
}

export function sendSuccess(
  res: ServerResponse,
  data: object | undefined,
  ignored: readonly string[],
  headers: Readonly<Record<string, string>> = {},
): void {
  const body: Record<string, unknown> = { result: 'success', msg: '', ...data };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  sendJson(res, 200, body, headers);
}

export function sendError(res: ServerResponse, error: ApiError, headers: Readonly<Record<string, string>> = {}): void {
  sendJson(res, error.status, error.toJSON(), { ...headers, ...error.headers });
}

/** A handler result that is not JSON (for example a custom emoji image). */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: Buffer | string,
  ) {}
}
