// Byte-exact requests for the reliability tests: parameter values are bytes (so invalid UTF-8,
// lone surrogates and NUL reach the server as sent), in the query string, a form body or a
// multipart body, with any method; and a dump of a database to compare before and after.
import http from 'node:http';
import type Database from 'better-sqlite3';

/**
 * multipart-chunked: the multipart body in pieces, without a Content-Length; multipart-files:
 * every parameter as a file part (a filename, no Content-Type, as python-requests sends);
 * multipart-truncated: cut off two thirds in, chunked.
 */
export type RawEncoding = 'query' | 'urlencoded' | 'multipart' | 'multipart-chunked' | 'multipart-files' | 'multipart-truncated';

export interface RawRequest {
  method: string;
  /** Already percent-encoded, from the server root (e.g. `/api/v1/drafts/7`). */
  path: string;
  params: readonly (readonly [string, Buffer])[];
  encoding: RawEncoding;
  authorization?: string | undefined;
  /** A body sent as it is (an incoming webhook's JSON), with its headers; `params` then go in the query string. */
  body?: { contentType: string; bytes: Buffer; headers?: Readonly<Record<string, string>> } | undefined;
  /** The Host header, when it is not the base URL's (a host of many organizations). */
  host?: string | undefined;
  /** More headers (a browser's Cookie and Sec-Fetch-Site). */
  headers?: Record<string, string> | undefined;
}

export interface RawReply {
  status: number;
  contentType: string;
  text: string;
  /** The parsed body, or undefined when it is not JSON. */
  json: Record<string, unknown> | undefined;
  headers: http.IncomingHttpHeaders;
}

/** Percent-encodes every byte outside the unreserved set. */
export function percentEncode(bytes: Buffer, keep = ''): string {
  let out = '';
  for (const byte of bytes) {
    const char = String.fromCharCode(byte);
    out += /[A-Za-z0-9\-._~]/.test(char) || keep.includes(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return out;
}

function formBody(params: RawRequest['params']): Buffer {
  return Buffer.from(params.map(([name, value]) => `${percentEncode(Buffer.from(name))}=${percentEncode(value)}`).join('&'));
}

function multipartBody(params: RawRequest['params'], boundary: string, asFiles = false): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of params) {
    const file = asFiles ? `; filename="${name.replace(/["\r\n]/g, '_')}.txt"` : '';
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name.replace(/["\r\n]/g, '_')}"${file}\r\n\r\n`), value, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(parts);
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 8 });

export function sendRaw(base: string, request: RawRequest, timeoutMs = 15_000): Promise<RawReply> {
  let path = request.path;
  let body: Buffer | undefined;
  let chunked = false;
  const headers: Record<string, string | number> = {};
  if (request.authorization !== undefined) headers.authorization = request.authorization;
  if (request.body !== undefined) {
    Object.assign(headers, request.body.headers, { 'content-type': request.body.contentType });
    body = request.body.bytes;
  }
  if (request.host !== undefined) headers.host = request.host;
  Object.assign(headers, request.headers);
  if (request.params.length > 0) {
    if (request.encoding === 'query' || request.body !== undefined) {
      path += (path.includes('?') ? '&' : '?') + formBody(request.params).toString('latin1');
    } else if (request.encoding === 'urlencoded') {
      body = formBody(request.params);
      headers['content-type'] = 'application/x-www-form-urlencoded';
    } else {
      const boundary = `fuzz${Math.random().toString(36).slice(2)}`;
      body = multipartBody(request.params, boundary, request.encoding === 'multipart-files');
      headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
      if (request.encoding === 'multipart-truncated') body = body.subarray(0, Math.floor((body.length * 2) / 3));
      chunked = request.encoding === 'multipart-chunked' || request.encoding === 'multipart-truncated';
    }
  }
  if (body && !chunked) headers['content-length'] = body.length;
  return new Promise((resolve, reject) => {
    const req = http.request(base + path, { method: request.method, headers, agent, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: Record<string, unknown> | undefined;
        try {
          const parsed: unknown = JSON.parse(text);
          if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) json = parsed as Record<string, unknown>;
        } catch {
          json = undefined;
        }
        resolve({ status: res.statusCode ?? 0, contentType: String(res.headers['content-type'] ?? ''), text, json, headers: res.headers });
      });
      res.on('error', reject);
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms: ${request.method} ${path.slice(0, 200)}`)));
    req.on('error', reject);
    if (body && chunked) {
      const third = Math.ceil(body.length / 3);
      req.write(body.subarray(0, third));
      req.write(body.subarray(third, 2 * third));
      req.end(body.subarray(2 * third));
    } else req.end(body);
  });
}

/** Every row of every table (sorted, so WITHOUT ROWID tables compare too) as one string; `volatile` columns (table.column) are left out. */
export function dumpDatabase(db: Database.Database, volatile: readonly string[] = []): string {
  const tables = db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")
    .pluck()
    .all() as string[];
  const out: string[] = [];
  for (const table of tables) {
    const skip = new Set(volatile.filter((v) => v.startsWith(`${table}.`)).map((v) => v.slice(table.length + 1)));
    const rows = db.prepare(`SELECT * FROM "${table}"`).all() as Record<string, unknown>[];
    const lines = rows.map((row) =>
      JSON.stringify(
        Object.entries(row).filter(([column]) => !skip.has(column)),
        (_key, value: unknown) => (Buffer.isBuffer(value) ? value.toString('hex') : value),
      ),
    );
    out.push(`# ${table}`, ...lines.sort());
  }
  return out.join('\n');
}

/**
 * dumpDatabase, made again only when the connection changed rows since the last dump: SQLite's
 * total_changes() counts every row inserted, updated or deleted through the connection (even in
 * a transaction rolled back later), so an unchanged count means an unchanged database when the
 * server writes through this same connection.
 */
export function databaseSnapshots(db: Database.Database, volatile: readonly string[] = []): () => string {
  const changes = db.prepare('SELECT total_changes()').pluck();
  let last: { changes: unknown; dump: string } | undefined;
  return () => {
    const now = changes.get();
    if (last === undefined || last.changes !== now) last = { changes: now, dump: dumpDatabase(db, volatile) };
    return last.dump;
  };
}
