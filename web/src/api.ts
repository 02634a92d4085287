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

/** The server's root URL, where /api/v1 is: the site a zuliprc and an integration URL name. */
export const siteUrl = (): string => new URL(API_ROOT.replace(/api\/v1\/$/, ''), location.href).href.replace(/\/$/, '');

/** An error answer's fields, or a success answer's `result`. */
interface Envelope { result?: string; code?: string; msg?: string }

export class Api {
  /** Called when the session stops working (signed out elsewhere, ended in settings, deactivated). */
  onUnauthorized?: () => void;

  /** A request; `params` as Zulip's form encoding, or a FormData for a file upload. */
  async call<T>(method: string, path: string, params: Params | FormData = {}, signal?: AbortSignal): Promise<T> {
    let url = API_ROOT + path.replace(/^\//, '');
    let body: URLSearchParams | FormData | null = null;
    if (params instanceof FormData) body = params;
    else if (method === 'GET') {
      const query = form(params).toString();
      if (query !== '') url += '?' + query;
    } else body = form(params);
    let response: Response;
    try {
      // The session cookie goes with it (same origin only). A 401 answers a page's fetch with a
      // session challenge, not Basic's, so the browser prompts for no password.
      response = await fetch(url, { method, body, signal: signal ?? null, cache: 'no-store', credentials: 'same-origin' });
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
  delete = <T = unknown>(path: string, params?: Params) => this.call<T>('DELETE', path, params);
}
