// Uploading and downloading files (Zulip's zerver/views/upload.py): POST /user_uploads,
// GET /user_uploads/{realm_id}/{path} (the file), GET /api/v1/user_uploads/{realm_id}/{path}
// (a temporary URL) and GET /user_uploads/temporary/{token}/{filename}. The bytes live in the
// database, 1 MiB per attachment_chunk row, written and read one piece at a time.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';
import { Readable } from 'node:stream';
import { fileTypeFromBuffer } from 'file-type';
import { lookup } from 'mime-types';
import { DEFAULT_UPLOAD_BYTES, type Ctx } from '../context.js';
import { ApiError, badRequest, forbidden } from '../errors.js';
import {
  insertAttachment,
  insertAttachmentChunk,
  insertUploadUrlKey,
  selectAttachmentByPathId,
  selectAttachmentChunk,
  selectUploadUrlKey,
  type AttachmentRow,
} from '../store/attachments.js';
import { mayDownload, notifyAttachment } from './attachments.js';
import type { Actor } from './roles.js';
import type { TemporaryUrl, UploadAnswer } from './attachment_dicts.js';

/** The bytes of one attachment_chunk row. */
const CHUNK_BYTES = 1024 * 1024;

/** How long a temporary URL works (Zulip's generate_unauthed_file_access_url: 60 seconds). */
const TEMPORARY_URL_SECONDS = 60;

/** The one organization's id in Zulip-shaped URLs. */
const REALM_ID = 1;

const MIB = 1024 * 1024;

/** Enough of a file for file-type to recognize any format it knows. */
const SNIFF_BYTES = 4100;

/**
 * Types a browser may show in place (Zulip's INLINE_MIME_TYPES); anything else is served as a
 * download, so no uploaded HTML, SVG or XML ever runs as the server's own page.
 */
const INLINE_TYPES: ReadonlySet<string> = new Set([
  'application/pdf',
  'audio/aac',
  'audio/flac',
  'audio/mp4',
  'audio/mpeg',
  'audio/ogg',
  'audio/wav',
  'audio/webm',
  'image/apng',
  'image/avif',
  'image/gif',
  'image/jpeg',
  'image/png',
  'image/webp',
  'video/mp4',
  'video/quicktime',
  'video/webm',
]);

/** A file of a multipart body: in memory (`data`) or spooled to a temporary file. */
export interface UploadSource {
  filename: string;
  data: Buffer;
  spooled?: { path: string; size: number } | undefined;
}

export interface DownloadableFile {
  fileName: string;
  size: number;
  contentType: string;
  /** Whether a browser may show it in place (Content-Disposition: inline). */
  inline: boolean;
  body: Buffer | Readable;
}

/** The largest file, in bytes (`limits.uploadBytes`, default Zulip's 25 MiB). */
export function maxUploadBytes(ctx: Ctx): number {
  return ctx.options.limits?.uploadBytes ?? DEFAULT_UPLOAD_BYTES;
}

const sizeOf = (file: UploadSource): number => file.spooled?.size ?? file.data.length;

/** The file's bytes, CHUNK_BYTES at a time, read synchronously (inside the transaction). */
function* chunksOf(file: UploadSource): Generator<Buffer> {
  if (!file.spooled) {
    for (let at = 0; at < file.data.length; at += CHUNK_BYTES) yield file.data.subarray(at, at + CHUNK_BYTES);
    return;
  }
  const fd = openSync(file.spooled.path, 'r');
  try {
    for (;;) {
      const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
      const read = readSync(fd, buffer, 0, CHUNK_BYTES, null);
      if (read === 0) return;
      yield read === CHUNK_BYTES ? buffer : buffer.subarray(0, read);
    }
  } finally {
    closeSync(fd);
  }
}

function head(file: UploadSource): Buffer {
  const first = chunksOf(file).next();
  return first.done ? Buffer.alloc(0) : first.value.subarray(0, SNIFF_BYTES);
}

/** By content when file-type knows the format, else by the name's extension (Zulip's guess_type). */
async function contentTypeOf(file: UploadSource): Promise<string> {
  const sniffed = await fileTypeFromBuffer(head(file));
  return sniffed?.mime ?? (lookup(file.filename) || 'application/octet-stream');
}

/** Zulip's sanitize_name: a name safe in a path and a URL. */
function sanitizeName(name: string): string {
  const base = name.normalize('NFKC').split(/[/\\]/).at(-1)!;
  const cleaned = base.replace(/[^\p{L}\p{N}_\s.-]/gu, '').trim().replace(/[-\s]+/g, '-');
  return cleaned === '' || cleaned === '.' || cleaned === '..' ? 'uploaded-file' : cleaned;
}

const urlOf = (pathId: string): string => `/user_uploads/${pathId.split('/').map(encodeURIComponent).join('/')}`;

/** POST /user_uploads: exactly one file, at most maxUploadBytes, stored in one transaction. */
export async function uploadFile(ctx: Ctx, actor: Actor, input: { files: readonly UploadSource[] }): Promise<UploadAnswer> {
  if (input.files.length === 0) throw badRequest('You must specify a file to upload');
  if (input.files.length > 1) throw badRequest('You may only upload one file at a time');
  const file = input.files[0]!;
  const limit = maxUploadBytes(ctx);
  if (sizeOf(file) > limit) {
    throw badRequest(`File is larger than this server's configured maximum upload size (${Math.floor(limit / MIB)} MiB).`);
  }
  const contentType = await contentTypeOf(file);
  return ctx.tx(() => {
    const pathId = `${REALM_ID}/${ctx.random(1).toString('hex')}/${ctx.random(18).toString('base64url')}/${sanitizeName(file.filename)}`;
    const row: Omit<AttachmentRow, 'id'> = {
      path_id: pathId,
      file_name: file.filename,
      owner_id: actor.id,
      size: sizeOf(file),
      content_type: contentType,
      create_time: ctx.clock(),
    };
    const id = insertAttachment(ctx.store, row);
    let seq = 0;
    for (const chunk of chunksOf(file)) insertAttachmentChunk(ctx.store, id, seq++, chunk);
    notifyAttachment(ctx, { id, ...row }, 'add');
    const url = urlOf(pathId);
    return { uri: url, url, filename: file.filename };
  });
}

