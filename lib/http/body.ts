// Request bodies: application/x-www-form-urlencoded (URLSearchParams) and multipart/form-data
// (@fastify/busboy, a streaming parser), for every method. Every received byte counts against the
// route's limit, declared or chunked; over-large bodies are refused with 413 as soon as they pass it.
import type { IncomingMessage } from 'node:http';
import { tmpdir } from 'node:os';
import { Busboy, type BusboyHeaders } from '@fastify/busboy';
import { ApiError } from '../errors.js';
import { Spool } from './spool.js';

export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  /** The file's bytes; empty when the route spools its files to disk (`spooled`). */
  data: Buffer;
  /** Routes that spool uploads: the temporary file holding the bytes (removed once answered) and its size. */
  spooled?: { path: string; size: number };
}

export interface ParsedBody {
  fields: Map<string, string>;
  /** The body's bytes, for a route that takes its body as sent (`raw` of readBody); not for multipart. */
  raw?: Buffer;
  files: UploadedFile[];
  /** Removes the spooled files, if any (the handler calls it once the request is answered). */
  cleanup?: () => void;
}

export interface BodyLimits {
  bodyBytes: number;
  uploadBytes: number;
  /** How long a body may take to arrive once the request is routed (408 after that). */
  bodyTimeoutMs?: number;
  /** Where spooled uploads are written while their request runs (default: the OS's temporary directory). */
  spoolDir?: string;
}

/** The default of `limits.uploadBytes`: Zulip's MAX_FILE_UPLOAD_SIZE, 25 MiB. */
export const DEFAULT_UPLOAD_BYTES = 25 * 1024 * 1024;

export const DEFAULT_LIMITS: BodyLimits = { bodyBytes: 1024 * 1024, uploadBytes: DEFAULT_UPLOAD_BYTES, bodyTimeoutMs: 30_000 };

/** Fields per multipart body (Django's DATA_UPLOAD_MAX_NUMBER_FIELDS is 1000 too). */
const MAX_FIELDS = 1000;

/**
 * A part's headers: at most 16 KiB and 2000 pairs (busboy's defaults), so no part header is held
 * or parsed at length; the parameters of Content-Disposition are parsed in linear time.
 */
const PART_HEADER_BYTES = 16 * 1024;
const PART_HEADER_PAIRS = 2000;

/** The body of a request without one. */
export const EMPTY_BODY: ParsedBody = Object.freeze({ fields: new Map<string, string>(), files: [] });

function tooLarge(limit: number): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', `Request body too large (limit: ${limit} bytes)`, {
    headers: { Connection: 'close' },
  });
}

function malformed(): ApiError {
  return new ApiError('BAD_REQUEST', 'Malformed multipart/form-data body');
}

/** Whether the request announces a body (Content-Length above 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the body. `fileBytes`: the largest file the route takes (undefined: it takes none). A route that
 * takes files accepts a body of `bodyBytes + fileBytes`; a file over `fileBytes` is kept cut to
 * `fileBytes + 1` bytes, so the route can tell its own "too large" error without the server ever
 * holding more. Elsewhere file parts are read and dropped as they arrive (Zulip ignores them too),
 * counted against `bodyBytes`.
 */
export async function readBody(req: IncomingMessage, limits: BodyLimits, fileBytes?: number, spool = false, raw = false): Promise<ParsedBody> {
  if (!hasBody(req)) return EMPTY_BODY;
  const parsing = parseBody(req, limits, fileBytes, spool, raw);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      req.resume();
      // A body that still arrives after the answer leaves no spooled files behind.
      parsing.then((body) => body.cleanup?.(), () => {});
      reject(new ApiError('REQUEST_TIMEOUT', 'Request body timed out', { headers: { Connection: 'close' } }));
    }, limits.bodyTimeoutMs ?? DEFAULT_LIMITS.bodyTimeoutMs);
  });
  // The losing promise must not become an unhandled rejection.
  parsing.catch(() => {});
  try {
    return await Promise.race([parsing, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `keepRaw`: any media type is taken, its bytes kept (`raw`) beside a form body's fields, as
 * Django's request.body and request.POST (incoming webhooks).
 */
async function parseBody(req: IncomingMessage, limits: BodyLimits, fileBytes: number | undefined, spool: boolean, keepRaw: boolean): Promise<ParsedBody> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) return readMultipart(req, limits, fileBytes, spool);
  const raw = await readRaw(req, limits.bodyBytes);
  if (raw.length === 0) return EMPTY_BODY;
  const form = type === '' || type.startsWith('application/x-www-form-urlencoded');
  if (keepRaw) return { fields: form ? new Map(new URLSearchParams(raw.toString('utf8'))) : new Map(), files: [], raw };
  if (form) return { fields: new Map(new URLSearchParams(raw.toString('utf8'))), files: [] };
  throw new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    'Unsupported request body type: send application/x-www-form-urlencoded or multipart/form-data',
  );
}

