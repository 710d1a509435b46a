/** The final report of an import, as text for people or JSON for scripts (`--json`). */
import type { LogFilter } from '../accesslog/LogLineClassifier';
import type { ImportStats, LineSample } from '../logimport/ImportStats';
import type { ImportEnd, InputFailure } from '../logimport/runImport';
import { formatCount } from './ImportProgress';

export interface ImportSummary {
  readonly outcome: 'complete' | 'partial';
  readonly end: ImportEnd;
  readonly target: string;
  readonly dryRun: boolean;
  readonly files: number;
  readonly linesRead: number;
  readonly hitsParsed: number;
  readonly hitsImported: number;
  readonly batchesSent: number;
  readonly batchesFailed: number;
  readonly filtered: Readonly<Record<LogFilter, number>>;
  readonly unparseable: number;
  readonly invalid: number;
  readonly pages: number;
  readonly pagesAtLeast: boolean;
  readonly sites: readonly string[];
  readonly from: string | null;
  readonly to: string | null;
  readonly elapsedMs: number;
  readonly linesPerSecond: number;
  readonly unparseableSamples: readonly LineSample[];
  readonly invalidSamples: readonly LineSample[];
  readonly failures: readonly string[];
  readonly readErrors: readonly InputFailure[];
  /** Why the import stopped before the end, when it did. */
  readonly stoppedBecause: string | undefined;
}

export function buildImportSummary(input: {
  stats: ImportStats;
  end: ImportEnd;
  readErrors: readonly InputFailure[];
  target: string;
  dryRun: boolean;
  files: number;
  elapsedMs: number;
  stoppedBecause: string | undefined;
}): ImportSummary {
  const { stats } = input;
  // Input where no line matches is a wrong --format, not a success.
  const nothingParsed = stats.linesRead > 0 && stats.unparseable === stats.linesRead;
  const partial = input.end !== 'complete' || stats.batchesFailed > 0 || input.readErrors.length > 0 || nothingParsed;
  return {
    outcome: partial ? 'partial' : 'complete',
    end: input.end,
    target: input.target,
    dryRun: input.dryRun,
    files: input.files,
    linesRead: stats.linesRead,
    hitsParsed: stats.hitsParsed,
    hitsImported: stats.hitsImported,
    batchesSent: stats.batchesSent,
    batchesFailed: stats.batchesFailed,
    filtered: { ...stats.filtered },
    unparseable: stats.unparseable,
    invalid: stats.invalid,
    pages: stats.pageCount,
    pagesAtLeast: stats.pagesCapped,
    sites: stats.siteNames,
    from: stats.earliest === undefined ? null : new Date(stats.earliest).toISOString(),
    to: stats.latest === undefined ? null : new Date(stats.latest).toISOString(),
    elapsedMs: input.elapsedMs,
    linesPerSecond: input.elapsedMs > 0 ? Math.round((stats.linesRead * 1000) / input.elapsedMs) : 0,
    unparseableSamples: stats.unparseableSamples,
    invalidSamples: stats.invalidSamples,
    failures: stats.failures.slice(0, 20),
    readErrors: input.readErrors,
    stoppedBecause: input.stoppedBecause,
  };
}

export function formatImportSummary(summary: ImportSummary): string {
  const lines: string[] = [];
  const head =
    summary.end === 'interrupted'
      ? 'interrupted'
      : summary.end === 'aborted'
        ? 'stopped'
        : summary.outcome === 'complete'
          ? 'done'
          : 'done with errors';
  lines.push(`tally import ${head}${summary.dryRun ? ' (dry run: nothing was sent)' : ''}`);
  lines.push(
    `  lines read    ${formatCount(summary.linesRead)} from ${summary.files} ${summary.files === 1 ? 'input' : 'inputs'} ` +
      `in ${(summary.elapsedMs / 1000).toFixed(1)} s (${formatCount(summary.linesPerSecond)} lines/s)`,
  );
  if (summary.dryRun) lines.push(`  hits parsed   ${formatCount(summary.hitsParsed)}`);
  else {
    lines.push(
      `  hits imported ${formatCount(summary.hitsImported)} of ${formatCount(summary.hitsParsed)} into ${summary.target}`,
    );
  }
  const f = summary.filtered;
  lines.push(
    `  filtered      ${formatCount(f.status)} by status, ${formatCount(f.method)} by method, ` +
      `${formatCount(f.asset)} static assets, ${formatCount(f.bot)} bots`,
  );
  lines.push(`  unparseable   ${formatCount(summary.unparseable)}`);
  lines.push(`  invalid       ${formatCount(summary.invalid)} (pages or sites tally refuses)`);
  const shownSites = summary.sites.slice(0, 5).join(', ') + (summary.sites.length > 5 ? ', …' : '');
  lines.push(
    `  pages         ${summary.pagesAtLeast ? 'at least ' : ''}${formatCount(summary.pages)} on ` +
      `${summary.sites.length} ${summary.sites.length === 1 ? 'site' : 'sites'}${shownSites ? ` (${shownSites})` : ''}`,
  );
  lines.push(`  time span     ${summary.from === null ? 'none' : `${summary.from} to ${summary.to}`}`);
  samples(lines, 'unparseable lines', summary.unparseable, summary.unparseableSamples);
  samples(lines, 'invalid lines', summary.invalid, summary.invalidSamples);
  for (const error of summary.readErrors) lines.push(`cannot read ${error.input}: ${error.message}`);
  if (summary.failures.length > 0) {
    lines.push(`${formatCount(summary.batchesFailed)} ${summary.batchesFailed === 1 ? 'batch' : 'batches'} failed:`);
    for (const failure of summary.failures) lines.push(`  ${failure}`);
  }
  if (summary.linesRead > 0 && summary.unparseable === summary.linesRead) {
    lines.push('No line matched the log format: check --format (combined, common or your nginx log_format).');
  }
  if (summary.stoppedBecause !== undefined) lines.push(`stopped: ${summary.stoppedBecause}`);
  if (summary.outcome === 'partial' && !summary.dryRun && summary.unparseable < summary.linesRead) {
    lines.push('Run the same command again to finish: batches already imported are recognised and not counted twice.');
  }
  return `${lines.join('\n')}\n`;
}

function samples(lines: string[], title: string, count: number, shown: readonly LineSample[]): void {
  if (shown.length === 0) return;
  lines.push(`${title}${count > shown.length ? ` (first ${shown.length} of ${formatCount(count)})` : ''}:`);
  for (const sample of shown) lines.push(`  ${sample.file}:${sample.line}: ${sample.reason}: ${sample.text}`);
}
