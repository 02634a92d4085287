// Image proxy URLs, Zulip's camo scheme (zerver/lib/camo.py): <prefix>/external_content/<digest>/<hex>,
// where hex is the image URL's UTF-8 bytes in hex and digest the hex HMAC-SHA1 of them under the
// server's key. Rendering signs them; GET /external_content checks them (lib/domain/external_content.ts).
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The longest image URL that is proxied, in bytes: its hex form must fit in one path segment of
 * the router (2000 characters). Longer ones render as links.
 */
const MAX_PROXIED_URL_BYTES = 1000;

const DIGEST = /^[0-9a-f]{40}$/;
const HEX = /^(?:[0-9a-f]{2})+$/;

function digestOf(key: Buffer, url: Buffer): Buffer {
  return createHmac('sha1', key).update(url).digest();
}

/** `<digest>/<hex>` for an absolute http(s) URL, or undefined when the URL is too long to proxy. */
export function signImageUrl(key: Buffer, url: string): string | undefined {
  const bytes = Buffer.from(url, 'utf8');
  if (bytes.length > MAX_PROXIED_URL_BYTES) return undefined;
  return `${digestOf(key, bytes).toString('hex')}/${bytes.toString('hex')}`;
}

/** The URL a signed path stands for, or undefined when the digest does not match (compared in constant time). */
export function verifyImageUrl(key: Buffer, digest: string, hex: string): string | undefined {
  const lowerHex = hex.toLowerCase();
  if (!DIGEST.test(digest.toLowerCase()) || !HEX.test(lowerHex)) return undefined;
  const bytes = Buffer.from(lowerHex, 'hex');
  if (!timingSafeEqual(digestOf(key, bytes), Buffer.from(digest, 'hex'))) return undefined;
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

// A source is local when it resolves onto each base's own origin: //host/x does not, nor does
// http:host (relative only to an http page), hence one http and one https base.
const BASES = ['http://parley.invalid/', 'https://parley-check.invalid/'] as const;

/**
 * Where an image source points: `local` (a path on this server, left as it is), `http` (an
 * absolute http(s) URL, normalized: proxied or shown as a link) or `other` (another origin or
 * scheme, such as //host/x or data:, shown as a link). Parsed as a browser parses it, so
 * spellings such as /\host/x count as other hosts.
 */
export function classifyImageSource(src: string): { kind: 'local' } | { kind: 'http'; url: string } | { kind: 'other' } {
  let parsed: URL[];
  try {
    parsed = BASES.map((base) => new URL(src, base));
  } catch {
    return { kind: 'other' };
  }
  if (parsed.every((url, i) => url.origin === new URL(BASES[i]!).origin)) return { kind: 'local' };
  return /^https?:/i.test(src) ? { kind: 'http', url: new URL(src).href } : { kind: 'other' };
}