/**
 * Feeds the request's bytes to `sink`, counting each one: past `limit` the rest is dropped unread
 * and `onLimit` runs once. Keeps the sink's backpressure.
 */
function countBytes(
  req: IncomingMessage,
  limit: number,
  sink: { write(chunk: Buffer): boolean; end(): void; once(event: 'drain', fn: () => void): unknown },
  onLimit: () => void,
): void {
  let size = 0;
  const onData = (chunk: Buffer): void => {
    size += chunk.length;
    if (size > limit) {
      req.off('data', onData);
      req.off('end', onEnd);
      req.resume();
      onLimit();
      return;
    }
    if (!sink.write(chunk)) {
      req.pause();
      sink.once('drain', () => req.resume());
    }
  };
  const onEnd = (): void => sink.end();
  req.on('data', onData);
  req.on('end', onEnd);
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const sink = {
      write: (chunk: Buffer) => chunks.push(chunk) > 0,
      end: () => resolve(Buffer.concat(chunks)),
      once: () => undefined,
    };
    countBytes(req, limit, sink, () => reject(tooLarge(limit)));
    req.on('error', reject);
  });
}

function readMultipart(req: IncomingMessage, limits: BodyLimits, fileBytes: number | undefined, spoolFiles: boolean): Promise<ParsedBody> {
  const total = limits.bodyBytes + (fileBytes ?? 0);
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > total) return Promise.reject(tooLarge(total));
  return new Promise((resolve, reject) => {
    let parser: Busboy;
    try {
      parser = Busboy({
        headers: req.headers as BusboyHeaders,
        // A part is a file when it names one (RFC 7578, Django): python-requests sends files
        // without a Content-Type of their own.
        isPartAFile: (_field, _type, filename) => filename !== undefined,
        limits: {
          fieldNameSize: 1000,
          fieldSize: limits.bodyBytes,
          fields: MAX_FIELDS,
          fileSize: (fileBytes ?? 0) + 1,
          headerSize: PART_HEADER_BYTES,
          headerPairs: PART_HEADER_PAIRS,
        },
      });
    } catch {
      req.resume();
      reject(malformed());
      return;
    }
    const spool = spoolFiles && fileBytes !== undefined ? new Spool(limits.spoolDir ?? tmpdir()) : undefined;
    const result: ParsedBody = { fields: new Map(), files: [], ...(spool && { cleanup: () => spool.remove() }) };
    let settled = false;
    const fail = (error: ApiError): void => {
      if (settled) return;
      settled = true;
      spool?.remove();
      req.unpipe();
      req.resume();
      parser.removeAllListeners('finish');
      // Late parser errors (the stream was cut off) have no one left to tell.
      parser.on('error', () => {});
      parser.destroy();
      reject(error);
    };
    parser.on('field', (name, value) => result.fields.set(name, value));
    parser.on('fieldsLimit', () =>
      fail(new ApiError('BAD_REQUEST', `Too many fields in a multipart body (limit: ${MAX_FIELDS})`)),
    );
    parser.on('file', (field, stream, filename, _encoding, mimetype) => {
      if (fileBytes === undefined) {
        stream.resume();
        return;
      }
      if (spool) {
        const file: UploadedFile = { field, filename, mimetype: mimetype || 'application/octet-stream', data: Buffer.alloc(0) };
        result.files.push(file);
        spool.write(stream, file);
        return;
      }
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () =>
        result.files.push({ field, filename, mimetype: mimetype || 'application/octet-stream', data: Buffer.concat(chunks) }),
      );
    });
    parser.on('error', () => fail(malformed()));
    parser.on('finish', () => {
      if (settled) return;
      if (!spool) {
        settled = true;
        resolve(result);
        return;
      }
      void spool.written().then((ok) => {
        if (!ok) {
          fail(new ApiError('INTERNAL_SERVER_ERROR', 'The upload could not be stored'));
          return;
        }
        if (settled) return;
        settled = true;
        resolve(result);
      });
    });
    req.on('error', () => fail(malformed()));
    countBytes(req, total, parser, () => fail(tooLarge(total)));
  });
}