const fileNotFound = () => new ApiError('NOT_FOUND', 'File not found.');

/** The file at /user_uploads/{realm_id}/{path}, if the caller may download it (Zulip's serve_file). */
function accessFile(ctx: Ctx, actor: Actor, realmId: string, path: string): AttachmentRow {
  const row = realmId === String(REALM_ID) ? selectAttachmentByPathId(ctx.store, `${realmId}/${path}`) : undefined;
  if (!row) throw fileNotFound();
  if (!mayDownload(ctx, actor, row)) throw forbidden('You are not authorized to view this file.');
  return row;
}

/**
 * What a download hands the socket at a time: the stream asks for the next slice once the socket
 * has taken the last, so a slow client holds one chunk and a slice rather than two whole chunks.
 */
const SLICE_BYTES = 64 * 1024;

/** The bytes, streamed one chunk per read; a file deleted meanwhile ends the stream with an error. */
function bodyOf(ctx: Ctx, row: AttachmentRow): Buffer | Readable {
  if (row.size <= CHUNK_BYTES) return selectAttachmentChunk(ctx.store, row.id, 0) ?? Buffer.alloc(0);
  const chunks = Math.ceil(row.size / CHUNK_BYTES);
  return Readable.from(
    (function* () {
      for (let seq = 0; seq < chunks; seq++) {
        const chunk = selectAttachmentChunk(ctx.store, row.id, seq);
        if (chunk === undefined) throw new Error('attachment deleted while being read');
        for (let at = 0; at < chunk.length; at += SLICE_BYTES) yield chunk.subarray(at, at + SLICE_BYTES);
      }
    })(),
    { objectMode: false },
  );
}

/**
 * A type outside the inline list is served as application/octet-stream: a script, a page or an
 * SVG reached at its URL (a credential-free temporary one included) is only ever bytes to save.
 */
function downloadable(ctx: Ctx, row: AttachmentRow): DownloadableFile {
  const inline = INLINE_TYPES.has(row.content_type);
  const contentType = inline ? row.content_type : 'application/octet-stream';
  return { fileName: row.path_id.split('/').at(-1)!, size: row.size, contentType, inline, body: bodyOf(ctx, row) };
}

/** GET /user_uploads/{realm_id}/{path}: the file itself. */
export function downloadFile(ctx: Ctx, actor: Actor, input: { realmId: string; path: string }): DownloadableFile {
  return downloadable(ctx, accessFile(ctx, actor, input.realmId, input.path));
}

/** The temporary URL key, made when the first URL is; other processes keep the first one stored. */
function urlKey(ctx: Ctx): Buffer {
  const key = selectUploadUrlKey(ctx.store);
  if (key !== undefined) return key;
  return ctx.tx(() => {
    insertUploadUrlKey(ctx.store, ctx.random(32));
    return selectUploadUrlKey(ctx.store)!;
  });
}

const sign = (key: Buffer, payload: string): Buffer => createHmac('sha256', key).update(payload).digest();

/** GET /api/v1/user_uploads/{realm_id}/{path}: a URL that serves the file without credentials for 60 seconds. */
export function temporaryFileUrl(ctx: Ctx, actor: Actor, input: { realmId: string; path: string }): TemporaryUrl {
  const row = accessFile(ctx, actor, input.realmId, input.path);
  const payload = `${row.path_id}:${ctx.now() + TEMPORARY_URL_SECONDS}`;
  const token = `${Buffer.from(payload).toString('base64url')}.${sign(urlKey(ctx), payload).toString('base64url')}`;
  return { url: `/user_uploads/temporary/${token}/${encodeURIComponent(row.path_id.split('/').at(-1)!)}` };
}

/** GET /user_uploads/temporary/{token}/{filename} (Zulip's serve_local_file_unauthed). */
export function downloadWithToken(ctx: Ctx, input: { token: string; filename: string }): DownloadableFile {
  const invalid = () => badRequest('Invalid token');
  const [encoded, mac, ...rest] = input.token.split('.');
  if (encoded === undefined || mac === undefined || rest.length > 0) throw invalid();
  const payload = Buffer.from(encoded, 'base64url').toString();
  // Checking a token writes nothing: without a key no URL was ever made.
  const key = selectUploadUrlKey(ctx.store);
  if (key === undefined) throw invalid();
  // Compared as text: base64url's last character has spare bits, so decoding would accept
  // several spellings of one signature.
  const expected = Buffer.from(sign(key, payload).toString('base64url'));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw invalid();
  const colon = payload.lastIndexOf(':');
  const pathId = payload.slice(0, colon);
  if (Number(payload.slice(colon + 1)) < ctx.now()) throw invalid();
  if (pathId.split('/').at(-1) !== input.filename) throw badRequest('Invalid filename');
  const row = selectAttachmentByPathId(ctx.store, pathId);
  if (!row) throw fileNotFound();
  return downloadable(ctx, row);
}
