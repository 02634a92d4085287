// Cookies parley sets and reads (the web client's session): one named value from a Cookie header,
// and a Set-Cookie value with the attributes a session cookie needs. Knows nothing of sessions.
import type { IncomingMessage } from 'node:http';

/** The cookie names and values parley writes: a token of URL-safe characters, never quoted. */
const TOKEN = /^[A-Za-z0-9_-]+$/;

/**
 * The value of cookie `name` in the request's Cookie header(s), or undefined. Only values parley
 * could have written are returned: anything else under that name is as good as absent.
 */
export function readCookie(req: IncomingMessage, name: string): string | undefined {
  const header = req.headers.cookie;
  if (header === undefined || header === '') return undefined;
  const prefix = name + '=';
  for (const part of header.split(';')) {
    const pair = part.trim();
    if (!pair.startsWith(prefix)) continue;
    const value = pair.slice(prefix.length);
    return TOKEN.test(value) ? value : undefined;
  }
  return undefined;
}

export interface CookieAttributes {
  /** The path the browser sends it back to (the mount point of parley). */
  path: string;
  /** Seconds until the browser drops it; 0 removes it at once. */
  maxAge: number;
  /** Only over https. */
  secure: boolean;
}

/**
 * A Set-Cookie value: HttpOnly (no script reads it) and SameSite=Strict (no other site's page,
 * link or form sends it).
 */
export function sessionCookie(name: string, value: string, attributes: CookieAttributes): string {
  if (!TOKEN.test(name) || (value !== '' && !TOKEN.test(value))) throw new Error('cookie names and values are URL-safe tokens');
  if (!/^\/[\x21-\x3a\x3c-\x7e]*$/.test(attributes.path)) throw new Error(`cookie path must be an absolute path: ${attributes.path}`);
  const parts = [`${name}=${value}`, `Path=${attributes.path}`, `Max-Age=${Math.max(0, Math.floor(attributes.maxAge))}`, 'HttpOnly', 'SameSite=Strict'];
  if (attributes.secure) parts.push('Secure');
  return parts.join('; ');
}

/**
 * Where parley is mounted: the part of the path a Connect/Express mount (`app.use('/chat', ...)`)
 * took off `req.url`, as Express keeps it in `originalUrl`; '' at the root.
 */
export function mountPath(req: IncomingMessage): string {
  const original = (req as IncomingMessage & { originalUrl?: unknown }).originalUrl;
  const url = req.url ?? '/';
  if (typeof original !== 'string' || original === url) return '';
  const strip = (u: string) => u.split('?')[0]!;
  const full = strip(original);
  const rest = strip(url);
  if (!full.endsWith(rest)) return '';
  return full.slice(0, full.length - rest.length).replace(/\/+$/, '');
}
