// The client's only way to the server: parley's public HTTP API (the one Zulip clients use),
// signed in by its session: an HttpOnly cookie the browser sends (POST /sessions made it; the
// page never sees it, and holds no API key), or the embedding application's own sign-in.

/** An error answer of the API ({"result":"error","code","msg"}), or a network failure (status 0). */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

export type Params = Record<string, unknown>;

/** Zulip's form encoding: strings as they are, everything else as JSON. */
function form(params: Params): URLSearchParams {
  const body = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined) body.set(key, typeof value === 'string' ? value : JSON.stringify(value));
  }
  return body;
}

/** The API's root, relative to the page: the client works when mounted under any path. */
export const API_ROOT = new URL('api/v1/', document.baseURI).pathname;

/** The address of a GET request. */
const getUrl = (path: string, params: Params) => {
  const query = form(params).toString();
  return API_ROOT + path.replace(/^\//, '') + (query === '' ? '' : '?' + query);
};

/** The fetch options of every request: nothing cached, the session cookie sent (same origin only). */
const requestInit = (method: string, body: BodyInit | null, signal: AbortSignal | undefined, keepalive: boolean): RequestInit =>
  // A 401 answers a page's fetch with a session challenge, not Basic's, so the browser prompts for
  // no password.
  ({ method, body, signal: signal ?? null, cache: 'no-store', credentials: 'same-origin', keepalive });

/**
 * Requests started before the application's bundle ran (boot.ts), each taken by the first request
 * of the same method, address and body instead of asking the server again. The boot script is a
 * bundle of its own: they are handed over through the window.
 */
interface Prefetched { key: string; response: Promise<Response> }
const holder = globalThis as { parleyPrefetched?: Prefetched[] };
const prefetchKey = (method: string, url: string, body: string) => JSON.stringify([method, url, body]);

/**
 * Starts a request now (a GET, or a POST of a form); the first Api call for it takes the answer.
 * `after`: only once that answer is a success (signed in). Otherwise the request is not made: a
 * taker so far gets that answer, and later ones (after signing in) ask the server themselves.
 */
export function prefetch(method: 'GET' | 'POST', path: string, params: Params, after?: Promise<Response>): Promise<Response> {
  const url = method === 'GET' ? getUrl(path, params) : API_ROOT + path;
  const send = () => fetch(url, requestInit(method, method === 'GET' ? null : form(params), undefined, false));
  const prefetched = (holder.parleyPrefetched ??= []);
  const response: Promise<Response> = after === undefined ? send() : after.then((first) => {
    if (first.ok) return send();
    const i = prefetched.findIndex((p) => p.response === response);
    if (i >= 0) prefetched.splice(i, 1);
    // Cloned as soon as it arrives, before its own taker reads it.
    return first.clone();
  });
  // Not taken (another view was opened first): its failure is nobody's.
  response.catch(() => undefined);
  prefetched.push({ key: prefetchKey(method, url, method === 'GET' ? '' : form(params).toString()), response });
  return response;
}

/** Forgets the boot script's requests not taken: signed out, the next sign-in asks afresh. */
export function dropPrefetched(): void {
  holder.parleyPrefetched = [];
}

function takePrefetched(method: string, url: string, body: string): Promise<Response> | undefined {
  const key = prefetchKey(method, url, body);
  const i = holder.parleyPrefetched?.findIndex((p) => p.key === key) ?? -1;
  return i < 0 ? undefined : holder.parleyPrefetched!.splice(i, 1)[0]!.response;
}

/** The server's root URL, where /api/v1 is: the site a zuliprc and an integration URL name. */
export const siteUrl = (): string => new URL(API_ROOT.replace(/api\/v1\/$/, ''), location.href).href.replace(/\/$/, '');

/** An error answer's fields, or a success answer's `result`. */
interface Envelope { result?: string; code?: string; msg?: string }

export class Api {
  /** Called when the session stops working (signed out elsewhere, ended in settings, deactivated). */
  onUnauthorized?: () => void;

  /**
   * A request; `params` as Zulip's form encoding, or a FormData for a file upload. `keepalive`:
   * the request outlives the page (sent while it unloads).
   */
  async call<T>(method: string, path: string, params: Params | FormData = {}, signal?: AbortSignal, keepalive = false): Promise<T> {
    let url = API_ROOT + path.replace(/^\//, '');
    let body: URLSearchParams | FormData | null = null;
    if (params instanceof FormData) body = params;
    else if (method === 'GET') url = getUrl(path, params);
    else body = form(params);
    let response: Response;
    try {
      const early = body instanceof FormData ? undefined : takePrefetched(method, url, body?.toString() ?? '');
      response = await (early ?? fetch(url, requestInit(method, body, signal, keepalive)));
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new ApiFailure(0, 'NETWORK', 'The server cannot be reached.');
    }
    let data: Envelope;
    try {
      data = (await response.json()) as Envelope;
    } catch {
      throw new ApiFailure(response.status, 'BAD_RESPONSE', `The server answered ${response.status}.`);
    }
    if (response.status === 401) this.onUnauthorized?.();
    if (!response.ok || data.result !== 'success') {
      throw new ApiFailure(response.status, String(data.code ?? 'BAD_REQUEST'), String(data.msg ?? 'Error'));
    }
    return data as T;
  }

  get = <T>(path: string, params?: Params, signal?: AbortSignal) => this.call<T>('GET', path, params, signal);
  post = <T = unknown>(path: string, params?: Params | FormData) => this.call<T>('POST', path, params);
  patch = <T = unknown>(path: string, params?: Params) => this.call<T>('PATCH', path, params);
  delete = <T = unknown>(path: string, params?: Params, keepalive = false) => this.call<T>('DELETE', path, params, undefined, keepalive);
}
