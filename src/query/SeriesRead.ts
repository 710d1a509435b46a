/**
 * What a plan reads from one source: `monthly` (monthly documents), `hourly` (daily documents' main find: `hourly`,
 * and `v`/`d`/`dv` when asked), `minute` (daily documents' `minute.<h>`, a find of its own so a minute chart projects
 * only its hours) and `seconds` (minute documents of `stats.seconds`: `seconds`, and `v`).
 */
import type { SeriesDocumentRange } from '../store/SeriesDocumentRange';
import type { ExtraFields } from '../store/statsExtras';
import type { PeriodLevel } from './periodPieces';

export type SeriesSource = 'hourly' | 'minute' | 'monthly' | 'seconds';

export const SOURCE_ORDER: readonly SeriesSource[] = ['monthly', 'hourly', 'minute', 'seconds'];

export interface SeriesRead {
  readonly source: SeriesSource;
  /** Contiguous runs of documents (by period start) this series needs from the source. */
  readonly ranges: readonly SeriesDocumentRange[];
  /** Visitor and dimension fields read from these documents as well. */
  readonly extra?: ExtraFields | undefined;
}

/** Where a stored period's document is read. */
export const PERIOD_SOURCE: Readonly<Record<PeriodLevel, SeriesSource>> = {
  month: 'monthly',
  day: 'hourly',
  minute: 'seconds',
};
