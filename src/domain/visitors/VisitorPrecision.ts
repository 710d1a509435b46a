/**
 * The precision p (2^p registers) of the visitor sketch at each level. Every level uses the same register update,
 * so one hash feeds them all, and a day's and a month's sketch of one level merge register for register. SE is the
 * relative standard error at large counts (relativeStandardError); sizes are what a document grows by, measured with
 * the bson package by bench/probes/sketchAccuracy.ts: about 10 bytes per register set, 2^p registers at most.
 */
export const VISITOR_PRECISION = {
  /** 8192 registers: SE 0.72 % (target ≤ 1 %); 107 B at 10 visitors, 9.3 KB at 1,000, 80.8 KB saturated. */
  siteDay: 13,
  siteMonth: 13,
  /** 2048 registers: SE 1.44 % (target ≤ 2 %); 102 B at 10 visitors, 7.5 KB at 1,000, 19.4 KB saturated. */
  pageDay: 11,
  pageMonth: 11,
  /** 256 registers in a per-minute document: SE 4.1 %; 94 B at 10 visitors, 2.2 KB saturated. */
  minute: 8,
} as const;
