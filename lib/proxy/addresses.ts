// The addresses the image proxy refuses by default, so that a signed URL cannot reach the
// server's own loopback, private network or cloud metadata service: the special-purpose ranges of
// the IANA IPv4 and IPv6 registries that are not globally reachable.
import dns, { type LookupAddress, type LookupOptions } from 'node:dns';
import { BlockList, isIP } from 'node:net';

const IPV4: readonly [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local, cloud metadata services
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // IETF protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
];

const IPV6: readonly [string, number][] = [
  // IPv4-mapped addresses (::ffff:0:0/96) are not listed: BlockList checks them against the IPv4
  // ranges (and IPv4 addresses against IPv4-mapped rules, so listing the prefix refused every one).
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['64:ff9b:1::', 48], // local-use NAT64
  ['100::', 64], // discard-only
  ['2001:db8::', 32], // documentation
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated by RFC 3879, still routed inside some networks)
  ['ff00::', 8], // multicast
];

/**
 * IPv6 forms that carry an IPv4 address: each refused IPv4 range is refused inside them too, and
 * their public addresses pass (on an IPv6-only host with DNS64 every IPv4-only image host has a
 * 64:ff9b:: address). NAT64 (RFC 6052) holds the IPv4 address in the last 32 bits, 6to4 (RFC 3056)
 * in the 32 bits after 2002::/16.
 */
const EMBEDDING_IPV4: readonly ((network: string, prefix: number) => [string, number])[] = [
  (network, prefix) => [`64:ff9b::${network}`, 96 + prefix],
  (network, prefix) => {
    const hex = Buffer.from(network.split('.').map(Number)).toString('hex');
    return [`2002:${hex.slice(0, 4)}:${hex.slice(4)}::`, 16 + prefix];
  },
];

const BLOCKED = new BlockList();
for (const [network, prefix] of IPV4) BLOCKED.addSubnet(network, prefix, 'ipv4');
for (const [network, prefix] of IPV6) BLOCKED.addSubnet(network, prefix, 'ipv6');
for (const embed of EMBEDDING_IPV4) {
  for (const [network, prefix] of IPV4) BLOCKED.addSubnet(...embed(network, prefix), 'ipv6');
}

/** True for an IP address in a refused range; false for a public address or a host name. */
export function isPrivateAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 0) return false;
  return BLOCKED.check(bare, family === 4 ? 'ipv4' : 'ipv6');
}

/** The error of a refused address; node-fetch passes its code on. */
export const PRIVATE_ADDRESS = 'EPRIVATEADDRESS';

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * dns.lookup for the sockets the proxy opens: fails when the host name resolves to any refused
 * address. Checked on the address the socket connects to, so DNS that changes its answer between
 * a check and the connection gains nothing.
 */
export function publicOnlyLookup(hostname: string, options: LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) {
      callback(error, '');
      return;
    }
    if (addresses.length === 0 || addresses.some((a) => isPrivateAddress(a.address))) {
      callback(Object.assign(new Error(`${hostname} resolves to a refused address`), { code: PRIVATE_ADDRESS }), '');
      return;
    }
    if (options.all) callback(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  });
}
