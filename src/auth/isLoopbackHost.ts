/** Whether a HOST value only listens on this machine: 127.0.0.0/8, ::1, or the name localhost. */
import net from 'node:net';

export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost') return true;
  const address = host.startsWith('::ffff:') ? host.slice(7) : host;
  if (net.isIPv4(address)) return address.startsWith('127.');
  if (net.isIPv6(address)) return address === '::1' || address === '0:0:0:0:0:0:0:1';
  return false;
}
