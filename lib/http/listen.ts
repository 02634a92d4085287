// A listening node:http server for a request listener (a ChatServer's or a host's): Zulip's
// keep-alive, client errors answered as JSON, and a close that ends idle and, after a grace
// period, every connection.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError } from './client_error.js';
import type { RequestListener } from './handler.js';

export interface Listening {
  address: AddressInfo;
  /** Stops listening; idle connections end at once, the others after a second. */
  close(): Promise<void>;
}

export function listen(handler: RequestListener, port: number, host: string): Promise<Listening> {
  return new Promise((resolve, reject) => {
    const server = http.createServer((req, res) => handler(req, res));
    server.on('clientError', answerClientError);
    server.keepAliveTimeout = 75_000;
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve({
        address: server.address() as AddressInfo,
        close() {
          const closing = new Promise<void>((done) => server.close(() => done()));
          server.closeIdleConnections();
          setTimeout(() => server.closeAllConnections(), 1000).unref();
          return closing;
        },
      });
    });
  });
}
