/**
 * A custom event (issue 28): what a hit carries when it is not a pageview. Validated by parseEvent; everything
 * downstream trusts it. Revenue is kept in exact integer minor units of its currency (cents for EUR, yen for JPY).
 */
export interface HitEvent {
  /** 1–120 characters, no control characters. */
  readonly name: string;
  /** Key/value pairs as sent (at most MAX_EVENT_PROPS, keys distinct). */
  readonly props: ReadonlyArray<readonly [key: string, value: string]>;
  readonly revenue?: Revenue | undefined;
}

export interface Revenue {
  /** ISO 4217 code: three capital letters. */
  readonly currency: string;
  /** The amount in the currency's minor units: a non-negative safe integer. */
  readonly minor: number;
}

/** An event as a client sends it, before validation (HitInput's event, props and revenue). */
export interface EventInputFields {
  readonly event?: string | null | undefined;
  readonly props?: ReadonlyArray<{ readonly key: string; readonly value: string }> | null | undefined;
  readonly revenue?: { readonly amount: string; readonly currency: string } | null | undefined;
}

export const MAX_EVENT_NAME_LENGTH = 120;
export const MAX_EVENT_PROPS = 30;
export const MAX_PROP_KEY_LENGTH = 300;
export const MAX_PROP_VALUE_LENGTH = 2_000;
