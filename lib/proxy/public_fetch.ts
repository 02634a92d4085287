// Requests to URLs that users supply (images for the image proxy, outgoing webhooks' targets)
// under one rule: http(s) only, no loopback or private address (lib/proxy/addresses.ts) unless the
// operator allows them, checked on the address each socket connects to and on every redirect,
// which is followed by hand.
import http from 'node:http';
import https from 'node:https';
import nodeFetch, { type Response } from 'node-fetch';
import { PRIVATE_ADDRESS, isPrivateAddress, publicOnlyLookup } from './addresses.js';

export const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** refused_host: a refused address; redirect: not http(s), a bad or endless redirect; network: no answer (or aborted). */
export type PublicFetchFailureKind = 'refused_host' | 'redirect' | 'network';
/** What was wrong with a URL (kind `redirect`): not http(s), not a URL, or one redirect too many. */
export type BadUrl = 'scheme' | 'url' | 'redirects';

export class PublicFetchFailure extends Error {
  constructor(
    readonly kind: PublicFetchFailureKind,
    message: string,
    readonly badUrl?: BadUrl,
  ) {
    super(message);
    this.name = 'PublicFetchFailure';
  }
}

export interface PublicRequest {
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string | undefined;
}

export interface PublicFetchConfig {
  fetch?: typeof nodeFetch | undefined;
  allowPrivateAddresses: boolean;
  signal: AbortSignal;
}

function checkTarget(url: URL, config: PublicFetchConfig): void {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new PublicFetchFailure('redirect', 'not an http(s) URL', 'scheme');
  if (!config.allowPrivateAddresses && isPrivateAddress(url.hostname)) throw new PublicFetchFailure('refused_host', 'refused address');
}

/**
 * The answer to `request` at `url` after its redirects (a 303, and a 301 or 302 of a POST, go on
 * as a GET without the body, as browsers and Python's requests do). Throws PublicFetchFailure; the
 * caller's signal bounds it, the body included.
 */
export async function fetchPublic(url: string, request: PublicRequest, config: PublicFetchConfig): Promise<Response> {
  const fetch = config.fetch ?? nodeFetch;
  const lookup = config.allowPrivateAddresses ? undefined : publicOnlyLookup;
  // Agents for this request only: their sockets resolve host names through the refusing lookup.
  const agent = (target: URL) => (target.protocol === 'https:' ? new https.Agent({ lookup }) : new http.Agent({ lookup }));
  let target: URL;
  try {
    target = new URL(url);
  } catch {
    throw new PublicFetchFailure('redirect', 'not a URL', 'url');
  }
  let { method, body } = request;
  for (let hop = 0; ; hop += 1) {
    checkTarget(target, config);
    let response: Response;
    try {
      const headers = body === undefined ? withoutBodyHeaders(request.headers) : request.headers;
      response = await fetch(target.href, { method, redirect: 'manual', signal: config.signal, agent, headers, ...(body === undefined ? {} : { body }) });
    } catch (error) {
      if ((error as { code?: string }).code === PRIVATE_ADDRESS) throw new PublicFetchFailure('refused_host', 'refused address');
      throw new PublicFetchFailure('network', 'connection failed');
    }
    if (!REDIRECTS.has(response.status)) return response;
    response.body?.resume();
    const location = response.headers.get('location');
    if (location === null || hop >= MAX_REDIRECTS) throw new PublicFetchFailure('redirect', 'too many redirects', 'redirects');
    try {
      target = new URL(location, target);
    } catch {
      throw new PublicFetchFailure('redirect', 'bad redirect URL', 'url');
    }
    if (response.status === 303 || (method === 'POST' && (response.status === 301 || response.status === 302))) {
      method = 'GET';
      body = undefined;
    }
  }
}

function withoutBodyHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => name.toLowerCase() !== 'content-type'));
}
