// Request bodies: application/x-www-form-urlencoded (URLSearchParams) and multipart/form-data
// (formidable, files kept in memory), for every method. Over-large bodies are refused with 413
// before they are buffered.
import type { IncomingMessage } from 'node:http';
import { Writable } from 'node:stream';
import formidable from 'formidable';
import { ApiError } from '../errors.js';

export interface UploadedFile {
  field: string;
  filename: string;
  mimetype: string;
  data: Buffer;
}

export interface ParsedBody {
  fields: Map<string, string>;
  files: UploadedFile[];
}

export interface BodyLimits {
  bodyBytes: number;
  uploadBytes: number;
  /** How long a body may take to arrive once the request is routed (408 after that). */
  bodyTimeoutMs?: number;
}

// uploadBytes is Zulip's 25 MiB MAX_FILE_UPLOAD_SIZE: above the 5 MiB custom emoji limit, so an
// oversized emoji gets the domain's 400, not a 413.
export const DEFAULT_LIMITS: BodyLimits = { bodyBytes: 1024 * 1024, uploadBytes: 25 * 1024 * 1024, bodyTimeoutMs: 30_000 };

/** The body of a request without one. */
export const EMPTY_BODY: ParsedBody = Object.freeze({ fields: new Map<string, string>(), files: [] });

function tooLarge(limit: number): ApiError {
  return new ApiError('PAYLOAD_TOO_LARGE', `Request body too large (limit: ${limit} bytes)`, {
    headers: { Connection: 'close' },
  });
}

/** Whether the request announces a body (Content-Length above 0, or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  if (length !== undefined) return Number(length) > 0;
  return req.headers['transfer-encoding'] !== undefined;
}

/**
 * Reads the body. `keepFiles`: the route takes uploads; elsewhere file parts are read and dropped
 * as they arrive (Zulip ignores them too), so no request can make the server hold a file in
 * memory unless the route wants one.
 */
export async function readBody(req: IncomingMessage, limits: BodyLimits, keepFiles = false): Promise<ParsedBody> {
  if (!hasBody(req)) return EMPTY_BODY;
  const parsing = parseBody(req, limits, keepFiles);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      req.resume();
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

async function parseBody(req: IncomingMessage, limits: BodyLimits, keepFiles: boolean): Promise<ParsedBody> {
  const type = (req.headers['content-type'] ?? '').toLowerCase();
  if (type.startsWith('multipart/form-data')) return readMultipart(req, limits, keepFiles);
  const raw = await readRaw(req, limits.bodyBytes);
  if (raw.length === 0) return EMPTY_BODY;
  if (type === '' || type.startsWith('application/x-www-form-urlencoded')) {
    return { fields: new Map(new URLSearchParams(raw.toString('utf8'))), files: [] };
  }
  throw new ApiError(
    'UNSUPPORTED_MEDIA_TYPE',
    'Unsupported request body type: send application/x-www-form-urlencoded or multipart/form-data',
  );
}

function readRaw(req: IncomingMessage, limit: number): Promise<Buffer> {
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) return Promise.reject(tooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

async function readMultipart(req: IncomingMessage, limits: BodyLimits, keepFiles: boolean): Promise<ParsedBody> {
  const declared = Number(req.headers['content-length'] ?? 0);
  const total = limits.bodyBytes + limits.uploadBytes;
  if (declared > total) throw tooLarge(total);
  const buffers = new Map<string, Buffer[]>();
  const form = formidable({
    maxFields: 1000,
    maxFieldsSize: limits.bodyBytes,
    maxFileSize: limits.uploadBytes,
    maxTotalFileSize: limits.uploadBytes,
    allowEmptyFiles: true,
    minFileSize: 0,
    fileWriteStreamHandler: (file) => {
      const chunks: Buffer[] = [];
      if (keepFiles) buffers.set((file as unknown as { newFilename: string }).newFilename, chunks);
      return new Writable({
        write(chunk: Buffer, _encoding, done) {
          if (keepFiles) chunks.push(chunk);
          done();
        },
      });
    },
  });
  let parsed: [formidable.Fields, formidable.Files];
  try {
    parsed = await form.parse(req);
  } catch (error) {
    req.resume();
    const httpCode = (error as { httpCode?: number }).httpCode;
    if (httpCode === 413) throw tooLarge(total);
    throw new ApiError('BAD_REQUEST', 'Malformed multipart/form-data body');
  }
  const [fields, files] = parsed;
  const result: ParsedBody = { fields: new Map(), files: [] };
  for (const [name, values] of Object.entries(fields)) {
    if (values && values.length > 0) result.fields.set(name, values[values.length - 1]!);
  }
  if (!keepFiles) return result;
  for (const [field, list] of Object.entries(files)) {
    for (const file of list ?? []) {
      result.files.push({
        field,
        filename: file.originalFilename ?? '',
        mimetype: file.mimetype ?? 'application/octet-stream',
        data: Buffer.concat(buffers.get(file.newFilename) ?? []),
      });
    }
  }
  return result;
}
