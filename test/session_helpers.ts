// Signing in as the web client does: POST /sessions with an email and password, and the session
// cookie the answer sets, sent back as a browser would (in-process or over the socket).
import type { Reply, TestServer } from './helpers.js';

export interface SignedIn {
  /** The Cookie header to send back: `parley_session=...`. */
  cookie: string;
  /** The Set-Cookie header as answered. */
  setCookie: string;
  reply: Reply;
}

/** A successful sign-in's cookie; fails the caller's test when there is none. */
export async function signIn(s: TestServer, email: string, password: string, headers: Record<string, string> = {}): Promise<SignedIn> {
  const reply = await s.request('POST', '/sessions', { params: { username: email, password }, headers });
  const setCookie = reply.headers.get('set-cookie') ?? '';
  if (reply.status !== 200 || setCookie === '') throw new Error(`sign-in failed: ${reply.status} ${JSON.stringify(reply.body)}`);
  return { cookie: setCookie.split(';')[0]!, setCookie, reply };
}

/** A request with a session cookie (and, for a write, the Sec-Fetch-Site a same-origin page sends). */
export function withCookie(cookie: string, headers: Record<string, string> = {}): Record<string, string> {
  return { cookie, 'sec-fetch-site': 'same-origin', ...headers };
}
