/**
 * What deriving dimensions needs once per process: the User-Agent parser (with its cache) and the country database,
 * read from COUNTRY_DATABASE or the bundled file at start, never at run time and never from the network.
 */
import { readFileSync } from 'node:fs';
import {
  bundledCountryDatabasePath,
  BUNDLED_COUNTRY_DATABASE_PACKAGE,
} from '../domain/dimensions/bundledCountryDatabase';
import { CountryLookup } from '../domain/dimensions/CountryLookup';
import { UserAgentParser } from '../domain/dimensions/UserAgentParser';

export interface DimensionSources {
  readonly userAgents: UserAgentParser;
  /** Absent: no country database; country is `(unknown)` unless a client sets it. */
  readonly countries: CountryLookup | undefined;
}

/** `countryDatabase`: a `.mmdb` path (COUNTRY_DATABASE), or undefined for the bundled database. */
export function loadDimensionSources(countryDatabase: string | undefined): DimensionSources {
  const path = countryDatabase ?? bundledCountryDatabasePath();
  const source = countryDatabase ?? BUNDLED_COUNTRY_DATABASE_PACKAGE;
  return { userAgents: new UserAgentParser(), countries: new CountryLookup(readFileSync(path), source) };
}
