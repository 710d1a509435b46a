/** One validated hit: everything downstream of parseHit trusts these fields. */
import type { DimensionValues } from './dimensions/Dimension';
import type { ExplicitDimensions } from './dimensions/deriveDimensions';
import type { EventInputFields, HitEvent } from './events/HitEvent';
import type { Hash64 } from './visitors/Hash64';

export interface Hit {
  readonly site: string;
  readonly page: string;
  /** Epoch milliseconds, UTC. */
  readonly at: number;
  readonly count: number;
  /** The visitor's keyed hash (visitorHash, beaconVisitorHash), never the id itself; absent: no visitor known. */
  readonly visitor?: Hash64 | undefined;
  /** Every dimension's value, already derived; absent: dimensions are not counted (DIMENSIONS_ENABLED=false). */
  readonly dimensions?: DimensionValues | undefined;
  /** A custom event (issue 28); absent: a pageview. An event counts in the event collections, not in hits. */
  readonly event?: HitEvent | undefined;
}

/** A hit as a client sends it, before validation. */
export interface HitInputFields extends EventInputFields {
  readonly site: string;
  readonly page: string;
  readonly at?: Date | null | undefined;
  readonly count?: number | null | undefined;
  /** An opaque visitor id (parseVisitor); only its keyed hash is kept. */
  readonly visitor?: string | null | undefined;
  /** What the hit's source saw, for its dimensions (deriveDimensions); never stored. */
  readonly referrer?: string | null | undefined;
  readonly userAgent?: string | null | undefined;
  readonly clientIp?: string | null | undefined;
  /** Values the client sets itself; they win over derived ones. */
  readonly dimensions?: ExplicitDimensions | null | undefined;
}

export interface HitLimits {
  readonly maxCount: number;
  readonly maxClockSkewMs: number;
  readonly maxBatchSize: number;
  /** EVENT_PROPS_ALLOW_EMAIL: property values that look like e-mail addresses are accepted (default false). */
  readonly allowEmailProps?: boolean | undefined;
}
