// Requests Node's HTTP parser refuses before parley sees them (a header block over 16 KiB, for
// example a query string that long, or bytes that are not HTTP): answered with the JSON envelope
// instead of Node's bare status line. Installed by ChatServer.listen on its own server.
import type { Duplex } from 'node:stream';
import { ERROR_CODES, type ErrorCode } from '../errors.js';

const REASONS: Record<number, string> = { 400: 'Bad Request', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (!socket.writable || error.code === 'ECONNRESET') {
    socket.destroy();
    return;
  }
  let code: ErrorCode = 'BAD_REQUEST';
  let msg = 'Malformed HTTP request';
  if (error.code === 'HPE_HEADER_OVERFLOW') {
    code = 'REQUEST_HEADER_FIELDS_TOO_LARGE';
    msg = 'Request header fields too large (the query string counts)';
  } else if (error.code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    code = 'REQUEST_TIMEOUT';
    msg = 'Request timed out';
  }
  const status = ERROR_CODES[code];
  const body = JSON.stringify({ result: 'error', msg, code });
  socket.end(
    `HTTP/1.1 ${status} ${REASONS[status]}\r\nContent-Type: application/json\r\nX-Content-Type-Options: nosniff\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}
