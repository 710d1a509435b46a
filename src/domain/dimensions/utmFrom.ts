/**
 * The UTM dimensions from a page URL, a path with a query, or a bare query: `utm_source`, `utm_medium`,
 * `utm_campaign`, decoded as forms are (`+` is a space, percent-escapes as UTF-8), the first non-empty
 * occurrence of each, whitespace collapsed, cut to 100 code points; source and medium lower-cased (they are
 * identifiers, and `Newsletter`/`newsletter` splitting one source is the classic mistake), campaign as sent.
 * A missing parameter is `(none)`. Called before the query is dropped from the page path.
 */
import { MAX_DIMENSION_VALUE_LENGTH } from './Dimension';
import { NONE } from './dimensionMarkers';
import { normaliseValue } from './normaliseValue';

export interface UtmDimensions {
  readonly utmSource: string;
  readonly utmMedium: string;
  readonly utmCampaign: string;
}

const NO_UTM: UtmDimensions = { utmSource: NONE, utmMedium: NONE, utmCampaign: NONE };

export function utmFrom(pageUrlOrQuery: string | undefined): UtmDimensions {
  const query = queryOf(pageUrlOrQuery ?? '');
  // Most hits carry no campaign: skip parsing the query then.
  if (!query.includes('utm_')) return NO_UTM;
  const params = new URLSearchParams(query);
  return {
    utmSource: first(params, 'utm_source', MAX_DIMENSION_VALUE_LENGTH.utmSource, true),
    utmMedium: first(params, 'utm_medium', MAX_DIMENSION_VALUE_LENGTH.utmMedium, true),
    utmCampaign: first(params, 'utm_campaign', MAX_DIMENSION_VALUE_LENGTH.utmCampaign, false),
  };
}

/** The text between `?` and `#`; text without `?` is a query itself unless it looks like a URL or a path. */
function queryOf(text: string): string {
  const hash = text.indexOf('#');
  const body = hash < 0 ? text : text.slice(0, hash);
  const question = body.indexOf('?');
  if (question >= 0) return body.slice(question + 1);
  return body.startsWith('/') || body.includes('://') ? '' : body;
}

function first(params: URLSearchParams, name: string, maxLength: number, lowerCase: boolean): string {
  for (const raw of params.getAll(name)) {
    const value = normaliseValue(lowerCase ? raw.toLowerCase() : raw, maxLength, '');
    if (value !== '') return value;
  }
  return NONE;
}
