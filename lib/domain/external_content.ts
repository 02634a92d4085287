// The image proxy (Zulip's camo): the signing key, the proxied source rendering gives an external
// image, and GET /external_content/{digest}/{hex_url}, which checks the signature and fetches the
// image (lib/proxy/fetch_image.ts) outside any transaction.
import type { Ctx, ImageProxyOptions } from '../context.js';
import { ApiError } from '../errors.js';
import {
  DEFAULT_MAX_CONCURRENT_FETCHES,
  DEFAULT_MAX_CONCURRENT_FETCHES_PER_ADDRESS,
  FetchSlots,
  type NoSlot,
} from '../proxy/fetch_slots.js';
import {
  DEFAULT_IMAGE_MAX_BYTES,
  DEFAULT_IMAGE_TIMEOUT_MS,
  ImageFetchFailure,
  fetchImage,
  type FetchedImage,
  type ImageFailureKind,
} from '../proxy/fetch_image.js';
import { signImageUrl, verifyImageUrl } from '../render/image_proxy.js';
import { insertImageProxyKey, selectImageProxyKey } from '../store/image_proxy.js';
import { selectRealm } from '../store/users.js';

const KEY_BYTES = 32;
const MIN_KEY_BYTES = 16;

function proxyOptions(ctx: Ctx): ImageProxyOptions | undefined {
  const option = ctx.options.imageProxy;
  return option === false ? undefined : (option ?? {});
}

/** Makes the stored key on the first start with the proxy on and no key given; other processes keep the first one. */
export function ensureImageProxyKey(ctx: Ctx): void {
  const options = proxyOptions(ctx);
  if (options?.key !== undefined && Buffer.byteLength(options.key) < MIN_KEY_BYTES) {
    throw new Error(`imageProxy.key must be at least ${MIN_KEY_BYTES} bytes`);
  }
  if (options === undefined || options.key !== undefined || selectImageProxyKey(ctx.store) !== undefined) return;
  ctx.tx(() => insertImageProxyKey(ctx.store, ctx.random(KEY_BYTES)));
}

function proxyKey(ctx: Ctx, options: ImageProxyOptions): Buffer | undefined {
  if (options.key !== undefined) return Buffer.isBuffer(options.key) ? options.key : Buffer.from(options.key, 'utf8');
  return selectImageProxyKey(ctx.store);
}

/**
 * What rendering gives an external image's URL: its proxy path under the organization URL's path
 * (as custom emoji's source_url), or undefined (the image becomes a link) when the proxy is off.
 */
export function imageProxySource(ctx: Ctx): ((url: string) => string | undefined) | undefined {
  const options = proxyOptions(ctx);
  const key = options && proxyKey(ctx, options);
  if (key === undefined) return undefined;
  const realmUrl = selectRealm(ctx.store)?.url;
  const prefix = realmUrl === undefined ? '' : new URL(realmUrl).pathname.replace(/\/+$/, '');
  return (url) => {
    const signed = signImageUrl(key, url);
    return signed === undefined ? undefined : `${prefix}/external_content/${signed}`;
  };
}

const FAILURES: Record<ImageFailureKind, string> = {
  refused_host: "The image's host is not allowed.",
  redirect: 'The image host redirected too often or to a URL that is not http(s).',
  network: 'The image could not be fetched.',
  timeout: 'The image host did not answer in time.',
  status: 'The image host did not answer with an image.',
  type: "The image's content type is not supported.",
  too_large: 'The image is too large.',
};

const FETCH_SLOTS = Symbol('image proxy fetch slots');

const fetchSlots = (ctx: Ctx, options: ImageProxyOptions): FetchSlots =>
  ctx.once(FETCH_SLOTS, () =>
    new FetchSlots(options.maxConcurrentFetches ?? DEFAULT_MAX_CONCURRENT_FETCHES, options.maxConcurrentFetchesPerAddress ?? DEFAULT_MAX_CONCURRENT_FETCHES_PER_ADDRESS),
  );

/** Seconds a client waits before asking again for an image the proxy had no slot for. */
const BUSY_RETRY_AFTER_SECONDS = 1;

function noSlot(why: NoSlot): ApiError {
  const headers = { 'Retry-After': String(BUSY_RETRY_AFTER_SECONDS) };
  // One address over its share is limited as a client over its rate limit is.
  if (why === 'address') return new ApiError('RATE_LIMIT_HIT', 'API usage exceeded rate limit', { extra: { 'retry-after': BUSY_RETRY_AFTER_SECONDS }, headers });
  return new ApiError('IMAGE_PROXY_BUSY', 'The image proxy is busy; retry the request.', { headers });
}

/**
 * GET /external_content/{digest}/{hex_url}: the image a signed URL stands for. Each fetch holds a
 * slot (lib/proxy/fetch_slots.ts) of the server and of the asking address until its body is done.
 */
export async function proxyExternalContent(
  ctx: Ctx,
  input: { digest: string; hexUrl: string; signal?: AbortSignal | undefined; address: string },
): Promise<FetchedImage> {
  const options = proxyOptions(ctx);
  if (options === undefined) throw new ApiError('NOT_FOUND', 'Not Found');
  const key = proxyKey(ctx, options);
  const url = key && verifyImageUrl(key, input.digest, input.hexUrl);
  if (url === undefined) throw new ApiError('INVALID_IMAGE_PROXY_URL', 'Not a valid URL.');
  const release = fetchSlots(ctx, options).take(input.address);
  if (typeof release === 'string') throw noSlot(release);
  let image: FetchedImage;
  try {
    image = await fetchImage(url, {
      fetch: options.fetch,
      timeoutMs: options.timeoutMs ?? DEFAULT_IMAGE_TIMEOUT_MS,
      maxBytes: options.maxBytes ?? DEFAULT_IMAGE_MAX_BYTES,
      allowPrivateAddresses: options.allowPrivateAddresses ?? false,
      signal: input.signal,
    });
  } catch (error) {
    release();
    if (error instanceof ImageFetchFailure) throw new ApiError('IMAGE_PROXY_FAILED', FAILURES[error.kind]);
    throw error;
  }
  // A streamed body ends by 'close' in every case: read to the end, cut off, or timed out.
  if (Buffer.isBuffer(image.body)) release();
  else image.body.once('close', release);
  return image;
}

/** Image fetches under way (tests: every slot is given back). */
export function imageFetchesInUse(ctx: Ctx): number {
  const options = proxyOptions(ctx);
  return options === undefined ? 0 : fetchSlots(ctx, options).inUse;
}
