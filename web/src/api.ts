// The client's only way to the server: parley's public HTTP API (the one Zulip clients use),
// with HTTP Basic credentials. The API key stays in memory and sessionStorage (session.ts).

export interface Credentials {
  email: string;
  apiKey: string;
}

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

/** HTTP Basic credentials, as the Authorization header carries them. */
const authorization = (c: Credentials) => 'Basic ' + btoa(unescape(encodeURIComponent(`${c.email}:${c.apiKey}`)));

/** The address of a GET request. */
const getUrl = (path: string, params: Params) => {
  const query = form(params).toString();
  return API_ROOT + path.replace(/^\//, '') + (query === '' ? '' : '?' + query);
};

/** The fetch options of every request: no cookies, nothing cached. */
const requestInit = (method: string, headers: Record<string, string>, body: BodyInit | null, signal: AbortSignal | undefined, keepalive: boolean): RequestInit =>
  // No cookies: the key is the credential. Without credentials mode, a 401 with the API's
  // `WWW-Authenticate: Basic` challenge does not make the browser prompt for a password.
  ({ method, headers, body, signal: signal ?? null, cache: 'no-store', credentials: 'omit', keepalive });

/**
 * Requests started before the application's bundle ran (boot.ts), each taken by the first request
 * of the same method, address, body and credentials instead of asking the server again. The boot
 * script is a bundle of its own: they are handed over through the window.
 */
interface Prefetched { key: string; response: Promise<Response> }
const holder = globalThis as { parleyPrefetched?: Prefetched[] };
const prefetchKey = (method: string, url: string, body: string, auth: string) => JSON.stringify([method, url, body, auth]);

/** Starts a request now (a GET, or a POST of a form); the first Api call for it takes the answer. */
export function prefetch(credentials: Credentials, method: 'GET' | 'POST', path: string, params: Params): void {
  const auth = authorization(credentials);
  const url = method === 'GET' ? getUrl(path, params) : API_ROOT + path;
  const body = method === 'GET' ? '' : form(params).toString();
  const response = fetch(url, requestInit(method, { Authorization: auth }, method === 'GET' ? null : form(params), undefined, false));
  // Not taken (another view was opened first): its failure is nobody's.
  response.catch(() => undefined);
  (holder.parleyPrefetched ??= []).push({ key: prefetchKey(method, url, body, auth), response });
}

function takePrefetched(method: string, url: string, body: string, auth: string): Promise<Response> | undefined {
  const key = prefetchKey(method, url, body, auth);
  const i = holder.parleyPrefetched?.findIndex((p) => p.key === key) ?? -1;
  return i < 0 ? undefined : holder.parleyPrefetched!.splice(i, 1)[0]!.response;
}

/** An error answer's fields, or a success answer's `result`. */
interface Envelope { result?: string; code?: string; msg?: string }

export class Api {
  /** Called when the credentials stop working (the key was regenerated or the user deactivated). */
  onUnauthorized?: () => void;

  constructor(public credentials: Credentials | null) {}

  /**
   * A request; `params` as Zulip's form encoding, or a FormData for a file upload. `keepalive`:
   * the request outlives the page (sent while it unloads).
   */
  async call<T>(method: string, path: string, params: Params | FormData = {}, signal?: AbortSignal, keepalive = false): Promise<T> {
    const headers: Record<string, string> = {};
    if (this.credentials) headers.Authorization = authorization(this.credentials);
    let url = API_ROOT + path.replace(/^\//, '');
    let body: URLSearchParams | FormData | null = null;
    if (params instanceof FormData) body = params;
    else if (method === 'GET') url = getUrl(path, params);
    else body = form(params);
    let response: Response;
    try {
      const early = headers.Authorization === undefined || body instanceof FormData ? undefined : takePrefetched(method, url, body?.toString() ?? '', headers.Authorization);
      response = await (early ?? fetch(url, requestInit(method, headers, body, signal, keepalive)));
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
    if (response.status === 401 && this.credentials) this.onUnauthorized?.();
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
