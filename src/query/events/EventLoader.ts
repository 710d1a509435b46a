/**
 * The per-request DataLoader for event documents: every events, properties, conversions and event breakdown field
 * of one GraphQL request joins one batch, answered by one find per event collection (whole UTC months from
 * `events.monthly`, the other days from `events.daily`), projected to the fields the batch's spans name.
 */
import DataLoader from 'dataloader';
import type { EventStatsDocument } from '../../store/eventDocument';
import { eventsDailyId } from '../../store/eventsDaily';
import { eventsMonthlyId } from '../../store/eventsMonthly';
import type { EventLevel } from '../../store/EventStore';
import type { PeriodPiece } from '../periodPieces';
import { spanPieces } from '../spanPieces';
import type { HitHorizon } from '../spanPieces';
import { EventTotals } from './EventTotals';

export interface EventSpan {
  readonly site: string;
  /** The page, or SITE_TOTAL_PAGE for the site's events. */
  readonly page: string;
  /** UTC midnights: [from, to). */
  readonly from: number;
  readonly to: number;
  /** The stored paths the caller reads (eventDocument); absent: whole documents. */
  readonly fields?: readonly string[] | undefined;
  /** Where stored events end: a span through today reads this month's document (spanPieces). */
  readonly horizon?: HitHorizon | undefined;
}

export interface EventDocumentReader {
  find(level: EventLevel, ids: readonly string[], fields?: readonly string[]): Promise<EventStatsDocument[]>;
}

const MAX_SPANS_PER_BATCH = 100;

export class EventLoader {
  private readonly loader: DataLoader<EventSpan, EventTotals, string>;

  constructor(reader: EventDocumentReader) {
    this.loader = new DataLoader<EventSpan, EventTotals, string>((spans) => loadEvents(reader, spans), {
      maxBatchSize: MAX_SPANS_PER_BATCH,
      cacheKeyFn: (s) => [s.site, s.page, s.from, s.to, s.horizon?.now ?? '-', ...(s.fields ?? ['*'])].join('\u0000'),
    });
  }

  load(span: EventSpan): Promise<EventTotals> {
    return this.loader.load(span);
  }
}

function idOf(span: EventSpan, piece: PeriodPiece): string {
  return piece.level === 'month'
    ? eventsMonthlyId(span.site, span.page, piece.start)
    : eventsDailyId(span.site, span.page, piece.start);
}

async function loadEvents(
  reader: EventDocumentReader,
  spans: readonly EventSpan[],
): Promise<Array<EventTotals | Error>> {
  const plans = spans.map((span) => {
    const pieces = spanPieces(span.from, span.to, span.horizon);
    if (pieces === undefined) throw new RangeError('an event span must be whole UTC days');
    return pieces;
  });
  const ids: Record<EventLevel, Set<string>> = { day: new Set(), month: new Set() };
  spans.forEach((span, i) => {
    for (const piece of plans[i] as PeriodPiece[])
      ids[piece.level === 'month' ? 'month' : 'day'].add(idOf(span, piece));
  });
  // The batch's documents carry every field one of its spans reads (all of them when one reads whole documents).
  const fields = spans.every((span) => span.fields !== undefined)
    ? [...new Set(spans.flatMap((span) => span.fields ?? []))]
    : undefined;
  const [days, months] = await Promise.all([
    reader.find('day', [...ids.day], fields),
    reader.find('month', [...ids.month], fields),
  ]);
  const byId = new Map<string, EventStatsDocument>();
  for (const doc of [...days, ...months]) byId.set(doc._id, doc);
  return spans.map((span, i) => {
    const docs: EventStatsDocument[] = [];
    for (const piece of plans[i] as PeriodPiece[]) {
      const doc = byId.get(idOf(span, piece));
      if (doc !== undefined) docs.push(doc);
    }
    return new EventTotals(span.from, span.to, docs);
  });
}
