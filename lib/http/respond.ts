// The JSON envelope: `{"result":"success","msg":"",...}` and `{"result":"error","msg","code",...}`.
import type { ServerResponse } from 'node:http';
import { Readable, pipeline } from 'node:stream';
import { ApiError } from '../errors.js';

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  sendText(res, status, JSON.stringify(body), headers);
}

function sendText(res: ServerResponse, status: number, text: string, headers: Readonly<Record<string, string>>): void {
  if (res.headersSent || res.destroyed) return;
  res.writeHead(status, {
    ...headers,
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(text),
    // A browser never reads an answer as another type (HTML, script) than the JSON it is.
    'X-Content-Type-Options': 'nosniff',
  });
  res.end(text);
}

/**
 * The success envelope: `result` and `msg`, the data's fields (never named `result` or `msg`),
 * then `ignored_parameters_unsupported` when there are any.
 */
export function sendSuccess(
  res: ServerResponse,
  data: object | undefined,
  ignored: readonly string[],
  headers: Readonly<Record<string, string>> = {},
): void {
  const body: { result: 'success'; msg: ''; ignored_parameters_unsupported?: readonly string[] } = { result: 'success', msg: '', ...data };
  if (ignored.length > 0) body.ignored_parameters_unsupported = ignored;
  sendJson(res, 200, body, headers);
}

/** The error's JSON, with the request's headers and the error's own (`override` last). */
export function sendError(res: ServerResponse, error: ApiError, headers: Readonly<Record<string, string>> = {}, override: Readonly<Record<string, string>> = {}): void {
  sendJson(res, error.status, error.wireBody(), { ...headers, ...error.headers, ...override });
}

/** A handler result that is not JSON (for example a custom emoji image); a stream body is piped. */
export class RawResponse {
  constructor(
    readonly status: number,
    readonly headers: Readonly<Record<string, string>>,
    readonly body: Buffer | string | Readable,
  ) {}
}

/** Writes a RawResponse; a stream that fails midway cuts the answer short (its headers are gone). */
export function sendRaw(res: ServerResponse, result: RawResponse, headers: Readonly<Record<string, string>>): void {
  const body = result.body;
  if (res.headersSent || res.destroyed) {
    if (body instanceof Readable) body.destroy();
    return;
  }
  res.writeHead(result.status, { ...headers, ...result.headers });
  if (body instanceof Readable) pipeline(body, res, () => undefined);
  else res.end(body);
}

/**
 * A Content-Disposition value (RFC 6266): an ASCII name quoted with its backslashes and quotes
 * escaped, any other name percent-encoded as filename* (RFC 8187).
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  if (/^[\x20-\x7e]*$/.test(fileName)) return `${kind}; filename="${fileName.replace(/[\\"]/g, (c) => `\\${c}`)}"`;
  return `${kind}; filename*=utf-8''${encodeURIComponent(fileName)}`;
}
