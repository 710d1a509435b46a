/** Descriptions shared by recordHit's arguments and HitInput's fields: visitors (issue 19) and dimensions (issue 20). */
export const VISITOR_DESCRIPTION =
  'An opaque id of the visitor (e.g. a hashed account id or a first-party cookie): 1–255 characters, no control characters. Only a keyed hash of it is kept, in the visitor sketches; the id itself is never stored.';
export const REFERRER_DESCRIPTION =
  'The referrer the hit came with (a URL, at most 4,096 characters): its host becomes the source dimension; the referrer itself is not stored.';
export const USER_AGENT_DESCRIPTION =
  "The browser's User-Agent (at most 1,024 characters): its browser family, operating system and device class become dimensions; the string itself is not stored.";
export const CLIENT_IP_DESCRIPTION =
  "The client's IPv4 or IPv6 address: its country becomes a dimension; the address itself is not stored.";
export const DIMENSIONS_DESCRIPTION =
  'Dimension values set explicitly; each wins over the derived one. UTM parameters are derived from the page\'s own query ("/landing?utm_source=x").';

export const EVENT_DESCRIPTION =
  'A custom event name (1–120 characters, no control characters), e.g. "Signup". Absent: a pageview. An event is counted in the event collections (events, conversions, properties), not in hits; its visitor counts in the site\'s visitors.';
export const PROPS_DESCRIPTION =
  "The event's properties: at most 30, stored as sent (never send personal data). Only with an event.";
export const REVENUE_DESCRIPTION =
  "The event's revenue: a decimal amount and an ISO 4217 currency. Only with an event.";
