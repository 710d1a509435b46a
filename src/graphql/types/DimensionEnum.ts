/** Registers the Dimension enum (issue 20): its values carry the stored dimension names, so resolvers get a Dimension. */
import { registerEnumType } from 'type-graphql';

export enum DimensionEnum {
  SOURCE = 'source',
  UTM_SOURCE = 'utmSource',
  UTM_MEDIUM = 'utmMedium',
  UTM_CAMPAIGN = 'utmCampaign',
  BROWSER = 'browser',
  OS = 'os',
  DEVICE = 'device',
  COUNTRY = 'country',
}

registerEnumType(DimensionEnum, {
  name: 'Dimension',
  description:
    'What a hit is counted by besides its page. Every hit has exactly one value per dimension (a marker such as "(direct)", "(none)" or "(unknown)" when nothing is known), so the values of a breakdown add up to its hits.',
  valuesConfig: {
    SOURCE: {
      description:
        'Referrer source: the referring host without "www.", known hosts mapped to names (google.*: "Google"); "(direct)" without a referrer, "(internal)" from the site itself.',
    },
    UTM_SOURCE: { description: 'The page URL\'s utm_source parameter; "(none)" without one.' },
    UTM_MEDIUM: { description: 'The page URL\'s utm_medium parameter; "(none)" without one.' },
    UTM_CAMPAIGN: { description: 'The page URL\'s utm_campaign parameter; "(none)" without one.' },
    BROWSER: { description: 'Browser family from the User-Agent, e.g. "Chrome"; "(unknown)" when unrecognised.' },
    OS: { description: 'Operating system family from the User-Agent, e.g. "Android"; "(unknown)" when unrecognised.' },
    DEVICE: {
      description:
        'Device class from the User-Agent: "desktop", "mobile", "tablet", "tv" or "console"; "(unknown)" otherwise.',
    },
    COUNTRY: {
      description: 'Country of the client address, ISO 3166-1 alpha-2 (e.g. "DE"); "(unknown)" when it does not map.',
    },
  },
});
