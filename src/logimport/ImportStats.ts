/** What an import has done so far: the numbers behind the progress line and the final summary. */
import type { LogFilter, LineOutcome } from '../accesslog/LogLineClassifier';

export interface LineSample {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  /** The line's first characters, control characters escaped. */
  readonly text: string;
}

const SAMPLE_LIMIT = 5;
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;
/** Distinct pages are counted exactly up to here, then reported as "at least". */
export const DISTINCT_PAGE_LIMIT = 1_000_000;

export class ImportStats {
  linesRead = 0;
  /** Compressed bytes for .gz files: what the progress bar's ETA is measured in. */
  bytesRead = 0;
  /** Lines that became hits (before submission). */
  hitsParsed = 0;
  /** Hits the target acknowledged (sum of counts). */
  hitsImported = 0;
  batchesSent = 0;
  batchesFailed = 0;
  unparseable = 0;
  invalid = 0;
  readonly filtered: Record<LogFilter, number> = { status: 0, method: 0, asset: 0, bot: 0 };
  readonly unparseableSamples: LineSample[] = [];
  readonly invalidSamples: LineSample[] = [];
  readonly failures: string[] = [];
  earliest: number | undefined;
  latest: number | undefined;
  private readonly pages = new Set<string>();
  private readonly sites = new Set<string>();
  pagesCapped = false;

  note(outcome: LineOutcome, file: string, line: number, text: string): void {
    switch (outcome.kind) {
      case 'hit':
        this.noteHit(outcome.hit);
        return;
      case 'filtered':
        this.filtered[outcome.filter] += 1;
        return;
      case 'unparseable':
        this.unparseable += 1;
        sample(this.unparseableSamples, file, line, outcome.reason, text);
        return;
      case 'invalid':
        this.invalid += 1;
        sample(this.invalidSamples, file, line, outcome.reason, text);
        return;
    }
  }

  noteHit(hit: { readonly site: string; readonly page: string; readonly at: number }): void {
    this.hitsParsed += 1;
    if (this.earliest === undefined || hit.at < this.earliest) this.earliest = hit.at;
    if (this.latest === undefined || hit.at > this.latest) this.latest = hit.at;
    this.sites.add(hit.site);
    if (this.pages.size < DISTINCT_PAGE_LIMIT) this.pages.add(`${hit.site}\n${hit.page}`);
    else if (!this.pages.has(`${hit.site}\n${hit.page}`)) this.pagesCapped = true;
  }

  get pageCount(): number {
    return this.pages.size;
  }

  get siteCount(): number {
    return this.sites.size;
  }

  get siteNames(): string[] {
    return [...this.sites].sort();
  }
}

function sample(samples: LineSample[], file: string, line: number, reason: string, text: string): void {
  if (samples.length >= SAMPLE_LIMIT) return;
  const head = text.length > 120 ? `${text.slice(0, 120)}… (${text.length} characters)` : text;
  const escaped = head.replace(CONTROL, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  samples.push({ file, line, reason, text: escaped });
}
