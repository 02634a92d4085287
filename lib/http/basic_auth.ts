// Parsing the HTTP Basic Authorization header into email and API key (Zulip's
// get_basic_credentials). Who may pass is decided by lib/domain/auth.ts.
import { ApiError, unauthorized } from '../errors.js';

export interface BasicCredentials {
  email: string;
  apiKey: string;
}

export function parseBasicAuth(header: string | undefined): BasicCredentials {
  if (header === undefined || header.trim() === '') {
    throw unauthorized('Missing authorization header for basic auth');
  }
  const space = header.indexOf(' ');
  const scheme = space < 0 ? header : header.slice(0, space);
  if (scheme.toLowerCase() !== 'basic') {
    throw new ApiError('BAD_REQUEST', 'This endpoint requires HTTP basic authentication.');
  }
  const encoded = header.slice(space + 1).trim();
  const text = /^[A-Za-z0-9+/]*={0,2}$/.test(encoded) ? Buffer.from(encoded, 'base64').toString('utf8') : '';
  const colon = text.indexOf(':');
  if (colon < 0) throw unauthorized('Invalid authorization header for basic auth');
  return Object.freeze({ email: text.slice(0, colon).trim(), apiKey: text.slice(colon + 1).trim() });
}
