/** Builds the report's SVG charts from one run's results; file name → SVG text. */
import type { BenchResults } from './BenchResults';
import { QUERY_SPECS } from './queries';
import { barChart, lineChart } from './svg';
import type { Bar } from './svg';

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
    const groups = ['seed log_hit (driver)', 'raw events (driver)', 'tally over HTTP', 'tally, PREALLOCATE=true'];
    const bars: Bar[] = ingest.runs.map((run) => ({
      label: run.label.replace(' (PREALLOCATE=true)', ' [prealloc]'),
      value: run.hitsPerSecond,
      group: run.design === 'seed log_hit' ? 0 : run.design === 'raw events' ? 1 : run.preallocate ? 3 : 2,
      note: `${Math.round(run.hitsPerSecond).toLocaleString('en-US')} hits/s · ${run.writeCommandsPerHit.toFixed(3)} writes/hit`,
    }));
    charts.set(
      'ingest.svg',
      barChart({
        title: `Ingest throughput — ${engine}`,
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
    for (const spec of QUERY_SPECS) {
      const designs = ['tally GraphQL', 'tally store', 'raw events'] as const;
      const names = {
        'tally GraphQL': 'tally, GraphQL over HTTP',
        'tally store': 'tally documents, driver find',
        'raw events': `raw events (${queries.rawStrategy})`,
      };
      charts.set(
        `query-${spec.kind}.svg`,
        lineChart({
          title: `${spec.label}: p50 latency — ${engine}`,
          subtitle: 'same hits in both designs; x = hits stored (raw events), log-log',
          xLabel: 'hits stored',
          yLabel: 'p50 latency (ms)',
          logX: true,
          logY: true,
          series: designs.map((design) => ({
            name: names[design],
            points: queries.cells
              .filter((c) => c.kind === spec.kind && c.design === design)
              .map((c) => ({ x: c.dataSize, y: c.latencyMs.p50 })),
          })),
        }),
      );
    }
  }
  const storage = results.storage;
  if (storage) {
    charts.set(
      'storage.svg',
      lineChart({
        title: 'Bytes per page-day (BSON)',
        subtitle: 'daily document + 1/30 of the monthly one, versus one raw event per hit; engine-independent model',
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
