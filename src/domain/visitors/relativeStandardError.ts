/**
 * The relative standard error a sketch of 2^precision registers promises at large counts: 0.652 / √m, the worst of
 * the ladder's Cramér–Rao bound between rungs (ladderMaximumLikelihood). Smaller counts come out closer. It holds up
 * to about 20,000 visitors per register (4·10^7 at p = 11, 1.6·10^8 at p = 13); past that the last rungs fill and
 * it grows (1.5 times at 100,000 per register).
 */
import { checkPrecision } from './checkPrecision';

export const LADDER_ERROR_CONSTANT = 0.652;

export function relativeStandardError(precision: number): number {
  checkPrecision(precision);
  return LADDER_ERROR_CONSTANT / Math.sqrt(2 ** precision);
}
