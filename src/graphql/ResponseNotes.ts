/**
 * Notes about a whole response that belong in its `extensions` rather than in the data (responseNotesPlugin adds
 * them): `retention`, when retention made some series points null (issue 30), says why and from when detail is kept.
 * One per request, in the context; resolvers note, the plugin reads once the response is complete.
 */
import type { Series } from '../query/Series';

export interface RetentionNote {
  readonly message: string;
  /** The first UTC day whose minute counters (and minute sketches) are kept; null: all are. */
  readonly minuteCountersFrom: string | null;
  /** The first UTC day whose daily documents (hours, day sketches, day dimension counters) are kept; null: all are. */
  readonly dailyDocumentsFrom: string | null;
  /** Points of this response whose hits or visitors are null for it, over every series. */
  readonly nullPoints: number;
}

export class ResponseNotes {
  private retention: RetentionNote | undefined;

  /** Records the series' points that retention made null, if any. */
  noteRetention(series: Series): void {
    const dropped = series.droppedPoints ?? 0;
    const retained = series.request.retained;
    if (dropped === 0 || retained === undefined) return;
    const day = (ms: number): string | null => (Number.isFinite(ms) ? new Date(ms).toISOString() : null);
    this.retention = {
      message:
        'some points are null: retention dropped the stored detail they need (RETENTION_MINUTES_DAYS keeps minute ' +
        'counters from minuteCountersFrom on, RETENTION_DAYS daily documents from dailyDocumentsFrom on; months are ' +
        'always kept, so DAY, WEEK and MONTH buckets of UTC days still answer)',
      minuteCountersFrom: day(retained.minutesFrom),
      dailyDocumentsFrom: day(retained.daysFrom),
      nullPoints: (this.retention?.nullPoints ?? 0) + dropped,
    };
  }

  /** The response's extensions to add; undefined when there is nothing to say. */
  extensions(): Record<string, unknown> | undefined {
    return this.retention ? { retention: this.retention } : undefined;
  }
}
