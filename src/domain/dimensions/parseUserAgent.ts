/**
 * A User-Agent to browser family, operating-system family and device class, through ua-parser-js 1.0 (MIT),
 * with its names folded into families: "Mobile Safari" is Safari, "Mac OS" macOS, an iPad's iOS iPadOS, Linux
 * distributions Linux, Opera's editions Opera. No version is kept: families bound the cardinality. The raw
 * string is never stored. Bots are filtered before this (isbot); a UA the parser does not know is `(unknown)`.
 */
import UAParser from 'ua-parser-js';
import type { DeviceClass } from './DeviceClass';
import { MAX_DIMENSION_VALUE_LENGTH } from './Dimension';
import { UNKNOWN } from './dimensionMarkers';
import { normaliseValue } from './normaliseValue';

export interface UserAgentDimensions {
  readonly browser: string;
  readonly os: string;
  readonly device: DeviceClass | typeof UNKNOWN;
}

const BROWSER_FAMILIES: Readonly<Record<string, string>> = {
  IE: 'Internet Explorer',
  IEMobile: 'Internet Explorer',
  UCBrowser: 'UC Browser',
};

const OS_FAMILIES: Readonly<Record<string, string>> = {
  'Mac OS': 'macOS',
  'Chromium OS': 'ChromeOS',
  'Android-x86': 'Android',
};

const LINUX_DISTRIBUTIONS =
  /^(?:linux|[kxln]?ubuntu|debian|suse|opensuse|gentoo|arch|slackware|fedora|mandriva|centos|pclinuxos|red ?hat|zenwalk|linpus|raspbian|deepin|manjaro|elementary os|sabayon|linspire|mint|mageia|vectorlinux)$/i;

/** Operating systems whose devices ua-parser-js leaves without a type: only desktops and laptops run them. */
const DESKTOP_OS = new Set(['Windows', 'macOS', 'Linux', 'ChromeOS', 'FreeBSD', 'OpenBSD', 'NetBSD', 'Solaris']);

const DEVICE_TYPES: Readonly<Record<string, DeviceClass>> = {
  mobile: 'mobile',
  tablet: 'tablet',
  smarttv: 'tv',
  console: 'console',
};

export function parseUserAgent(userAgent: string): UserAgentDimensions {
  const result = new UAParser(userAgent).getResult();
  const device = result.device.type;
  const os = osFamily(result.os.name, device);
  let deviceClass: DeviceClass | typeof UNKNOWN = UNKNOWN;
  if (device === undefined) {
    if (DESKTOP_OS.has(os)) deviceClass = 'desktop';
  } else {
    // Wearables (watches, VR headsets) and embedded devices fit none of the classes.
    deviceClass = DEVICE_TYPES[device] ?? UNKNOWN;
  }
  return { browser: browserFamily(result.browser.name), os, device: deviceClass };
}

function browserFamily(name: string | undefined): string {
  if (name === undefined) return UNKNOWN;
  let family = BROWSER_FAMILIES[name] ?? name;
  if (family.startsWith('Mobile ')) family = family.slice('Mobile '.length);
  // Opera GX, Touch, Mobi, Tablet are Opera; Opera Mini renders on Opera's servers and stays apart.
  if (family.startsWith('Opera ') && family !== 'Opera Mini') family = 'Opera';
  return normaliseValue(family, MAX_DIMENSION_VALUE_LENGTH.browser, UNKNOWN);
}

function osFamily(name: string | undefined, device: string | undefined): string {
  if (name === undefined) return UNKNOWN;
  let family = OS_FAMILIES[name] ?? name;
  if (LINUX_DISTRIBUTIONS.test(family)) family = 'Linux';
  // iPads have sent "CPU OS … like Mac OS X" since iPadOS split from iOS; desktop-mode iPads send a Mac's UA.
  else if (family === 'iOS' && device === 'tablet') family = 'iPadOS';
  return normaliseValue(family, MAX_DIMENSION_VALUE_LENGTH.os, UNKNOWN);
}
