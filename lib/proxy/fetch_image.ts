// The image proxy's client: fetches one image for GET /external_content with a time limit, a size
// limit every body streams through, the rule of lib/proxy/public_fetch.ts for the URL and its
// redirects, and only raster image types.
import { Readable, Transform, pipeline } from 'node:stream';
import type nodeFetch from 'node-fetch';
import { PublicFetchFailure, fetchPublic } from './public_fetch.js';

/** Raster types browsers show; never SVG, which can carry script. */
const PROXIED_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/gif', 'image/jpeg', 'image/webp', 'image/avif']);
export const DEFAULT_IMAGE_TIMEOUT_MS = 10_000;
export const DEFAULT_IMAGE_MAX_BYTES = 10 * 1024 * 1024;
/**
 * A body without Content-Length is held up to this much before its answer starts: a small image
 * then gets a length, and one over the limit within it a JSON error. Past it the body streams, so
 * a fetch never holds more than this and the streams' buffers, whatever the image's size.
 */
export const BUFFERED_PREFIX_BYTES = 64 * 1024;

export interface ImageFetchConfig {
  fetch?: typeof nodeFetch | undefined;
  timeoutMs: number;
  maxBytes: number;
  allowPrivateAddresses: boolean;
  /** Aborted when the client that asked goes away. */
  signal?: AbortSignal | undefined;
}

export type ImageFailureKind = 'refused_host' | 'redirect' | 'network' | 'timeout' | 'status' | 'type' | 'too_large';

export class ImageFetchFailure extends Error {
  constructor(
    readonly kind: ImageFailureKind,
    message: string,
  ) {
    super(message);
    this.name = 'ImageFetchFailure';
  }
}

export interface FetchedImage {
  contentType: string;
  /** Known when the host sent Content-Length or the body was small enough to be held whole; else the body streams. */
  length: number | undefined;
  body: Readable | Buffer;
}

/** Fetches `url`; throws ImageFetchFailure. The time limit also covers the streamed body. */
export async function fetchImage(url: string, config: ImageFetchConfig): Promise<FetchedImage> {
  const timeout = new AbortController();
  const timer = setTimeout(() => timeout.abort(), config.timeoutMs);
  const signal = config.signal ? AbortSignal.any([config.signal, timeout.signal]) : timeout.signal;
  try {
    let response: Awaited<ReturnType<typeof nodeFetch>>;
    try {
      response = await fetchPublic(
        url,
        { method: 'GET', headers: { 'user-agent': 'parley-image-proxy', accept: [...PROXIED_IMAGE_TYPES].join(', ') } },
        { fetch: config.fetch, allowPrivateAddresses: config.allowPrivateAddresses, signal },
      );
    } catch (error) {
      if (!(error instanceof PublicFetchFailure)) throw error;
      if (error.kind === 'network') throw new ImageFetchFailure(timeout.signal.aborted ? 'timeout' : 'network', timeout.signal.aborted ? 'timed out' : 'connection failed');
      throw new ImageFetchFailure(error.kind, error.message);
    }
    const image = await acceptResponse(response, config, timeout);
    if (Buffer.isBuffer(image.body)) clearTimeout(timer);
    else image.body.once('close', () => clearTimeout(timer));
    return image;
  } catch (error) {
    clearTimeout(timer);
    timeout.abort();
    throw error;
  }
}

async function acceptResponse(
  response: Awaited<ReturnType<typeof nodeFetch>>,
  config: ImageFetchConfig,
  timeout: AbortController,
): Promise<FetchedImage> {
  if (response.status !== 200) throw new ImageFetchFailure('status', String(response.status));
  const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
  if (!PROXIED_IMAGE_TYPES.has(contentType)) throw new ImageFetchFailure('type', contentType);
  const declared = response.headers.get('content-length');
  const length = declared !== null && /^\d+$/.test(declared) ? Number(declared) : undefined;
  if (length !== undefined && length > config.maxBytes) throw new ImageFetchFailure('too_large', String(length));
  const body = response.body as Readable | null;
  if (body === null) return { contentType, length: 0, body: Buffer.alloc(0) };
  if (length !== undefined) {
    const limited = byteLimit(length);
    // An error on either side (the time limit, a reset) destroys both: the answer is cut short.
    pipeline(body, limited, () => undefined);
    return { contentType, length, body: limited };
  }
  // No length announced: the first bytes are held (a small image is answered whole, with its
  // length); the rest streams through the same limit.
  const chunks: Buffer[] = [];
  let size = 0;
  const reader = body[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const next = async (): Promise<IteratorResult<Buffer>> => {
    try {
      return await reader.next();
    } catch {
      throw new ImageFetchFailure(timeout.signal.aborted ? 'timeout' : 'network', 'body failed');
    }
  };
  for (;;) {
    const read = await next();
    if (read.done) {
      const whole = Buffer.concat(chunks);
      return { contentType, length: whole.length, body: whole };
    }
    size += read.value.length;
    if (size > config.maxBytes) {
      timeout.abort();
      throw new ImageFetchFailure('too_large', String(size));
    }
    chunks.push(read.value);
    if (size > BUFFERED_PREFIX_BYTES) break;
  }
  const rest = Readable.from(
    (async function* () {
      try {
        yield* chunks.splice(0);
        for (;;) {
          const read = await reader.next();
          if (read.done) return;
          yield read.value;
        }
      } finally {
        // The answer was cut short (the client left, the limit or the time passed): so is the fetch.
        await reader.return?.();
      }
    })(),
    { objectMode: false },
  );
  const limited = byteLimit(config.maxBytes);
  pipeline(rest, limited, () => undefined);
  return { contentType, length: undefined, body: limited };
}

/** Passes at most `limit` bytes on; more is an error that ends the stream (the answer is cut short). */
function byteLimit(limit: number): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(seen > limit ? new Error('body longer than the limit') : null, chunk);
    },
  });
}
