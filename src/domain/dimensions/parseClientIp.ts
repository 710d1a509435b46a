/**
 * Validates a client IP (what the beacon sees, what `$remote_addr` logs, what a mutation sends) into a ClientIp.
 * Plain addresses only: no port, no brackets, no surrounding space. An IPv6 zone (`%eth0`) is dropped, and an
 * IPv4-mapped (`::ffff:198.51.100.7`) or NAT64 (`64:ff9b::c633:6407`) address becomes the IPv4 address it
 * carries. The address is only looked up, never stored.
 */
import { isIPv4, isIPv6 } from 'node:net';
import { describe } from '../../errors/describe';
import type { FieldName } from '../InputRejectedError';
import { rejection } from '../InputRejectedError';
import { RejectReason } from '../RejectReason';
import type { ClientIp } from './ClientIp';

/** The longest IPv6 text (`ffff:…:255.255.255.255`) is 45 characters; a zone name adds at most an interface name. */
const MAX_CLIENT_IP_LENGTH = 64;

export function parseClientIp(text: string, field: FieldName = 'clientIp'): ClientIp {
  if (text.length <= MAX_CLIENT_IP_LENGTH) {
    if (isIPv4(text)) return { version: 4, address: text, octets: text.split('.').map(Number) };
    if (isIPv6(text)) {
      const percent = text.indexOf('%');
      const address = percent < 0 ? text : text.slice(0, percent);
      const groups = ipv6Groups(address);
      return embeddedIpv4(groups) ?? { version: 6, address, groups };
    }
  }
  throw rejection(
    RejectReason.CLIENT_IP_MALFORMED,
    field,
    `must be an IPv4 or IPv6 address such as "203.0.113.7" or "2001:db8::7", got ${describe(text)}`,
  );
}

/** The eight 16-bit groups of an address isIPv6 accepted (zone removed). */
function ipv6Groups(address: string): number[] {
  let text = address;
  const dot = text.indexOf('.');
  if (dot >= 0) {
    // A dotted IPv4 tail is the last two groups.
    const start = text.lastIndexOf(':') + 1;
    const [a, b, c, d] = text.slice(start).split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, start)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const gap = text.indexOf('::');
  const head = gap < 0 ? text : text.slice(0, gap);
  const tail = gap < 0 ? '' : text.slice(gap + 2);
  const left = head === '' ? [] : head.split(':').map((group) => parseInt(group, 16));
  const right = tail === '' ? [] : tail.split(':').map((group) => parseInt(group, 16));
  return [...left, ...new Array<number>(8 - left.length - right.length).fill(0), ...right];
}

/** `::ffff:a.b.c.d` (RFC 4291) and `64:ff9b::a.b.c.d` (RFC 6052) carry an IPv4 client. */
function embeddedIpv4(groups: readonly number[]): ClientIp | undefined {
  const [g0, g1, g2, g3, g4, g5, g6, g7] = groups as [number, number, number, number, number, number, number, number];
  const mapped = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0xffff;
  const nat64 = g0 === 0x64 && g1 === 0xff9b && g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0;
  if (!mapped && !nat64) return undefined;
  const octets = [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff];
  return { version: 4, address: octets.join('.'), octets };
}
