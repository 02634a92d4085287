// The client address of a request, which rate limits are kept per: the socket's peer, or, behind
// trusted reverse proxies, the address they saw, read from X-Forwarded-For with the semantics of
// Express's "trust proxy" setting (a number of hops, or the proxies' addresses and subnets).
import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/**
 * Which proxies are believed: a number N (the client is N hops behind the socket's peer, read
 * from X-Forwarded-For), or the addresses and subnets (`10.0.0.0/8`, `::1`, `loopback`,
 * `linklocal`, `uniquelocal`) of the proxies. 0 or an empty list: X-Forwarded-For is ignored.
 */
export type TrustProxy = number | readonly string[];

const NAMED_SUBNETS: Readonly<Record<string, readonly string[]>> = {
  loopback: ['127.0.0.0/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

type IsTrusted = (address: string, hop: number) => boolean;

/** The addresses of a trusted-proxy list; throws naming the first entry that is none. */
function trustedList(entries: readonly string[]): IsTrusted {
  const list = new BlockList();
  for (const entry of entries.flatMap((e) => NAMED_SUBNETS[e.trim()] ?? [e.trim()])) {
    const [address = '', prefix, ...rest] = entry.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 4 ? 32 : 128) : /^\d{1,3}$/.test(prefix) ? Number(prefix) : -1;
    if (family === 0 || rest.length > 0 || bits < 0 || bits > (family === 4 ? 32 : 128)) {
      throw new Error(`trustProxy: '${entry}' is not an IP address, a subnet (address/bits) or one of loopback, linklocal, uniquelocal`);
    }
    list.addSubnet(address, bits, family === 4 ? 'ipv4' : 'ipv6');
  }
  return (address) => {
    const family = isIP(address);
    return family !== 0 && list.check(address, family === 4 ? 'ipv4' : 'ipv6');
  };
}

function checkHops(hops: number): IsTrusted {
  if (!Number.isSafeInteger(hops) || hops < 0) throw new Error(`trustProxy: a number of hops must be a non-negative integer, not ${hops}`);
  return (_address, hop) => hop < hops;
}

/** `2` -> 2 hops; `10.0.0.1, 10.1.0.0/16` -> those proxies (the `--trust-proxy` flag). */
export function parseTrustProxy(text: string): TrustProxy {
  const value = text.trim();
  const trust = /^\d+$/.test(value) ? Number(value) : value.split(',').map((entry) => entry.trim());
  clientAddressResolver(trust);
  return trust;
}

/**
 * The function that finds a request's client address; throws at once for a bad trust setting.
 * From the socket's peer, each trusted hop is passed for the address it forwarded for (the
 * X-Forwarded-For entries, right to left); an entry that is not an IP address ends the walk.
 */
export function clientAddressResolver(trust: TrustProxy | undefined): (req: IncomingMessage) => string {
  const peer = (req: IncomingMessage): string => req.socket.remoteAddress ?? '';
  if (trust === undefined) return peer;
  const isTrusted = typeof trust === 'number' ? checkHops(trust) : trustedList(trust);
  if (trust === 0 || (typeof trust !== 'number' && trust.length === 0)) return peer;
  return (req) => {
    let client = peer(req);
    const header = req.headers['x-forwarded-for'];
    if (typeof header !== 'string') return client;
    const forwarded = header.split(',');
    for (let hop = 0; isTrusted(client, hop) && hop < forwarded.length; hop += 1) {
      const next = forwarded[forwarded.length - 1 - hop]!.trim();
      if (isIP(next) === 0) break;
      client = next;
    }
    return client;
  };
}
