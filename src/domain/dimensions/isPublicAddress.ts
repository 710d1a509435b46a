/**
 * Whether an address can locate a client: not private, loopback, link-local, shared (CGNAT), documentation,
 * benchmarking, multicast or reserved (IANA's special-purpose registries). These have no country; the bundled
 * data even maps some of them (192.168.0.0/16 and 203.0.113.0/24 to AU, 2001:db8::/32 to JP), so they are
 * answered here before any lookup.
 */
import type { ClientIp } from './ClientIp';

/** [network as a 32-bit number, prefix length] per IPv4 range. */
const IPV4_SPECIAL: readonly (readonly [number, number])[] = [
  [0x00000000, 8], // 0.0.0.0/8 "this network"
  [0x0a000000, 8], // 10.0.0.0/8 private
  [0x64400000, 10], // 100.64.0.0/10 shared address space (CGNAT)
  [0x7f000000, 8], // 127.0.0.0/8 loopback
  [0xa9fe0000, 16], // 169.254.0.0/16 link-local
  [0xac100000, 12], // 172.16.0.0/12 private
  [0xc0000000, 24], // 192.0.0.0/24 IETF protocol assignments
  [0xc0000200, 24], // 192.0.2.0/24 documentation (TEST-NET-1)
  [0xc0586300, 24], // 192.88.99.0/24 deprecated 6to4 relay anycast
  [0xc0a80000, 16], // 192.168.0.0/16 private
  [0xc6120000, 15], // 198.18.0.0/15 benchmarking
  [0xc6336400, 24], // 198.51.100.0/24 documentation (TEST-NET-2)
  [0xcb007100, 24], // 203.0.113.0/24 documentation (TEST-NET-3)
  [0xe0000000, 4], // 224.0.0.0/4 multicast
  [0xf0000000, 4], // 240.0.0.0/4 reserved, and the broadcast address
];

/**
 * [first two groups as a 32-bit number, prefix length ≤ 32] per range inside 2000::/3, the only IPv6 space
 * allocated for global unicast: everything outside it (::1, fc00::/7, fe80::/10, ff00::/8, …) is not public.
 */
const IPV6_SPECIAL: readonly (readonly [number, number])[] = [
  [0x20010000, 23], // 2001::/23 IETF protocol assignments (Teredo, benchmarking, ORCHID)
  [0x20010db8, 32], // 2001:db8::/32 documentation
  [0x3fff0000, 20], // 3fff::/20 documentation
];

export function isPublicAddress(ip: ClientIp): boolean {
  if (ip.version === 4) {
    const [a, b, c, d] = ip.octets as [number, number, number, number];
    return !matches(((a << 24) | (b << 16) | (c << 8) | d) >>> 0, IPV4_SPECIAL);
  }
  const [g0, g1] = ip.groups as [number, number];
  return (g0 & 0xe000) === 0x2000 && !matches(((g0 << 16) | g1) >>> 0, IPV6_SPECIAL);
}

function matches(value: number, ranges: readonly (readonly [number, number])[]): boolean {
  for (const [start, prefix] of ranges) {
    const mask = prefix === 0 ? 0 : (0xffffffff << (32 - prefix)) >>> 0;
    if ((value & mask) >>> 0 === start) return true;
  }
  return false;
}
