/** Section 8 of docs/benchmarks.md: bytes visitors and dimensions add to stored documents, and the bound on them. */
import type { BenchResults } from '../suite/BenchResults';
import { MAX_DOCUMENT_BYTES } from '../suite/audienceStorage';
import type { SketchGrowthRow } from '../suite/audienceStorage';
import { fmt, percent } from '../shared/stats';
import { table } from './markdownTable';

/** Issue 19's bounds on a page's daily document: growth at 10 visitors and at a million. */
const PAGE_DAY_TARGETS: Readonly<Record<number, number>> = { 10: 200, 1_000_000: 48 * 1024 };

function growth(pair: SketchGrowthRow['pageDay']): string {
  return `${fmt(pair.without)} → ${fmt(pair.with)} (+${fmt(pair.with - pair.without)})`;
}

export function renderAudienceStorage(results: BenchResults): string {
  const result = results.audienceStorage;
  if (!result) return '';
  const e = result.engine;
  const sketchRows = result.sketchGrowth.map((row) => {
    const target = PAGE_DAY_TARGETS[row.visitors];
    const added = row.pageDay.with - row.pageDay.without;
    return [
      fmt(row.visitors),
      growth(row.pageDay),
      growth(row.pageMonth),
      growth(row.siteDay),
      growth(row.siteMonth),
      target === undefined ? '—' : `≤ ${fmt(target)} added: ${added <= target ? 'met' : '**missed**'}`,
    ];
  });
  const siteDayRows = result.siteDays.map((row) => [
    fmt(row.hits),
    row.variant,
    fmt(row.documents),
    fmt(row.dailyBytes),
    fmt(row.siteTotalBytes),
    fmt(row.monthlyBytes),
    fmt(row.dailyBytes / row.hits),
  ]);
  const hostRows = result.referrerHosts.map((row) => [
    fmt(row.hosts),
    fmt(row.hits),
    `${fmt(row.maxValues)}${row.maxValues === result.maxValues ? ' (default)' : ' (highest allowed)'}`,
    fmt(row.sourceKeys),
    fmt(row.otherHits),
    fmt(row.documentBytes),
    `${fmt(row.dimensionBytes)} / ${fmt(row.dimensionVisitorBytes)}`,
    percent(row.documentBytes / MAX_DOCUMENT_BYTES),
  ]);
  const largest = result.referrerHosts.reduce((max, row) => Math.max(max, row.documentBytes), 0);
  return `## 8. Storage of visitors and dimensions (${e})

Documents built by the ingest path's own code (\`CounterBatch\`, with site totals and the default dimension settings:
\`DIMENSION_MAX_VALUES\`=${fmt(result.maxValues)}, \`DIMENSION_VISITORS\`=${result.dimensionVisitors.join(',')}), stored
as the document their flush's upsert creates (inserted: FerretDB takes seconds to apply a single upsert naming thousands
of new fields, which a live document never receives at once; for the first row of the first and of the last table the
benchmark also writes the upserts themselves and checks that the stored documents are equal), read back and weighed as BSON (what
MongoDB's \`Object.bsonsize\` reports; the same on every engine). Visitor hashes are splitmix64 values, the keyed hash's
stand-in: registers fill the same way.

**Visitor sketches: bytes of one page's documents without and with visitors** (${e}). One hit per visitor on one
day, at random minutes; the same hits with and without their visitor hash. Site documents keep a finer sketch (lower
error) than page documents, so they grow more.

${table([`visitors in the day (${e})`, 'page daily document', 'page monthly document', 'site daily document', 'site monthly document', 'issue 19 bound (page daily, bytes)'], sketchRows)}

**One site-day of realistic traffic** (${e}): 500 Zipf-popular pages, the audience of section 7 (repeat visitors, a
referrer mix, real User-Agents and addresses) with dimensions derived as the server derives them. "daily documents"
are the day's page documents and the site-total document; the monthly documents are those the same hits create.

${table([`hits in the day (${e})`, 'stored', 'daily documents', 'daily bytes (pages + site totals)', 'site-total daily document', 'monthly bytes', 'daily bytes per hit'], siteDayRows)}

**A site's day document by distinct referrer hosts** (${e}): every hit referred by one of N hosts (two hits each),
with visitors and every other dimension. A document admits at most \`DIMENSION_MAX_VALUES\` keys per dimension; later
values are counted under \`(other)\`, so the hits still add up. "d / dv" are the bytes of the dimension counters and of
the per-value visitor sketches inside the document.

${table([`distinct referrer hosts (${e})`, 'hits', 'DIMENSION_MAX_VALUES', 'source keys stored', 'hits under (other)', 'document bytes', 'd / dv bytes', 'of the 16 MB limit'], hostRows)}

The largest site day document here is ${fmt(largest)} bytes, ${percent(largest / MAX_DOCUMENT_BYTES)} of MongoDB's 16 MB
document limit. Configuration refuses a \`DIMENSION_MAX_VALUES\` whose worst case (every dimension at the cap with
its longest values, saturated per-value sketches) would pass 12 MB of dimension fields.
`;
}
