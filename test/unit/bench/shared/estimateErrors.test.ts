/** Estimate errors: relative to the truth, null answers counted apart, small counts judged by ±1. */
import { estimateErrors } from '../../../../bench/shared/estimateErrors';

describe('estimateErrors', () => {
  it.each([
    [
      'exact estimates',
      [
        { estimate: 10, truth: 10 },
        { estimate: 0, truth: 0 },
      ],
      { pairs: 2, missing: 0, medianRelativeError: 0, maxRelativeError: 0, withinOne: 1, truthMin: 0, truthMax: 10 },
    ],
    [
      'one estimate 2 % high and one 1 % low',
      [
        { estimate: 102, truth: 100 },
        { estimate: 990, truth: 1000 },
      ],
      { pairs: 2, medianRelativeError: 0.01, maxRelativeError: 0.02, meanRelativeBias: 0.005, withinOne: 0 },
    ],
    [
      'a null answer (NaN) counted as missing, not as an error',
      [
        { estimate: Number.NaN, truth: 5 },
        { estimate: 6, truth: 5 },
      ],
      { pairs: 1, missing: 1, maxRelativeError: 0.2, withinOne: 1 },
    ],
  ])('summarizes %s', (_name, pairs, expected) => {
    const errors = estimateErrors(pairs);
    for (const [key, value] of Object.entries(expected))
      expect(errors[key as keyof typeof errors]).toBeCloseTo(value as number, 10);
  });
});
