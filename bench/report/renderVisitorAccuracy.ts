/**
 * Section 10 of docs/benchmarks.md: visitor estimates against the true count, by cardinality: sketch streams in
 * process, known visitors sent through the server, and section 9's stored data.
 */
import type { BenchResults } from '../suite/BenchResults';
import type { ServerAccuracyRow } from '../suite/visitorAccuracy';
import { fmt, percent } from '../shared/stats';
import type { EstimateErrors } from '../shared/estimateErrors';
import { table } from './markdownTable';

function signedPercent(estimate: number | null, truth: number): string {
  if (estimate === null || truth === 0) return 'n/a';
  const error = (estimate - truth) / truth;
  return `${error >= 0 ? '+' : ''}${percent(error)}`;
}

function errorCells(errors: EstimateErrors): string[] {
  return [
    percent(errors.medianRelativeError),
    percent(errors.p95RelativeError),
    percent(errors.maxRelativeError),
    percent(errors.meanRelativeBias),
    percent(errors.withinOne),
  ];
}

function serverRow(row: ServerAccuracyRow): string[] {
  return [
    row.page,
    fmt(row.range.truth),
    fmt(row.range.estimate ?? Number.NaN),
    signedPercent(row.range.estimate, row.range.truth),
    row.days.map((day) => `${fmt(day.estimate ?? Number.NaN)} / ${fmt(day.truth)}`).join(', '),
  ];
}

export function renderVisitorAccuracy(results: BenchResults): string {
  const result = results.visitorAccuracy;
  const stored = results.audienceQueries;
  if (!result && !stored) return '';
  const e = result?.engine ?? stored?.engine ?? results.engine.label;
  const parts: string[] = [`## 10. Visitor accuracy: estimates against the true count (${e})`];
  if (result) {
    const levels = ['page', 'site', 'minute'];
    const ordered = [...result.sketches].sort(
      (a, b) => levels.indexOf(a.level) - levels.indexOf(b.level) || a.visitors - b.visitors,
    );
    const sketchRows = ordered.map((row) => [
      `${row.level} (p=${row.precision}, SE ${percent(row.standardError)})`,
      fmt(row.visitors),
      fmt(row.streams),
      ...errorCells(row.errors).slice(0, 3),
      fmt(row.errors.maxRelativeError / row.standardError),
      percent(row.errors.meanRelativeBias),
      row.visitors <= 1_000 ? percent(row.errors.withinOne) : '—',
    ]);
    parts.push(`**The sketch alone, in process** (independent of the engine): streams of distinct visitors (splitmix64
hashes) into the sketch at each level's precision — page documents, site documents, and the minute documents (also
used per dimension value) — read at each cardinality, as \`node dist/bench/probes/sketchAccuracy.js\` does at more
streams. "SE" is the relative standard error the precision promises at large counts; issue 19 asks for every estimate
within 3 SE, and within ±1 visitor up to 100.

${table(['level', 'true visitors', 'streams', 'median error', 'p95 error', 'worst error', 'worst / SE', 'mean bias', 'within ±1 visitor'], sketchRows)}`);
    parts.push(`**Through the server** (${e}): for each cardinality n, n visitor ids sent with \`recordHitColumns\` to one page
(the server keys and hashes them, as in production) over the three UTC days before today — visitor i on day i mod 3, every
fourth one again the next day — then read back as \`pageStats\` and \`siteStats\` over the three days by DAY. The site's
visitors are every page's (the ids are distinct across pages). "per day" lists estimate / truth for each day.

${table([`page (${e})`, 'true visitors, 3 days', 'estimate', 'error', 'per day: estimate / truth'], [...result.server, result.site].map(serverRow))}`);
  }
  if (stored && stored.accuracy.length > 0) {
    const rows = stored.accuracy.map((row) => [
      row.level,
      `${fmt(row.errors.pairs)}${row.errors.missing ? ` (${row.errors.missing} null)` : ''}`,
      `${fmt(row.errors.truthMin)}–${fmt(row.errors.truthMax)}`,
      ...errorCells(row.errors),
    ]);
    parts.push(`**On section 9's stored data** (${e}): the dashboard's 20 pages and the site totals of the first site, over the
${stored.days} days (\`visitors\`) and per day (\`points { visitors }\`), against the distinct visitors the load counted.

${table([`figure (${e})`, 'estimates', 'true visitors, min–max', 'median error', 'p95 error', 'worst error', 'mean bias', 'within ±1 visitor'], rows)}`);
  }
  return `${parts.join('\n\n')}\n`;
}
