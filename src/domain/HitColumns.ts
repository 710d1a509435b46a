/**
 * A batch of hits as columns, before validation: sites and pages are dictionaries sent once, and each hit is a
 * row across the per-hit columns. Repeated pages are parsed and validated once per batch instead of once per hit,
 * and the request is a few flat lists instead of one object per hit, so GraphQL coerces scalars, not objects.
 */
export interface HitColumns {
  /** Distinct sites the rows refer to. */
  readonly sites: readonly string[];
  /** Distinct pages the rows refer to. */
  readonly pages: readonly string[];
  /** Per hit, an index into `sites`; may be omitted when `sites` holds one site. */
  readonly siteIndex?: readonly number[] | null | undefined;
  /** Per hit, an index into `pages`: its length is the number of hits. */
  readonly pageIndex: readonly number[];
  /** Per hit, epoch milliseconds (UTC); omitted: every hit happened now. */
  readonly atMs?: readonly number[] | null | undefined;
  /** Per hit, how many hits; omitted: one each. */
  readonly count?: readonly number[] | null | undefined;
  /** Distinct event names (issue 28), and per hit an index into them or -1 for a pageview. */
  readonly events?: readonly string[] | null | undefined;
  readonly eventIndex?: readonly number[] | null | undefined;
  /** Distinct property lists, and per hit an index into them or -1 for none (an event's only). */
  readonly properties?:
    ReadonlyArray<ReadonlyArray<{ readonly key: string; readonly value: string }>> | null | undefined;
  readonly propertiesIndex?: readonly number[] | null | undefined;
  /** Distinct revenues, and per hit an index into them or -1 for none (an event's only). */
  readonly revenues?: ReadonlyArray<{ readonly amount: string; readonly currency: string }> | null | undefined;
  readonly revenueIndex?: readonly number[] | null | undefined;
}
