/**
 * Live series for GraphQL subscriptions, driven by the database so that hits ingested by any API instance show
 * up: while anyone watches, the process polls once per interval with one batched read (loadSeries: one find
 * per source) for every watched series, shares each result between the subscribers of that series, and lets
 * each subscriber diff it against what it last received. Nobody watching, no polling.
 */
import type { Logger } from '../logging/createLogger';
import type { LiveSeriesSpec, LiveUpdate } from './LiveSeries';
import { liveSeriesKey, liveWindowRequest } from './LiveSeries';
import { LiveSubscription } from './LiveSubscription';
import { loadSeries } from './loadSeries';
import type { SeriesReader } from './SeriesReader';
import { MAX_SERIES_PER_BATCH } from './StatsLoader';

export interface LiveSeriesHubOptions {
  readonly clock: () => number;
  readonly logger: Logger;
  /** How often watched series are re-read (and at most how often a subscriber gets an update). */
  readonly intervalMs: number;
}

interface Watched {
  readonly spec: LiveSeriesSpec;
  readonly subscribers: Set<LiveSubscription>;
}

export class LiveSeriesHub {
  private readonly watched = new Map<string, Watched>();
  private timer: NodeJS.Timeout | undefined;
  private polling = false;
  private closed = false;

  constructor(
    private readonly reader: SeriesReader,
    private readonly options: LiveSeriesHubOptions,
  ) {}

  /** Subscribes to a series: the first update (at the next poll) is the whole window, then only changes. */
  watch(spec: LiveSeriesSpec): AsyncIterableIterator<LiveUpdate> {
    const key = liveSeriesKey(spec);
    const subscription = new LiveSubscription(spec, (ended) => this.unwatch(key, ended));
    if (this.closed) {
      subscription.end();
      return subscription;
    }
    let watched = this.watched.get(key);
    if (!watched) {
      watched = { spec, subscribers: new Set() };
      this.watched.set(key, watched);
    }
    watched.subscribers.add(subscription);
    if (!this.timer) {
      this.timer = setInterval(() => void this.poll(), this.options.intervalMs);
      this.timer.unref();
      void this.poll();
    }
    return subscription;
  }

  /** Series currently watched (each polled once per interval, whatever its number of subscribers). */
  get watchedSeries(): number {
    return this.watched.size;
  }

  /** Polls every watched series once; exposed so tests can drive it without waiting for the timer. */
  async poll(): Promise<void> {
    if (this.polling || this.watched.size === 0) return;
    this.polling = true;
    try {
      const now = this.options.clock();
      const entries = [...this.watched.values()];
      for (let i = 0; i < entries.length; i += MAX_SERIES_PER_BATCH) {
        const chunk = entries.slice(i, i + MAX_SERIES_PER_BATCH);
        const results = await loadSeries(
          this.reader,
          chunk.map((entry) => liveWindowRequest(entry.spec, now)),
        );
        chunk.forEach((entry, j) => {
          const result = results[j];
          if (result instanceof Error || result === undefined) {
            this.options.logger.warn({ err: result }, 'live series poll failed; retrying at the next tick');
            return;
          }
          for (const subscriber of entry.subscribers) subscriber.offer(result);
        });
      }
    } catch (error) {
      this.options.logger.warn({ err: error }, 'live series poll failed; retrying at the next tick');
    } finally {
      this.polling = false;
    }
  }

  /** Ends every subscription and stops polling (app shutdown). */
  close(): void {
    this.closed = true;
    for (const watched of [...this.watched.values()]) {
      for (const subscriber of [...watched.subscribers]) subscriber.end();
    }
    this.stopTimer();
  }

  private unwatch(key: string, subscription: LiveSubscription): void {
    const watched = this.watched.get(key);
    if (!watched) return;
    watched.subscribers.delete(subscription);
    if (watched.subscribers.size > 0) return;
    this.watched.delete(key);
    if (this.watched.size === 0) this.stopTimer();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
