/**
 * Decimal amounts as exact integer minor units and back: "29.90" EUR is 2990, "1500" JPY is 1500. Strings in and
 * out, never a float, so sums are exact (up to Number.MAX_SAFE_INTEGER minor units).
 */
const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

export type MinorUnitsResult =
  | { readonly ok: true; readonly minor: number }
  | { readonly ok: false; readonly problem: 'notDecimal' | 'negative' | 'tooPrecise' | 'tooLarge' };

export function toMinorUnits(amount: string, digits: number): MinorUnitsResult {
  const match = DECIMAL.exec(amount);
  if (match === null) {
    return { ok: false, problem: /^-\d+(\.\d+)?$/.test(amount) ? 'negative' : 'notDecimal' };
  }
  const whole = match[1] as string;
  const fraction = match[2] ?? '';
  if (fraction.length > digits) return { ok: false, problem: 'tooPrecise' };
  const minor = Number(whole + fraction.padEnd(digits, '0'));
  if (!Number.isSafeInteger(minor)) return { ok: false, problem: 'tooLarge' };
  return { ok: true, minor };
}

/** The decimal string of `minor` units with `digits` fraction digits: 2990, 2 → "29.90". */
export function fromMinorUnits(minor: number, digits: number): string {
  const text = String(Math.abs(minor)).padStart(digits + 1, '0');
  const sign = minor < 0 ? '-' : '';
  if (digits === 0) return sign + text;
  return `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}
