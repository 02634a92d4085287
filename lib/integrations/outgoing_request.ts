// One request to an outgoing webhook bot's server (the HTTP half of Zulip's do_rest_call): the
// body POSTed under the rule for URLs users supply (lib/proxy/public_fetch.ts), within a time
// limit that covers the response's body, which is read up to a size limit.
import type { Readable } from 'node:stream';
import type nodeFetch from 'node-fetch';
import type { Timers } from '../timers.js';
import { MAX_REDIRECTS, PublicFetchFailure, fetchPublic } from '../proxy/public_fetch.js';
import type { TransportError } from './outgoing_webhook.js';

export interface RequestLimits {
  allowPrivateAddresses: boolean;
  timeoutMs: number;
  maxResponseBytes: number;
  fetch?: typeof nodeFetch | undefined;
}

export interface BotRequest {
  url: string;
  contentType: string;
  body: string;
  userAgent: string;
}

/**
 * answered: a response (any status) and its body; refused: the target, or a redirect, is an
 * address the operator did not allow (Zulip's smokescreen answers 407); failed: no response.
 */
export type RequestResult = { kind: 'answered'; status: number; body: Buffer } | { kind: 'refused' } | { kind: 'failed'; error: TransportError };

/** The request; `signal` is the delivery's (the server stopping, or the delivery's own deadline). */
export async function requestBot(request: BotRequest, limits: RequestLimits, timers: Timers, signal: AbortSignal): Promise<RequestResult> {
  const timeout = new AbortController();
  const timer = timers.after(limits.timeoutMs, () => timeout.abort());
  const both = AbortSignal.any([signal, timeout.signal]);
  try {
    const response = await fetchPublic(
      request.url,
      { method: 'POST', headers: { 'content-type': request.contentType, 'user-agent': request.userAgent }, body: request.body },
      { fetch: limits.fetch, allowPrivateAddresses: limits.allowPrivateAddresses, signal: both },
    );
    const body = await readLimited(response.body as Readable | null, limits.maxResponseBytes);
    if (body === 'too_large') {
      timeout.abort();
      return { kind: 'failed', error: { kind: 'other', type: 'ResponseTooLarge', message: `The response is longer than ${limits.maxResponseBytes} bytes.` } };
    }
    return { kind: 'answered', status: response.status, body };
  } catch (error) {
    if (timeout.signal.aborted) return { kind: 'failed', error: { kind: 'timeout' } };
    if (!(error instanceof PublicFetchFailure)) return { kind: 'failed', error: { kind: 'connection' } };
    if (error.kind === 'refused_host') return { kind: 'refused' };
    if (error.kind === 'network') return { kind: 'failed', error: { kind: 'connection' } };
    // Python's requests names these InvalidSchema, InvalidURL and TooManyRedirects.
    const [type, message] =
      error.badUrl === 'scheme'
        ? ['InvalidSchema', `No connection adapters were found for '${request.url}'`]
        : error.badUrl === 'redirects'
          ? ['TooManyRedirects', `Exceeded ${MAX_REDIRECTS} redirects.`]
          : ['InvalidURL', `Invalid URL '${request.url}'`];
    return { kind: 'failed', error: { kind: 'other', type, message } };
  } finally {
    timer.cancel();
  }
}

/** The whole body, or 'too_large' as soon as it passes `limit` bytes (the rest is never read). */
async function readLimited(body: Readable | null, limit: number): Promise<Buffer | 'too_large'> {
  if (body === null) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      return 'too_large';
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}
