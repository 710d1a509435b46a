/**
 * IP address → ISO 3166-1 alpha-2 country, from a MaxMind DB (`.mmdb`) held in memory: the bundled
 * geo-whois-asn-country database by default, or a user's GeoLite2/GeoIP2/DB-IP Country or City file. Reads no
 * file and no network: the caller passes the database's bytes. Addresses that locate no one (isPublicAddress),
 * addresses the database does not cover, and codes that are not countries (`EU`, `AP`, `ZZ`) are `(unknown)`.
 */
import { Reader } from 'mmdb-lib';
import type { Response } from 'mmdb-lib';
import type { ClientIp } from './ClientIp';
import { UNKNOWN } from './dimensionMarkers';
import { isPublicAddress } from './isPublicAddress';

/** The record shapes in use: MaxMind's and DB-IP's (`country.iso_code`), ip-location-db's (`country_code`). */
interface CountryRecord {
  readonly country?: { readonly iso_code?: unknown };
  readonly registered_country?: { readonly iso_code?: unknown };
  readonly country_code?: unknown;
}

const COUNTRY_CODE = /^[A-Z]{2}$/;
/** Continents and placeholders some databases put where a country goes (MaxMind's legacy EU/AP, ZZ, XX). */
const NOT_COUNTRIES = new Set(['EU', 'AP', 'ZZ', 'XX']);
/** Addresses every country database covers; a database answering none of them holds no countries. */
const PROBES = ['8.8.8.8', '1.1.1.1', '9.9.9.9', '2001:4860:4860::8888'];

export class CountryDatabaseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'CountryDatabaseError';
  }
}

export class CountryLookup {
  private readonly reader: Reader<Response>;
  private readonly ipv6: boolean;

  /** `source` names the database in error messages (a path, or the bundled package's name). */
  constructor(database: Buffer, source: string) {
    try {
      this.reader = new Reader<Response>(database);
    } catch (error) {
      throw new CountryDatabaseError(
        `country database ${source} must be a MaxMind DB (.mmdb) file, got one that does not read as one: ${(error as Error).message}`,
      );
    }
    this.ipv6 = this.reader.metadata.ipVersion === 6;
    if (!PROBES.some((probe) => this.country(probe) !== UNKNOWN)) {
      throw new CountryDatabaseError(
        `country database ${source} must map addresses to countries, got a ${JSON.stringify(this.reader.metadata.databaseType)} database that locates none of ${PROBES.join(', ')}`,
      );
    }
  }

  /** The database's own name and build time, for the startup log. */
  get description(): { readonly type: string; readonly builtAt: Date } {
    return { type: this.reader.metadata.databaseType, builtAt: this.reader.metadata.buildEpoch };
  }

  lookup(ip: ClientIp): string {
    if (!isPublicAddress(ip)) return UNKNOWN;
    if (ip.version === 6 && !this.ipv6) return UNKNOWN;
    return this.country(ip.address);
  }

  private country(address: string): string {
    if (!this.ipv6 && address.includes(':')) return UNKNOWN;
    // Records are whatever the file holds; only the country fields are read, and checked.
    const record = this.reader.get(address) as CountryRecord | null;
    if (record === null) return UNKNOWN;
    const code = record.country?.iso_code ?? record.registered_country?.iso_code ?? record.country_code;
    return typeof code === 'string' && COUNTRY_CODE.test(code) && !NOT_COUNTRIES.has(code) ? code : UNKNOWN;
  }
}
