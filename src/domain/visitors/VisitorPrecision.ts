/**
 * The precision p (2^p registers) of the visitor sketch at each level. Every level uses the same register update,
 * so one hash feeds them all; a day's and a month's sketch of one level merge register for register.
 * SE: relative standard error at large counts (relativeStandardError). Sizes: what a document grows by, measured
 * with the bson package by bench/probes/sketchAccuracy.ts (about 10 bytes per register set).
 */
export const VISITOR_PRECISION = {
  /** 8192 registers: SE 0.72 %; TODO bytes at 10 visitors, TODO KB saturated. */
  siteDay: 13,
  siteMonth: 13,
  /** 2048 registers: SE 1.44 %; TODO bytes at 10 visitors, TODO KB saturated. */
  pageDay: 11,
  pageMonth: 11,
  /** 256 registers in each per-minute document: SE 4.1 %; TODO KB saturated. */
  minute: 8,
} as const;
