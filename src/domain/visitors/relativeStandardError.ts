/**
 * The relative standard error a sketch of 2^precision registers promises at large counts: 0.652 / √m, the worst of
 * the ladder's Cramér–Rao bound between rungs (ladderMaximumLikelihood). It holds up to about 20,000 visitors per
 * register (2^precision · 20,000 in all), where the last rungs start to fill; smaller counts come out closer.
 */
import { checkPrecision } from './checkPrecision';

export const LADDER_ERROR_CONSTANT = 0.652;

export function relativeStandardError(precision: number): number {
  checkPrecision(precision);
  return LADDER_ERROR_CONSTANT / Math.sqrt(2 ** precision);
}
