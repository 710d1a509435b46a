/** Builds the report's SVG charts from one run's results; file name → SVG text. */
import type { BenchResults } from '../suite/BenchResults';
import { QUERY_SPECS } from '../suite/queries';
import type { DataSetStats, QueryCell, QueryDesign } from '../suite/queries';
import { tallyStorage } from '../suite/queryFixtures';
import { barChart, lineChart } from './svg';
import type { Bar, LineSeries } from './svg';

function point(cell: QueryCell, y: number): { x: number; y: number } {
  return { x: cell.dataSize, y };
}

/** "stock" of "FerretDB 1.24.2 stock": short bar labels for the compared engine. */
function buildOf(label: string): string {
  return label.split(' ').pop() ?? label;
}

export function buildCharts(results: BenchResults): Map<string, string> {
  const engine = results.engine.label;
  const charts = new Map<string, string>();
  const growth = results.schemaGrowth;
  if (growth) {
    const hours = 24 * growth.sizes.days;
    charts.set(
      'schema-growth.svg',
      lineChart({
        title: `Writes per second through the simulated day — ${engine}`,
        subtitle: `one upsert per hit, one in flight; ${growth.sizes.measures} document(s) per day, a write every ${growth.sizes.minuteStride} simulated minute(s)`,
        xLabel: 'simulated time of day (hours)',
        yLabel: 'writes/s',
        series: growth.variants.map((v) => ({
          name: v.label,
          points: v.timeline.map((p) => ({ x: p.simulatedHour + 0.5, y: p.writesPerSecond })),
        })),
        xTicks: Array.from({ length: hours / 3 + 1 }, (_, i) => i * 3),
      }),
    );
  }
  const ingest = results.ingest;
  if (ingest) {
    const other = ingest.engines.comparison;
    const groups = ['seed log_hit (driver)', 'raw events (driver)', 'tally over HTTP', 'tally, PREALLOCATE=true'];
    if (other !== undefined) groups.push(`any variant on ${other}`);
    const bars: Bar[] = ingest.runs.map((run) => ({
      label: `${run.label.replace(' (PREALLOCATE=true)', ' [prealloc]')}${run.target === 'comparison' ? ` [${buildOf(run.engine)}]` : ''}`,
      value: run.hitsPerSecond,
      group:
        run.target === 'comparison'
          ? 4
          : run.design === 'seed log_hit'
            ? 0
            : run.design === 'raw events'
              ? 1
              : run.preallocate
                ? 3
                : 2,
      note: `${Math.round(run.hitsPerSecond).toLocaleString('en-US')} hits/s · ${run.writeCommandsPerHit.toFixed(3)} writes/hit${run.serverCpuUsPerHit === undefined ? '' : ` · ${Math.round(run.serverCpuUsPerHit)} µs/hit`}`,
    }));
    charts.set(
      'ingest.svg',
      barChart({
        title: `Ingest throughput — ${other === undefined ? engine : `${engine} vs ${other}`}`,
        subtitle: `${ingest.pages} pages, Zipf popularity, hits spread over 24 h; load generator and server in separate processes`,
        valueLabel: 'hits per second (log scale)',
        bars,
        groups,
        logScale: true,
      }),
    );
  }
  const queries = results.queries;
  if (queries) {
    const designs = ['tally GraphQL', 'tally store', 'raw events'] as const;
    const names = {
      'tally GraphQL': 'tally, GraphQL over HTTP',
      'tally store': 'tally store read, driver',
      'raw events': `raw events (${queries.rawStrategy})`,
    };
    for (const spec of QUERY_SPECS) {
      const cellsOf = (design: QueryDesign): QueryCell[] =>
        queries.cells.filter((c) => c.kind === spec.kind && c.design === design);
      charts.set(
        `query-${spec.kind}.svg`,
        lineChart({
          title: `${spec.label}: latency — ${engine}`,
          subtitle: 'same hits in both designs; solid p50, dashed p95; log-log',
          xLabel: 'hits stored',
          yLabel: 'latency (ms)',
          logX: true,
          logY: true,
          series: designs.flatMap((design, i) => [
            { name: `${names[design]} p50`, colour: i, points: cellsOf(design).map((c) => point(c, c.latencyMs.p50)) },
            {
              name: `${names[design]} p95`,
              colour: i,
              dashed: true,
              points: cellsOf(design).map((c) => point(c, c.latencyMs.p95)),
            },
          ]),
        }),
      );
    }
    const read = (design: QueryDesign, value: (c: QueryCell) => number | undefined): LineSeries[] =>
      QUERY_SPECS.map((spec, i) => ({
        name: `${design === 'raw events' ? 'raw' : 'tally'}: ${spec.label}`,
        colour: i,
        dashed: design !== 'raw events',
        points: queries.cells
          .filter((c) => c.kind === spec.kind && c.design === design)
          .map((c) => point(c, value(c) ?? Number.NaN)),
      }));
    charts.set(
      'query-documents.svg',
      lineChart({
        title: `Documents examined per query — ${engine}`,
        subtitle: 'documents the database read to answer (explain); solid raw events, dashed tally store read; log-log',
        xLabel: 'hits stored',
        yLabel: 'documents per query',
        logX: true,
        logY: true,
        series: [...read('raw events', (c) => c.documentsExamined), ...read('tally store', (c) => c.documentsExamined)],
      }),
    );
    charts.set(
      'query-bytes.svg',
      lineChart({
        title: `Bytes returned per query — ${engine}`,
        subtitle: 'BSON reply bytes from the database; solid raw events, dashed tally store read; log-log',
        xLabel: 'hits stored',
        yLabel: 'bytes per query',
        logX: true,
        logY: true,
        series: [...read('raw events', (c) => c.bytesReturned), ...read('tally store', (c) => c.bytesReturned)],
      }),
    );
    const sized = (value: (d: DataSetStats) => number | undefined): LineSeries['points'] =>
      queries.dataSets.map((d) => ({ x: d.dataSize, y: value(d) ?? Number.NaN }));
    charts.set(
      'storage-scale.svg',
      lineChart({
        title: `Storage by hits stored — ${engine}`,
        subtitle: `collStats of the query data set at each size${results.engine.name === 'FerretDB' ? ' (SQLite pages of JSON, not BSON)' : ''}; log-log`,
        xLabel: 'hits stored',
        yLabel: 'bytes',
        logX: true,
        logY: true,
        series: [
          { name: 'raw events: data', colour: 1, points: sized((d) => d.storage.raw?.size) },
          { name: 'raw events: indexes', colour: 1, dashed: true, points: sized((d) => d.storage.raw?.totalIndexSize) },
          { name: 'tally: data', colour: 0, points: sized((d) => tallyStorage(d)?.size) },
          { name: 'tally: indexes', colour: 0, dashed: true, points: sized((d) => tallyStorage(d)?.index) },
        ],
      }),
    );
  }
  const storage = results.storage;
  if (storage) {
    charts.set(
      'storage.svg',
      lineChart({
        title: 'Bytes per page-day (BSON model, any engine)',
        subtitle:
          'daily document + 1/30 of the monthly one, versus one raw event per hit; BSON sizes, not engine storage',
        xLabel: 'hits per page per day',
        yLabel: 'bytes per page-day',
        logX: true,
        logY: true,
        series: [
          { name: 'sparse documents', points: storage.rows.map((r) => ({ x: r.hitsPerPageDay, y: r.sparseBytes })) },
          {
            name: 'pre-allocated documents',
            points: storage.rows.map((r) => ({ x: r.hitsPerPageDay, y: r.preallocatedBytes })),
          },
          { name: 'raw events', points: storage.rows.map((r) => ({ x: r.hitsPerPageDay, y: r.rawEventBytes })) },
        ],
      }),
    );
  }
  return charts;
}
