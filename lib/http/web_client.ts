// Serves the web client's built files (GET/HEAD `/`, `/web/<file>`, the service worker `/sw.js`),
// when enabled, and its page at the deeper paths the caller names (links sent by email:
// `/join/<key>`, ...), with a relative <base> so that its files and the API resolve from there.
// Knows nothing of chat: it serves a directory that `npm run build` wrote (see web/build.mjs).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

/** The built client, next to the compiled server (dist/web) from both lib/http and dist/http. */
export const DEFAULT_WEB_CLIENT_DIR = fileURLToPath(new URL('../../dist/web/', import.meta.url));

const WEB_PREFIX = '/web/';
/** The Web Push service worker, at the page's own level: its scope is the page and every view. */
const SERVICE_WORKER = '/sw.js';

/** Only the page's own files run; nothing loads from another origin (no fonts, no CDN, no gravatar). */
export const WEB_CLIENT_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'self'",
].join('; ');

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
};

interface Asset {
  type: string;
  body: Buffer;
  gzipped: Buffer | undefined;
  /** Hashed names never change content: cached for a year; the page itself is revalidated. */
  cacheControl: string;
}

/** A file name carrying its content hash, as esbuild writes them (`app-5XKQ2J7B.js`). */
const HASHED = /-[A-Z0-9]{8}\.[a-z]+$/;

function loadAssets(dir: string): Map<string, Asset> {
  if (!existsSync(join(dir, 'index.html'))) {
    throw new Error(`The web client is not built (no ${join(dir, 'index.html')}): run npm run build`);
  }
  const assets = new Map<string, Asset>();
  for (const name of readdirSync(dir)) {
    const ext = name.slice(name.lastIndexOf('.'));
    const type = TYPES[ext];
    if (type === undefined) continue;
    const body = readFileSync(join(dir, name));
    const compressible = type.startsWith('text/') || ext === '.svg' || ext === '.json';
    assets.set(name === 'index.html' ? '/' : name === 'sw.js' ? SERVICE_WORKER : WEB_PREFIX + name, {
      type,
      body,
      gzipped: compressible ? gzipSync(body) : undefined,
      cacheControl: HASHED.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache',
    });
  }
  return assets;
}

/**
 * A listener for the client's files: answers and returns true for a file it has, returns false
 * (leaving the request alone) for any other path or method. The files are read once, here, so a
 * missing build fails at start-up rather than on a user's first visit.
 */
export function webClientFiles(
  dir: string = DEFAULT_WEB_CLIENT_DIR,
  /** Paths (exact, or prefixes ending in '/') that answer with the page itself. */
  pages: readonly string[] = [],
): (req: IncomingMessage, res: ServerResponse) => boolean {
  const assets = loadAssets(dir);
  const index = assets.get('/')!;
  const deepPages = new Map<number, Asset>();
  /** The page with a <base> that leads `depth` directories up, made once per depth. */
  const pageAt = (depth: number): Asset => {
    let page = deepPages.get(depth);
    if (page === undefined) {
      const base = depth === 0 ? './' : '../'.repeat(depth);
      const html = index.body.toString('utf8');
      const tag = `<base href="${base}">`;
      // Before anything that loads a file: right after <head>, or after the doctype.
      const withBase = /<head[^>]*>/i.test(html) ? html.replace(/<head[^>]*>/i, (head) => `${head}\n${tag}`) : html.replace(/^(<!doctype[^>]*>)?/i, (doctype) => `${doctype}${tag}`);
      const body = Buffer.from(withBase);
      page = { ...index, body, gzipped: gzipSync(body) };
      deepPages.set(depth, page);
    }
    return page;
  };
  return (req, res) => {
    const method = req.method ?? 'GET';
    if (method !== 'GET' && method !== 'HEAD') return false;
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt < 0 ? url : url.slice(0, queryAt);
    const isPage = pages.some((page) => (page.endsWith('/') ? path.startsWith(page) && path.length > page.length : path === page));
    if (path !== '/' && path !== SERVICE_WORKER && !path.startsWith(WEB_PREFIX) && !isPage) return false;
    // A page's depth: `/join/<key>` is one directory below the client's root.
    const asset = isPage ? pageAt(path.split('/').length - 2) : assets.get(path);
    if (asset === undefined) return false;
    // Mounted at /chat, the page asked for as /chat (no slash) would load its files from /: it is
    // sent to /chat/ (Express keeps the full path in originalUrl).
    const original = (req as IncomingMessage & { originalUrl?: unknown }).originalUrl;
    const originalPath = typeof original === 'string' ? original.split('?')[0]! : path;
    if (path === '/' && !originalPath.endsWith('/')) {
      req.resume();
      res.writeHead(301, { Location: `${originalPath}/${queryAt < 0 ? '' : url.slice(queryAt)}`, 'Content-Length': 0 });
      res.end();
      return true;
    }
    const gzip = asset.gzipped !== undefined && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    const body = gzip ? asset.gzipped! : asset.body;
    req.resume();
    res.writeHead(200, {
      'Content-Type': asset.type,
      'Content-Length': body.length,
      'Cache-Control': asset.cacheControl,
      'Content-Security-Policy': WEB_CLIENT_CSP,
      'X-Content-Type-Options': 'nosniff',
      'Referrer-Policy': 'no-referrer',
      Vary: 'Accept-Encoding',
      ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
    });
    res.end(method === 'HEAD' ? undefined : body);
    return true;
  };
}
