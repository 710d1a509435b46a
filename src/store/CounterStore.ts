/**
 * Writes and reads of the hit counters (daily, monthly and second-level collections), over one Database, as its
 * write policy says: write filters, command sizes, how documents are read back, how the seconds expire, and which
 * documents' visitor sketches and dimension counters to compact once their period is over (compactPastPeriods,
 * CompactionNominations).
 */
import type { AnyBulkWriteOperation, Collection, Document } from 'mongodb';
import { bulkUpsert, bulkUpsertOptions, sortById } from './bulkUpsert';
import type { BulkUpsertOptions } from './bulkUpsert';
import { ensureIndexes } from './ensureIndexes';
import type { CounterBatch } from './CounterBatch';
import type { Database } from './connectDatabase';
import {
  DAILY_COLLECTION,
  dailyCollection,
  dailyDocumentId,
  dailyDocumentIds,
  dailyIndexes,
  dailyProjection,
  findDaily,
  preallocatedDaily,
} from './dailyStats';
import { eventCollection, eventIndexes } from './eventDocument';
import type { EventStatsDocument } from './eventDocument';
import { EVENTS_DAILY_COLLECTION } from './eventsDaily';
import { EVENTS_MONTHLY_COLLECTION } from './eventsMonthly';
import {
  ROLLUPS_COLLECTION,
  clearRollupMarker,
  ensureRollupMarker,
  rollupIndexes,
  rollupsCollection,
} from './pageRollups';
import type { PageRollupDocument } from './pageRollups';
import { EXACT_ID_READ_LIMIT, findByExactIds } from './findByExactIds';
import { findByIdList } from './findByIdList';
import type { DailyFields, DailyStatsDocument } from './dailyStats';
import { startOfMonth } from '../time/buckets';
import {
  findFirstCountedDay,
  findMonthly,
  MONTHLY_COLLECTION,
  monthlyCollection,
  monthlyDocumentId,
  monthlyDocumentIds,
  monthlyIndexes,
  monthlyProjection,
  preallocatedMonthly,
} from './monthlyStats';
import type { MonthlyStatsDocument } from './monthlyStats';
import {
  expiringSeconds,
  findSeconds,
  preallocatedSecondsHour,
  SECONDS_COLLECTION,
  secondIndexes,
  secondsCollection,
  secondsDocumentIds,
  secondsProjection,
} from './secondStats';
import type { SecondStatsDocument } from './secondStats';
import { secondsExpiryCutoff, secondsTtlIndex } from './secondsRetention';
import { deleteExpired, ensureTtlOrSweep, sweepPlanFor } from './ttlOrSweep';
import type { ExpiringCollection, ExpiryMode, SweepContext } from './ttlOrSweep';
import type { WritePolicy } from './WritePolicy';
import type { SeriesDocumentRange } from './SeriesDocumentRange';
import type { ExtraFields, StatsExtras } from './statsExtras';
import { translateDriverError } from './translateDriverError';
import { compactPastPeriods } from './compactPastPeriods';
import { compactEventSketches } from './compactEventSketches';
import { buildPageDigests } from './buildPageDigests';
import type { DigestSources } from './buildPageDigests';
import {
  deleteDayDigestsBefore,
  deleteSiteDigests,
  PAGE_DIGESTS_COLLECTION,
  pageDigestsCollection,
} from './pageDigests';
import type { PageDigestDocument } from './pageDigests';
import type { CompactedLevel } from './compactPastPeriods';
import { CompactionNominations } from './CompactionNominations';
import { isAbsorbed, markProjection } from './FlushMark';
import type { FlushMark } from './FlushMark';
import type { PendingUpdates } from './PendingUpdates';
import type { Logger } from '../logging/createLogger';
import { SITE_TOTAL_PAGE } from '../domain/siteTotal';
import { RETENTION_GRACE_MS, retentionCutoffs } from '../time/retentionCutoffs';
import type { RetentionCutoffs, RetentionSettings } from '../time/retentionCutoffs';
import { applyRetention } from './applyRetention';
import { deleteOwnerDocuments, unsetRolledUpPage } from './deleteOwnerDocuments';
import type { DeletionTarget } from './deletionRequests';

