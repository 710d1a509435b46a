/**
 * The country database tally ships: @ip-location-db/geo-whois-asn-country-mmdb (one .mmdb, IPv4 and IPv6,
 * ~7.8 MB). Its data is NRO's delegation statistics and RIR WHOIS (CC BY 4.0) merged with public geofeeds; the
 * attribution below is what CC BY 4.0 asks of us. The app reads the file (and a user's `.mmdb` instead, if set).
 */
export const BUNDLED_COUNTRY_DATABASE_PACKAGE = '@ip-location-db/geo-whois-asn-country-mmdb';

export const COUNTRY_DATA_ATTRIBUTION =
  'Country data: ip-location-db geo-whois-asn-country (https://github.com/sapics/ip-location-db), built from ' +
  'statistics and WHOIS data of the Number Resource Organization (https://www.nro.net/) and the five Regional ' +
  'Internet Registries, licensed under CC BY 4.0 (https://creativecommons.org/licenses/by/4.0/).';

/** Where the bundled `.mmdb` is installed (resolved through node_modules, so it follows the installation). */
export function bundledCountryDatabasePath(): string {
  return require.resolve(`${BUNDLED_COUNTRY_DATABASE_PACKAGE}/geo-whois-asn-country.mmdb`);
}
