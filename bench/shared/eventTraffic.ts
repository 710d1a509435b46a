/**
 * Which hits of the benchmark's traffic are custom events (issue 28), a pure function of the hit's index so every
 * variant of a run replays the same traffic: EVENT_SHARE of hits are events, each with two properties; the
 * `Purchase` ones (REVENUE_SHARE of all hits) carry revenue in one of two currencies.
 */
import type { HitEvent } from '../../src/domain/events/HitEvent';
import { unitAt } from './random';

export const EVENT_SHARE = 0.05;
export const REVENUE_SHARE = 0.01;
/** The event names: `Signup` (without revenue) and `Purchase` (with). */
export const SIGNUP = 'Signup';
export const PURCHASE = 'Purchase';

const PLANS = ['free', 'starter', 'pro', 'team'] as const;
const METHODS = ['email', 'google', 'github'] as const;
const PRODUCTS = Array.from({ length: 20 }, (_, i) => `sku-${String(i + 1).padStart(3, '0')}`);
const COUPONS = ['none', 'WELCOME10', 'SPRING', 'LOYAL', 'PARTNER'] as const;
const CURRENCIES = ['EUR', 'USD'] as const;

/** An event as recordHits sends it (the amount a decimal string), and as CounterBatch counts it (minor units). */
export interface BenchEvent {
  readonly name: string;
  readonly props: ReadonlyArray<{ readonly key: string; readonly value: string }>;
  readonly revenue?: { readonly amount: string; readonly currency: string; readonly minor: number };
}

/** The event hit `index` carries, or undefined for a pageview. */
export function eventAt(seed: number, index: number): BenchEvent | undefined {
  const unit = unitAt(seed, index);
  if (unit >= EVENT_SHARE) return undefined;
  const pick = unitAt(seed + 1, index);
  if (unit < REVENUE_SHARE) {
    const minor = 990 + Math.floor(pick * 20) * 500;
    return {
      name: PURCHASE,
      props: [
        { key: 'product', value: PRODUCTS[Math.floor(pick * PRODUCTS.length)] as string },
        { key: 'coupon', value: COUPONS[Math.floor(unitAt(seed + 2, index) * COUPONS.length)] as string },
      ],
      revenue: {
        amount: (minor / 100).toFixed(2),
        currency: CURRENCIES[Math.floor(unitAt(seed + 3, index) * CURRENCIES.length)] as string,
        minor,
      },
    };
  }
  return {
    name: SIGNUP,
    props: [
      { key: 'plan', value: PLANS[Math.floor(pick * PLANS.length)] as string },
      { key: 'method', value: METHODS[Math.floor(unitAt(seed + 2, index) * METHODS.length)] as string },
    ],
  };
}

/** The same event as CounterBatch takes it (parseEvent's output). */
export function hitEventOf(event: BenchEvent): HitEvent {
  return {
    name: event.name,
    props: event.props.map(({ key, value }) => [key, value] as const),
    ...(event.revenue === undefined
      ? {}
      : { revenue: { currency: event.revenue.currency, minor: event.revenue.minor } }),
  };
}
