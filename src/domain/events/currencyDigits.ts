/**
 * How many minor-unit digits a currency's amounts have (2 for EUR, 0 for JPY, 3 for KWD), from the ICU data Node
 * ships (Intl), so no currency table lives in this code; 2 for a code Intl does not know.
 */
const cache = new Map<string, number>();
const FALLBACK_DIGITS = 2;

export function currencyDigits(currency: string): number {
  let digits = cache.get(currency);
  if (digits === undefined) {
    try {
      digits =
        new Intl.NumberFormat('en', { style: 'currency', currency }).resolvedOptions().maximumFractionDigits ??
        FALLBACK_DIGITS;
    } catch {
      digits = FALLBACK_DIGITS;
    }
    cache.set(currency, digits);
  }
  return digits;
}