export interface PageDay {
  readonly site: string;
  readonly page: string;
  readonly day: number;
}

export interface PageHour {
  readonly site: string;
  readonly page: string;
  /** Start of the UTC hour whose 60 minute documents to create. */
  readonly hour: number;
}

export interface CounterStoreOptions {
  readonly writeConcern?: string | number | undefined;
  /** How long second-level documents are kept (default 48 hours). */
  readonly secondsRetentionMs?: number | undefined;
  /** Where the retention mode (TTL index or sweep) is logged once. */
  readonly logger?: Logger | undefined;
  /** RETENTION_MINUTES_DAYS and RETENTION_DAYS: what applyRetention drops. */
  readonly retention?: RetentionSettings | undefined;
}

interface Collections {
  readonly daily: Collection<DailyStatsDocument>;
  readonly monthly: Collection<MonthlyStatsDocument>;
  readonly seconds: Collection<SecondStatsDocument>;
  readonly eventsDaily: Collection<EventStatsDocument>;
  readonly eventsMonthly: Collection<EventStatsDocument>;
  readonly rollups: Collection<PageRollupDocument>;
}

const DEFAULT_SECONDS_RETENTION_MS = 48 * 3_600_000;

export class CounterStore {
  /** The collections over the shared client: every read goes through these. */
  private readonly readers: Collections;
  /** The same collections through Database.writerDb: every write goes through these. */
  private readonly writers: Collections;
  private readonly bulk: BulkUpsertOptions;
  private readonly policy: WritePolicy;
  private readonly engineName: string;
  readonly secondsRetentionMs: number;
  private readonly logger: Logger | undefined;
  /** The retention sweep's view: expired ids found on the background connection, deleted through the writer. */
  private readonly expiring: ExpiringCollection;
  /** Where compaction and retention read documents: the background connection. */
  private readonly finders: Collections;
  private readonly retention: RetentionSettings;
  /** The cutoffs the last complete retention run applied. */
  private retained: RetentionCutoffs | undefined;
  readonly nominations = new CompactionNominations();
  /** Operations built ahead of a batch's write (prebuild). */
  private readonly prebuilt = new WeakMap<
    CounterBatch,
    { readonly mark: FlushMark | undefined; readonly operations: AnyBulkWriteOperation<Document>[][] }
  >();
  /** The same for event documents (compactEventSketches), by the same levels: `events.daily`, `events.monthly`. */
  readonly eventNominations = new CompactionNominations();
  /** Page digests (pageDigests): read on the background connection, written through their own writer. */
  private readonly digests: {
    readonly finder: Collection<PageDigestDocument>;
    readonly writer: Collection<PageDigestDocument>;
  };

  constructor(database: Database, options: CounterStoreOptions = {}) {
    this.readers = {
      daily: dailyCollection(database.db),
      monthly: monthlyCollection(database.db),
      seconds: secondsCollection(database.db),
      eventsDaily: eventCollection(database.db, EVENTS_DAILY_COLLECTION),
      eventsMonthly: eventCollection(database.db, EVENTS_MONTHLY_COLLECTION),
      rollups: rollupsCollection(database.db),
    };
    this.writers = {
      daily: dailyCollection(database.writerDb(DAILY_COLLECTION)),
      monthly: monthlyCollection(database.writerDb(MONTHLY_COLLECTION)),
      seconds: secondsCollection(database.writerDb(SECONDS_COLLECTION)),
      eventsDaily: eventCollection(database.writerDb(EVENTS_DAILY_COLLECTION), EVENTS_DAILY_COLLECTION),
      eventsMonthly: eventCollection(database.writerDb(EVENTS_MONTHLY_COLLECTION), EVENTS_MONTHLY_COLLECTION),
      rollups: rollupsCollection(database.writerDb(ROLLUPS_COLLECTION)),
    };
    this.policy = database.policy;
    this.engineName = database.engine.name;
    this.secondsRetentionMs = options.secondsRetentionMs ?? DEFAULT_SECONDS_RETENTION_MS;
    this.logger = options.logger;
    this.bulk = bulkUpsertOptions(database.policy, options.writeConcern);
    this.finders = {
      daily: dailyCollection(database.backgroundDb()),
      monthly: monthlyCollection(database.backgroundDb()),
      seconds: secondsCollection(database.backgroundDb()),
      eventsDaily: eventCollection(database.backgroundDb(), EVENTS_DAILY_COLLECTION),
      eventsMonthly: eventCollection(database.backgroundDb(), EVENTS_MONTHLY_COLLECTION),
      rollups: rollupsCollection(database.backgroundDb()),
    };
    this.digests = {
      finder: pageDigestsCollection(database.backgroundDb()),
      writer: pageDigestsCollection(database.writerDb(PAGE_DIGESTS_COLLECTION)),
    };
    this.expiring = expiringSeconds(this.finders.seconds, this.writers.seconds, sweepPlanFor(database.policy.reads));
    this.retention = options.retention ?? {};
  }

