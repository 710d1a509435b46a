/**
 * The source dimension from a referrer: its host, lower-case, IDNs in Unicode (`xn--bcher-kva.de` and
 * `bücher.de` are one), without `www.`, port, credentials or trailing dot, then named when knownSource knows it.
 * No referrer is `(direct)`; the site's own host (or the page's) is `(internal)`; anything but an absolute
 * http(s) or android-app URL (or a protocol-relative one) is `(unknown)`, and so is a host that is an IP address:
 * tally stores no IP address in any dimension, whoever's it is.
 */
import { isIP } from 'node:net';
import { domainToUnicode } from 'node:url';
import { MAX_DIMENSION_VALUE_LENGTH } from './Dimension';
import { DIRECT, INTERNAL, UNKNOWN } from './dimensionMarkers';
import { knownSource } from './knownSources';
import { normaliseValue } from './normaliseValue';

export function referrerSource(referrer: string | undefined, siteHost: string, pageHost?: string): string {
  const text = referrer?.trim() ?? '';
  if (text === '') return DIRECT;
  const host = referrerHost(text);
  if (host === undefined) return UNKNOWN;
  if (host === sourceHost(siteHost) || (pageHost !== undefined && host === sourceHost(pageHost))) return INTERNAL;
  if (isIpLiteral(host)) return UNKNOWN;
  return knownSource(host) ?? normaliseValue(host, MAX_DIMENSION_VALUE_LENGTH.source, UNKNOWN);
}

/** The normalised host of an absolute referrer URL, or undefined when it has none tally accepts. */
export function referrerHost(referrer: string): string | undefined {
  let url: URL;
  try {
    url = referrer.startsWith('//') ? new URL(`https:${referrer}`) : new URL(referrer);
  } catch {
    return undefined;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:' && url.protocol !== 'android-app:') return undefined;
  // android-app's host is an opaque package name: URL leaves its case alone.
  const host = sourceHost(url.hostname);
  return host === '' ? undefined : host;
}

/** `WWW.Example.com.` → `example.com`; `xn--bcher-kva.de` → `bücher.de`; `example.com:8080` → `example.com`. */
export function sourceHost(host: string): string {
  let name = host.toLowerCase();
  if (!name.startsWith('[')) {
    const colon = name.indexOf(':');
    if (colon >= 0 && colon === name.lastIndexOf(':')) name = name.slice(0, colon);
  }
  if (name.startsWith('www.')) name = name.slice(4);
  if (name.endsWith('.')) name = name.slice(0, -1);
  if (name.includes('xn--')) name = domainToUnicode(name) || name;
  return name;
}

/** `192.168.1.5`, `[2001:db8::1]` (URL keeps IPv6 hosts bracketed). */
function isIpLiteral(host: string): boolean {
  return isIP(host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host) !== 0;
}
