/**
 * What a parsed GraphQL document costs in heap, against the sizes a cache could weigh it by: its JSON (Apollo's
 * default `documentStore` weighs entries so), its source text, its tokens. For each document shape tally's clients
 * send (dashboards with inlined literals and with variables, single hits, a batch literal), it parses `--copies`
 * distinct variants (as inlined timestamps make them), keeps them, and reads the heap after a full GC. Prints bytes
 * per document and the heap/JSON ratio the document cache (src/server/DocumentCache.ts) is sized by; no thresholds.
 *   npm run build && node --expose-gc dist/bench/probes/soakDocumentCost.js [--copies 400]
 */
import { parse } from 'graphql';
import type { DocumentNode, Token } from 'graphql';
import { parseOptions } from '../shared/options';

const options = parseOptions(process.argv.slice(2), { copies: { kind: 'integer', default: 400 } });
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const iso = (i: number): string => new Date(Date.UTC(2026, 0, 1) + i * 1_000).toISOString();

/** The shapes, each a function of a variant number that changes an inlined literal (or nothing). */
const SHAPES: ReadonlyArray<{ readonly name: string; readonly source: (i: number) => string }> = [
  {
    name: '10-series dashboard, inlined range',
    source: (i) =>
      `query Dashboard { ${Array.from(
        { length: 10 },
        (_, s) =>
          `s${s}: pageStats(site: "soak.example", page: "/articles/${s}.html", range: { from: "${iso(i)}", to: "${iso(i + 3_600)}" }, granularity: MINUTE) { total points { t hits } }`,
      ).join(' ')} }`,
  },
  {
    name: '10-series dashboard, variables',
    source: (i) =>
      `query Dashboard${i}($from: DateTime!, $to: DateTime!) { ${Array.from(
        { length: 10 },
        (_, s) =>
          `s${s}: pageStats(site: "soak.example", page: "/articles/${s}.html", range: { from: $from, to: $to }, granularity: MINUTE) { total points { t hits } }`,
      ).join(' ')} }`,
  },
  {
    name: '20-series dashboard, inlined range',
    source: (i) =>
      `{ ${Array.from(
        { length: 20 },
        (_, s) =>
          `s${s}: pageStats(site: "soak.example", page: "/p/${s}", range: { from: "${iso(i)}", to: "${iso(i + 86_400)}" }, granularity: HOUR) { total values }`,
      ).join('\n')} }`,
  },
  {
    name: 'recordHit, inlined',
    source: (i) => `mutation { recordHit(site: "soak.example", page: "/articles/${i}.html") { count } }`,
  },
  {
    name: 'recordHits of 100, inlined',
    source: (i) =>
      `mutation { recordHits(hits: [${Array.from(
        { length: 100 },
        (_, h) => `{ site: "soak.example", page: "/p/${h}", at: "${iso(i + h)}" }`,
      ).join(', ')}]) { total } }`,
  },
];

function tokens(document: DocumentNode): number {
  let count = 0;
  for (let token: Token | null | undefined = document.loc?.startToken; token; token = token.next) count += 1;
  return count;
}

function heapAfterGc(): number {
  gc?.();
  gc?.();
  return process.memoryUsage().heapUsed;
}

const rows: string[] = [];
for (const shape of SHAPES) {
  const before = heapAfterGc();
  // Each document keeps its source text (loc.source), as a cached one does: both are counted.
  const kept = Array.from({ length: options.copies }, (_, i) => parse(shape.source(i), { maxTokens: 15_000 }));
  const after = heapAfterGc();
  const heap = (after - before) / kept.length;
  const sample = kept[0] as DocumentNode;
  const json = Buffer.byteLength(JSON.stringify(sample));
  const source = Buffer.byteLength(shape.source(0));
  const n = tokens(sample);
  rows.push(
    [
      shape.name.padEnd(36),
      String(n).padStart(6),
      String(source).padStart(8),
      String(json).padStart(8),
      String(Math.round(heap)).padStart(9),
      (heap / n).toFixed(0).padStart(8),
      (heap / json).toFixed(2).padStart(10),
      (heap / source).toFixed(1).padStart(12),
    ].join(' '),
  );
  kept.length = 0;
}
process.stdout.write(
  `${['document'.padEnd(36), 'tokens', '  source', '    JSON', '     heap', 'heap/tok', 'heap/JSON', 'heap/source'].join(' ')}\n`,
);
process.stdout.write(`${rows.join('\n')}\n`);
process.stdout.write(
  `(bytes per parsed document, ${options.copies} distinct copies kept, heap after a full GC; Node ${process.version})\n`,
);