  async ensureIndexes(): Promise<void> {
    await ensureIndexes(this.readers.daily, dailyIndexes);
    await ensureIndexes(this.readers.monthly, monthlyIndexes);
    await ensureIndexes(this.readers.eventsDaily, eventIndexes);
    await ensureIndexes(this.readers.eventsMonthly, eventIndexes);
    await ensureIndexes(this.readers.rollups, rollupIndexes);
  }

  /**
   * Where this process rolls pages up (pageRollups), the marker from which days the rollups are complete, created
   * if absent; where it does not, no marker. Resolves with the marker's day, or undefined.
   */
  async ensureRollupMarker(rollsUp: boolean, now: number): Promise<number | undefined> {
    try {
      if (!rollsUp) {
        await clearRollupMarker(this.writers.rollups);
        return undefined;
      }
      const hasCounters = async (): Promise<boolean> =>
        (await this.readers.monthly.findOne({}, { projection: { _id: 1 } })) !== null;
      return await ensureRollupMarker(this.writers.rollups, hasCounters, now, this.bulk);
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /** The second-level collection's query index, and its expiry: returns whether a TTL index or the sweep expires it. */
  async ensureSecondsIndexes(): Promise<ExpiryMode> {
    await ensureIndexes(this.readers.seconds, secondIndexes);
    return ensureTtlOrSweep(this.readers.seconds, secondsTtlIndex(this.secondsRetentionMs), {
      mode: this.policy.expiry,
      what: 'second-level counters',
      engine: this.engineName,
      reads: this.policy.reads,
      logger: this.logger,
    });
  }

  /**
   * One bulkWrite per collection, however many hits the batch holds (none for a collection with nothing to
   * write). With a FlushMark every upsert is guarded and recorded (exactly-once, issue 9), at no extra command.
   * Settles only when every collection's write has settled, so a failure never leaves a write in flight behind it
   * (a re-drive must not race the attempt it repairs).
   */
  async write(batch: CounterBatch, mark?: FlushMark): Promise<void> {
    const options = { ...this.bulk, mark };
    const prebuilt = this.prebuilt.get(batch);
    this.prebuilt.delete(batch);
    const operations =
      prebuilt !== undefined && prebuilt.mark === mark ? prebuilt.operations : this.operationsOf(batch, mark);
    const writes = this.collections(batch, this.writers).map(([collection], i) => {
      const ops = operations[i] ?? [];
      return ops.length > 0 ? bulkUpsert(collection, ops, options) : undefined;
    });
    const results = await Promise.allSettled(writes);
    // Even a failed write may have reached some documents: nominating one with nothing to fold costs one read.
    for (const key of batch.daily.compactableKeys()) this.nominations.nominate('daily', key.id, key.date.getTime());
    for (const key of batch.monthly.compactableKeys()) this.nominations.nominate('monthly', key.id, key.date.getTime());
    for (const key of batch.eventsDaily.compactableKeys()) {
      this.eventNominations.nominate('daily', key.id, key.date.getTime());
    }
    for (const key of batch.eventsMonthly.compactableKeys()) {
      this.eventNominations.nominate('monthly', key.id, key.date.getTime());
    }
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }

  /**
   * Compacts the sketches and dimension counters of nominated documents whose period ended COMPACTION_DELAY_MS
   * before `now` (a background job), then the visitor sketches of nominated event documents
   * (compactEventSketches); resolves with how many documents were rewritten. Ids a failed run took are
   * nominated again.
   */
  async compactPastPeriods(now: number, context?: SweepContext): Promise<number> {
    let compacted = 0;
    // Days first: a month's digest is made of its days' digests.
    for (const level of ['daily', 'monthly'] as const) {
      const ids = this.nominations.take(level, now);
      if (ids.length === 0) continue;
      try {
        compacted += await compactPastPeriods(
          this.finders[level] as unknown as Collection<Document>,
          this.writers[level] as unknown as Collection<Document>,
          level,
          ids,
          { targeting: this.policy.targeting, context },
        );
        await buildPageDigests(this.digestSources(), level, ids, context);
      } catch (error) {
        this.nominations.restore(level, ids, now);
        throw translateDriverError(error);
      }
    }
    for (const level of ['daily', 'monthly'] as const) {
      const ids = this.eventNominations.take(level, now);
      if (ids.length === 0) continue;
      const collection = this.target(level === 'daily' ? 'eventsDaily' : 'eventsMonthly');
      try {
        compacted += await compactEventSketches(collection.finder, collection.writer, ids, {
          targeting: this.policy.targeting,
          context,
        });
      } catch (error) {
        this.eventNominations.restore(level, ids, now);
        throw translateDriverError(error);
      }
    }
    return compacted;
  }

  /**
   * Drops what retention no longer keeps at `now` (applyRetention), with RETENTION_GRACE_MS of delay behind what
   * queries read as dropped; resolves with how many documents were deleted or trimmed. A run whose cutoffs equal the
   * last complete run's does nothing: the cutoffs move once a day.
   */
  async applyRetention(now: number, context: SweepContext): Promise<number> {
    const cutoffs = retentionCutoffs(now - RETENTION_GRACE_MS, this.retention);
    const last = this.retained;
    if (last && last.minutesFrom === cutoffs.minutesFrom && last.daysFrom === cutoffs.daysFrom) return 0;
    try {
      const run = await applyRetention({ daily: this.target('daily'), seconds: this.target('seconds') }, cutoffs, {
        reads: this.policy.reads,
        context,
        since: last,
      });
      // A dropped day's digest goes too: its pages' documents are gone, and so must the copy be.
      const digests = await deleteDayDigestsBefore(this.digests.writer, cutoffs.daysFrom);
      if (!context.stopped()) this.retained = cutoffs;
      return run.days + run.minutes + run.seconds + digests;
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /** Deletes every counter document of a site or page (deleteOwnerDocuments); resolves with the counts per collection. */
  async deleteOwner(target: DeletionTarget, context: SweepContext): Promise<Map<string, number>> {
    const levels = [
      [DAILY_COLLECTION, 'daily'],
      [MONTHLY_COLLECTION, 'monthly'],
      [SECONDS_COLLECTION, 'seconds'],
      [EVENTS_DAILY_COLLECTION, 'eventsDaily'],
      [EVENTS_MONTHLY_COLLECTION, 'eventsMonthly'],
      [ROLLUPS_COLLECTION, 'rollups'],
    ] as const;
    const options = { reads: this.policy.reads, context };
    try {
      const deleted = await deleteOwnerDocuments(
        levels.map(([name, level]) => ({ name, ...this.target(level) })),
        target,
        options,
      );
      // A site's digests go with it, and with any of its pages: a digest names every page of its period, and the
      // periods are read from the pages' documents from then on.
      const digests = await deleteSiteDigests(this.digests.writer, target.site);
      if (digests > 0) deleted.set(PAGE_DIGESTS_COLLECTION, digests);
      if (target.page !== undefined) {
        const page = { ...target, page: target.page };
        await unsetRolledUpPage({ name: DAILY_COLLECTION, ...this.target('daily') }, page, options);
        await unsetRolledUpPage({ name: ROLLUPS_COLLECTION, ...this.target('rollups') }, page, options);
      }
      return deleted;
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /** Where buildPageDigests reads (the background connection) and writes. */
  digestSources(): DigestSources {
    return {
      daily: this.finders.daily as unknown as Collection<Document>,
      monthly: this.finders.monthly as unknown as Collection<Document>,
      rollups: this.finders.rollups as unknown as Collection<Document>,
      digests: this.digests.finder,
      writer: this.digests.writer,
    };
  }

  private target(level: keyof Collections): { finder: Collection<Document>; writer: Collection<Document> } {
    return {
      finder: this.finders[level] as unknown as Collection<Document>,
      writer: this.writers[level] as unknown as Collection<Document>,
    };
  }

  /** Whether every document of `batch` absorbed one of the mark's attempts (reads each collection once). */
  async absorbed(batch: CounterBatch, mark: FlushMark): Promise<boolean> {
    try {
      for (const [collection, pendings] of this.collections(batch, this.readers)) {
        const ids = pendings.flatMap((pending) => pending.keys().map((key) => key.id));
        if (ids.length === 0) continue;
        const found =
          this.policy.reads === 'exactIds' && ids.length <= EXACT_ID_READ_LIMIT
            ? await findByExactIds(collection, ids, markProjection(mark))
            : await collection.find({ _id: { $in: ids } } as Document, { projection: markProjection(mark) }).toArray();
        const absorbed = found.filter((doc) => isAbsorbed(doc, mark)).length;
        if (absorbed < ids.length) return false;
      }
      return true;
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /** Each collection with what the batch writes there: the page rollups' days and months share one. */
  /**
   * Builds the batch's update operations now, for its write under the same mark to use: a window's writer calls it for
   * its next part while the database applies the current one, so tally's building overlaps the database's work
   * instead of following it (the window's parts are written one at a time). A write under another mark builds its
   * own; nothing is kept once the batch is written.
   */
  prebuild(batch: CounterBatch, mark?: FlushMark): void {
    this.prebuilt.set(batch, { mark, operations: this.operationsOf(batch, mark) });
  }

  /** Per collection of `collections`, in its order: the operations sorted by `_id`, as bulkUpsert sends them. */
  private operationsOf(batch: CounterBatch, mark: FlushMark | undefined): AnyBulkWriteOperation<Document>[][] {
    return this.collections(batch, this.writers).map(([, pendings]) =>
      sortById(pendings.flatMap((pending) => pending.toOperations(this.policy.targeting, mark))),
    );
  }

  private collections(batch: CounterBatch, through: Collections): Array<[Collection<Document>, PendingUpdates[]]> {
    return [
      [through.daily as unknown as Collection<Document>, [batch.daily]],
      [through.monthly as unknown as Collection<Document>, [batch.monthly]],
      [through.seconds as unknown as Collection<Document>, [batch.seconds]],
      [through.eventsDaily as unknown as Collection<Document>, [batch.eventsDaily]],
      [through.eventsMonthly as unknown as Collection<Document>, [batch.eventsMonthly]],
      [through.rollups as unknown as Collection<Document>, [batch.rollupsDaily, batch.rollupsMonthly]],
    ];
  }

  /** Creates the zero-filled minute documents of each page's hour; existing documents are left exactly as they are. */
  async preallocateSeconds(pageHours: readonly PageHour[]): Promise<void> {
    if (pageHours.length === 0) return;
    await bulkUpsert(
      this.writers.seconds as unknown as Collection<Document>,
      pageHours.flatMap((p) => preallocatedSecondsHour(p.site, p.page, p.hour, this.policy.targeting)),
      this.bulk,
    );
  }

  /** The retention sweep: deletes second-level documents wholly outside the window at `now`, in bounded steps. */
  async sweepSeconds(now: number, context?: SweepContext): Promise<number> {
    try {
      return await deleteExpired(this.expiring, secondsExpiryCutoff(now, this.secondsRetentionMs), context);
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  /** Creates zero-filled daily and monthly documents; existing documents are left exactly as they are. */
  async preallocate(pageDays: readonly PageDay[]): Promise<void> {
    if (pageDays.length === 0) return;
    // Pages of one month share a monthly document: preallocate it once.
    const monthly = new Map<string, AnyBulkWriteOperation<Document>>();
    for (const { site, page, day } of pageDays) {
      monthly.set(
        monthlyDocumentId(site, page, startOfMonth(day)),
        preallocatedMonthly(site, page, day, this.policy.targeting),
      );
    }
    await Promise.all([
      bulkUpsert(
        this.writers.daily as unknown as Collection<Document>,
        pageDays.map((p) => preallocatedDaily(p.site, p.page, p.day, this.policy.targeting)),
        this.bulk,
      ),
      bulkUpsert(this.writers.monthly as unknown as Collection<Document>, [...monthly.values()], this.bulk),
    ]);
  }

  /** `extra`: the visitor and dimension fields to read as well (statsExtras), in the same find. */
  findDaily(
    ranges: readonly SeriesDocumentRange[],
    fields: DailyFields,
    extra?: ExtraFields,
  ): Promise<Array<DailyStatsDocument & StatsExtras>> {
    return this.nominateRead(
      'daily',
      extra,
      this.read(this.readers.daily, ranges, dailyDocumentIds, dailyProjection(fields, extra), () =>
        findDaily(this.readers.daily, ranges, fields, extra),
      ),
    );
  }

  findMonthly(
    ranges: readonly SeriesDocumentRange[],
    extra?: ExtraFields,
  ): Promise<Array<MonthlyStatsDocument & StatsExtras>> {
    return this.nominateRead(
      'monthly',
      extra,
      this.read(this.readers.monthly, ranges, monthlyDocumentIds, monthlyProjection(extra), () =>
        findMonthly(this.readers.monthly, ranges, extra),
      ),
    );
  }

  /** The start of the first UTC day with a stored hit on `site` (its site-total documents), or undefined. */
  async firstCountedDay(site: string): Promise<number | undefined> {
    try {
      return await findFirstCountedDay(this.readers.monthly, site, SITE_TOTAL_PAGE);
    } catch (error) {
      throw translateDriverError(error);
    }
  }

  findSeconds(
    ranges: readonly SeriesDocumentRange[],
    extra?: ExtraFields,
  ): Promise<Array<SecondStatsDocument & StatsExtras>> {
    return this.read(this.readers.seconds, ranges, secondsDocumentIds, secondsProjection(extra), () =>
      findSeconds(this.readers.seconds, ranges, extra),
    );
  }

  /**
   * A read that found register fields (`v`, `dv`) or dimension counters (`d`) nominates their documents: data written
   * before this process.
   */
  private async nominateRead<T extends { metadata: { date: Date; site: string; page: string } } & StatsExtras>(
    level: CompactedLevel,
    extra: ExtraFields | undefined,
    read: Promise<T[]>,
  ): Promise<T[]> {
    const docs = await read;
    if (extra?.visitors !== true && extra?.dimensionVisitors === undefined && extra?.dimensions === undefined) {
      return docs;
    }
    const idOf = level === 'daily' ? dailyDocumentId : monthlyDocumentId;
    for (const doc of docs) {
      if (doc.v === undefined && doc.dv === undefined && doc.d === undefined) continue;
      const { site, page, date } = doc.metadata;
      this.nominations.nominate(level, idOf(site, page, date.getTime()), date.getTime());
    }
    return docs;
  }

  /**
   * As the policy reads (DocumentReads): MongoDB one find per collection for the whole batch, an `$or` of shard-key
   * index range scans; tally's FerretDB build one find per collection by the list of ids (its range filters decode
   * every row); stock FerretDB a find per document by exact `_id` while the batch needs few documents.
   */
  private async read<T extends Document>(
    collection: Collection<T>,
    ranges: readonly SeriesDocumentRange[],
    idsOf: (range: SeriesDocumentRange) => string[],
    projection: Document,
    scan: () => Promise<T[]>,
  ): Promise<T[]> {
    try {
      if (this.policy.reads === 'idList') {
        return await findByIdList(collection, [...new Set(ranges.flatMap(idsOf))], projection);
      }
      if (this.policy.reads === 'exactIds') {
        const ids = [...new Set(ranges.flatMap(idsOf))];
        if (ids.length <= EXACT_ID_READ_LIMIT) return await findByExactIds(collection, ids, projection);
      }
      return await scan();
    } catch (error) {
      throw translateDriverError(error);
    }
  }
}
