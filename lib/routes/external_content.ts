// GET /external_content/{digest}/{hex_url}: the image proxy (outside /api/v1, no credentials: the
// signature is the permission), as Zulip's camo URLs. Images in rendered messages point here.
import { proxyExternalContent } from '../domain/external_content.js';
import { pathStr } from '../http/params.js';
import { RawResponse } from '../http/respond.js';
import { route } from './route.js';

const IMAGE_PROXY_HEADERS: Readonly<Record<string, string>> = {
  'X-Content-Type-Options': 'nosniff',
  // Opened on its own, the image runs nothing and loads nothing.
  'Content-Security-Policy': "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox",
  'Referrer-Policy': 'no-referrer',
  // The host may change the image behind a URL: cached for a day, not for good.
  'Cache-Control': 'public, max-age=86400',
};

export const externalContentRoutes = {
  image: route({
    method: 'GET',
    path: '/external_content/:digest/:hex_url',
    outsideApi: true,
    access: 'public',
    summary: 'An external image of a message or channel description, through the image proxy (PNG, GIF, JPEG, WebP, AVIF)',
    params: {
      digest: pathStr().describe("Hex HMAC-SHA1 of the image URL under the server's key"),
      hexUrl: pathStr().describe("The image URL's UTF-8 bytes in hex"),
    },
    errors: ['NOT_FOUND', 'INVALID_IMAGE_PROXY_URL', 'IMAGE_PROXY_FAILED', 'IMAGE_PROXY_BUSY', 'RATE_LIMIT_HIT'],
    rawResponse: 'image/*',
    asynchronous: true,
    handler: async (ctx, _caller, p, request) => {
      const image = await proxyExternalContent(ctx, { digest: p.digest, hexUrl: p.hexUrl, signal: request.signal, address: request.ip });
      const headers: Record<string, string> = { 'Content-Type': image.contentType, ...IMAGE_PROXY_HEADERS };
      if (image.length !== undefined) headers['Content-Length'] = String(image.length);
      return new RawResponse(200, headers, image.body);
    },
  }),
};
