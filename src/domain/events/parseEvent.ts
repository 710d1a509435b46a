/**
 * Validates a hit's event fields (issue 28) into a HitEvent: the name, the properties and the revenue, each refusal
 * naming its field and carrying a RejectReason. No event name: a pageview, which may carry neither properties nor
 * revenue (they would be dropped silently otherwise).
 */
import { CONTROL_CHARACTERS } from '../controlCharacters';
import { rejection } from '../InputRejectedError';
import { RejectReason } from '../RejectReason';
import { currencyDigits } from './currencyDigits';
import type { EventInputFields, HitEvent, Revenue } from './HitEvent';
import { MAX_EVENT_NAME_LENGTH, MAX_EVENT_PROPS, MAX_PROP_KEY_LENGTH, MAX_PROP_VALUE_LENGTH } from './HitEvent';
import { looksLikeEmail } from './looksLikeEmail';
import { toMinorUnits } from './minorUnits';

export interface EventRules {
  /** EVENT_PROPS_ALLOW_EMAIL: property values that look like e-mail addresses are accepted. */
  readonly allowEmailProps: boolean;
}

type Props = NonNullable<EventInputFields['props']>;
type RevenueInput = NonNullable<EventInputFields['revenue']>;

/** The hit's event, or undefined for a pageview; `field` names the hit's own fields (`hits[2].props`). */
export function parseEvent(
  input: EventInputFields,
  rules: EventRules,
  field: (name: string) => string,
): HitEvent | undefined {
  if (input.event == null) {
    if (input.revenue != null) {
      throw rejection(RejectReason.EVENT_MISSING, () => field('revenue'), 'needs an event: a pageview has no revenue');
    }
    if (input.props != null && input.props.length > 0) {
      throw rejection(RejectReason.EVENT_MISSING, () => field('props'), 'need an event: a pageview has no properties');
    }
    return undefined;
  }
  const name = parseEventName(input.event, () => field('event'));
  const props = input.props == null ? [] : parseProps(input.props, rules, (suffix) => field(`props${suffix}`));
  const revenue = input.revenue == null ? undefined : parseRevenue(input.revenue, (sub) => field(`revenue.${sub}`));
  return revenue === undefined ? { name, props } : { name, props, revenue };
}

export function parseEventName(name: string, field: () => string): string {
  if (name.length === 0) throw rejection(RejectReason.EVENT_NAME_EMPTY, field, 'must not be empty');
  if (name.length > MAX_EVENT_NAME_LENGTH) {
    throw rejection(
      RejectReason.EVENT_NAME_TOO_LONG,
      field,
      `must be at most ${MAX_EVENT_NAME_LENGTH} characters, got ${name.length}`,
    );
  }
  checkText(name, field);
  return name;
}

/** `field('')` names the list, `field('[3].key')` one entry's key. */
export function parseProps(
  props: Props,
  rules: EventRules,
  field: (suffix: string) => string,
): Array<readonly [string, string]> {
  if (props.length > MAX_EVENT_PROPS) {
    throw rejection(
      RejectReason.EVENT_PROPS_TOO_MANY,
      () => field(''),
      `must hold at most ${MAX_EVENT_PROPS} properties, got ${props.length}`,
    );
  }
  const seen = new Set<string>();
  return props.map(({ key, value }, i) => {
    const keyField = (): string => field(`[${i}].key`);
    const valueField = (): string => field(`[${i}].value`);
    if (key.length === 0) throw rejection(RejectReason.PROP_KEY_EMPTY, keyField, 'must not be empty');
    if (key.length > MAX_PROP_KEY_LENGTH) {
      throw rejection(
        RejectReason.PROP_KEY_TOO_LONG,
        keyField,
        `must be at most ${MAX_PROP_KEY_LENGTH} characters, got ${key.length}`,
      );
    }
    checkText(key, keyField);
    if (seen.has(key)) throw rejection(RejectReason.PROP_KEY_REPEATED, keyField, `must be unique, got "${key}" twice`);
    seen.add(key);
    if (value.length === 0) throw rejection(RejectReason.PROP_VALUE_EMPTY, valueField, 'must not be empty');
    if (value.length > MAX_PROP_VALUE_LENGTH) {
      throw rejection(
        RejectReason.PROP_VALUE_TOO_LONG,
        valueField,
        `must be at most ${MAX_PROP_VALUE_LENGTH} characters, got ${value.length}`,
      );
    }
    checkText(value, valueField);
    if (!rules.allowEmailProps && looksLikeEmail(value)) {
      // The value is not echoed: it is the personal datum being refused.
      throw rejection(
        RejectReason.PROP_VALUE_EMAIL,
        valueField,
        'must not be an e-mail address (properties are stored as sent; EVENT_PROPS_ALLOW_EMAIL=true allows them)',
      );
    }
    return [key, value] as const;
  });
}

/** `field('amount')`, `field('currency')`. */
export function parseRevenue(revenue: RevenueInput, field: (name: 'amount' | 'currency') => string): Revenue {
  const { amount, currency } = revenue;
  if (!/^[A-Z]{3}$/.test(currency)) {
    throw rejection(
      RejectReason.CURRENCY_NOT_ISO_CODE,
      () => field('currency'),
      `must be an ISO 4217 code of three capital letters such as "EUR", got ${JSON.stringify(currency.slice(0, 20))}`,
    );
  }
  const digits = currencyDigits(currency);
  const result = toMinorUnits(amount, digits);
  if (!result.ok) {
    const shown = JSON.stringify(amount.slice(0, 40));
    const [reason, rest] =
      result.problem === 'negative'
        ? [RejectReason.AMOUNT_NEGATIVE, `must not be negative, got ${shown}`]
        : result.problem === 'tooPrecise'
          ? [RejectReason.AMOUNT_TOO_PRECISE, `must have at most ${digits} decimals for ${currency}, got ${shown}`]
          : result.problem === 'tooLarge'
            ? [RejectReason.AMOUNT_TOO_LARGE, `must be at most ${Number.MAX_SAFE_INTEGER} minor units, got ${shown}`]
            : [RejectReason.AMOUNT_NOT_DECIMAL, `must be a decimal number such as "29.90", got ${shown}`];
    throw rejection(reason, () => field('amount'), rest);
  }
  return { currency, minor: result.minor };
}

function checkText(text: string, field: () => string): void {
  const control = text.search(CONTROL_CHARACTERS);
  if (control >= 0) {
    throw rejection(
      RejectReason.EVENT_TEXT_HAS_CONTROL,
      field,
      `must not contain control characters, got one at index ${control}`,
    );
  }
  if (!text.isWellFormed()) {
    throw rejection(RejectReason.MALFORMED_UNICODE, field, 'must be well-formed Unicode, got a lone surrogate');
  }
}

/** Revenue counts once per occurrence: `count` occurrences must still sum exactly. */
export function checkRevenueTotal(event: HitEvent, count: number, field: () => string): void {
  const minor = event.revenue?.minor ?? 0;
  if (minor * count > Number.MAX_SAFE_INTEGER) {
    throw rejection(
      RejectReason.AMOUNT_TOO_LARGE,
      field,
      `times count (${count}) must be at most ${Number.MAX_SAFE_INTEGER} minor units, got ${minor} minor units`,
    );
  }
}
