/**
 * Validates the keys file at start-up. Every problem names the entry and the field, so a typo stops the
 * process with a message the operator can act on, and never quotes a secret.
 */
import { ConfigError } from '../errors/ConfigError';
import { parseSite } from '../domain/parseSite';
import type { Keys, SecretKey, SiteKey } from './Keys';
import { SCOPES } from './Scope';
import type { Scope } from './Scope';

const SHA256_HEX = /^[0-9a-f]{64}$/;
const NAME = /^[A-Za-z0-9_.-]{1,64}$/;

export function parseKeys(json: string, variable: string): Keys {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new ConfigError(variable, 'JSON holding { "keys": [...], "siteKeys": [...] }', 'text that is not JSON');
  }
  if (!isObject(raw)) throw new ConfigError(variable, 'a JSON object', typeof raw);
  const keys = list(raw.keys, `${variable} keys`).map((entry, index) => secretKey(entry, `${variable} keys[${index}]`));
  const siteKeys = list(raw.siteKeys, `${variable} siteKeys`).map((entry, index) =>
    siteKey(entry, `${variable} siteKeys[${index}]`),
  );
  const names = new Set<string>();
  for (const key of keys) {
    if (names.has(key.name)) throw new ConfigError(`${variable} keys`, 'unique names', key.name);
    names.add(key.name);
  }
  return { keys, siteKeys };
}

function secretKey(entry: unknown, where: string): SecretKey {
  if (!isObject(entry)) throw new ConfigError(where, 'an object', typeof entry);
  const name = entry.name;
  if (typeof name !== 'string' || !NAME.test(name)) {
    throw new ConfigError(`${where}.name`, '1 to 64 letters, digits, ".", "_" or "-"', String(name));
  }
  const hash = entry.sha256;
  if (typeof hash !== 'string' || !SHA256_HEX.test(hash)) {
    // Say what it looked like, not what it was: someone may have pasted the secret itself here.
    throw new ConfigError(`${where}.sha256`, '64 lowercase hex digits (the SHA-256 of the secret)', 'something else');
  }
  if (!Array.isArray(entry.scopes) || entry.scopes.length === 0) {
    throw new ConfigError(`${where}.scopes`, `a non-empty list of ${SCOPES.join(', ')}`, JSON.stringify(entry.scopes));
  }
  const scopes = new Set<Scope>();
  for (const scope of entry.scopes as unknown[]) {
    if (!SCOPES.includes(scope as Scope)) {
      throw new ConfigError(`${where}.scopes`, `each one of ${SCOPES.join(', ')}`, String(scope));
    }
    scopes.add(scope as Scope);
  }
  return {
    name,
    sha256: Buffer.from(hash, 'hex'),
    scopes,
    sites: entry.sites === undefined ? undefined : new Set(sites(entry.sites, `${where}.sites`)),
  };
}

function siteKey(entry: unknown, where: string): SiteKey {
  if (!isObject(entry)) throw new ConfigError(where, 'an object', typeof entry);
  const key = entry.key;
  if (typeof key !== 'string' || !/^[A-Za-z0-9_-]{8,128}$/.test(key)) {
    throw new ConfigError(`${where}.key`, '8 to 128 letters, digits, "_" or "-"', String(key));
  }
  const [site] = sites([entry.site], `${where}.site`);
  const origins = list(entry.origins, `${where}.origins`).map((origin) => {
    if (typeof origin !== 'string' || !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw new ConfigError(`${where}.origins`, 'origins such as "https://example.com" (no path)', String(origin));
    }
    return origin;
  });
  if (entry.keepQuery !== undefined && typeof entry.keepQuery !== 'boolean') {
    throw new ConfigError(`${where}.keepQuery`, 'true or false', String(entry.keepQuery));
  }
  return { key, site: site!, origins: new Set(origins), keepQuery: entry.keepQuery === true };
}

function sites(value: unknown, where: string): string[] {
  if (!Array.isArray(value)) throw new ConfigError(where, 'a list of sites', JSON.stringify(value));
  return value.map((site) => {
    if (typeof site !== 'string') throw new ConfigError(where, 'site names', String(site));
    try {
      return parseSite(site);
    } catch (error) {
      throw new ConfigError(where, 'valid site names', `${site} (${(error as Error).message})`);
    }
  });
}

function list(value: unknown, where: string): unknown[] {
  if (value === undefined) return [];
  if (!Array.isArray(value)) throw new ConfigError(where, 'a list', typeof value);
  return value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
