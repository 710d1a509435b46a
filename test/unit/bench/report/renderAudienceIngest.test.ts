/** Section 7 of the report: every variant engine-labelled, and each ratio judged against its issue's target. */
import { renderAudienceIngest } from '../../../../bench/report/renderAudienceIngest';
import type { AudienceIngestRun, AudienceVariantKey } from '../../../../bench/suite/audienceIngest';
import { AUDIENCE_VARIANTS, INGEST_AUDIENCE, TRAFFIC_SHAPES } from '../../../../bench/suite/audienceIngest';
import type { BenchResults } from '../../../../bench/suite/BenchResults';

const ENGINE = 'FerretDB 1.24.2 patched';

function run(shape: 'realistic' | 'narrow', variant: AudienceVariantKey, hitsPerSecond: number): AudienceIngestRun {
  return {
    shape,
    variant,
    label: variant,
    engine: ENGINE,
    dimensionsEnabled: variant !== 'off' && variant !== 'visitors',
    hits: 4_000,
    requests: 4,
    errors: 0,
    elapsedMs: (4_000 / hitsPerSecond) * 1000,
    hitsPerSecond,
    roundHitsPerSecond: [hitsPerSecond],
    writeCommands: 12,
    writeCommandsPerHit: 0.003,
    commands: { update: 12 },
    requestLatencyMs: { n: 4, p50: 200, p95: 250, p99: 250, mean: 210 },
    serverCpuUsPerHit: 50,
    databaseCpuUsPerHit: 300,
    clientCpuUsPerHit: 2,
  };
}

function results(rates: Record<AudienceVariantKey, number>): BenchResults {
  return {
    formatVersion: 2,
    mode: 'quick',
    startedAt: '2026-11-24T12:00:00.000Z',
    durationMs: 1,
    engine: {
      name: 'FerretDB',
      version: '1.24.2',
      compatibleWith: '7.0.42',
      label: ENGINE,
      description: ENGINE,
      embedded: true,
    },
    machine: { cpus: 2, cpuModel: 'test', node: 'v20', platform: 'linux' },
    server: 'child',
    command: 'npm run bench -- --quick',
    failures: [],
    audienceIngest: {
      engine: ENGINE,
      batch: 1000,
      rounds: 4,
      batchesPerRound: 1,
      audience: INGEST_AUDIENCE,
      shapes: TRAFFIC_SHAPES,
      runs: TRAFFIC_SHAPES.flatMap(({ key }) =>
        AUDIENCE_VARIANTS.map((variant) => run(key, variant.key, rates[variant.key])),
      ),
    },
  };
}

describe('renderAudienceIngest', () => {
  it('labels the section and every table with the engine', () => {
    const text = renderAudienceIngest(
      results({ off: 1000, visitors: 800, dimensions: 700, all: 500, allWithoutValueVisitors: 600 }),
    );
    expect(text).toContain(`## 7. Ingest with visitors and dimensions (${ENGINE})`);
    expect(text).toContain(`| variant (${ENGINE}) |`);
    expect(text).toContain(`| ratio (${ENGINE}) | realistic traffic | narrow traffic | target |`);
  });

  it.each([
    [800, 700, '| with visitors ÷ without | 0.8× (met) | 0.8× (met) | ≥ 0.7× (issue 19) |'],
    [650, 700, '| with visitors ÷ without | 0.65× (**missed**) | 0.65× (**missed**) | ≥ 0.7× (issue 19) |'],
    [800, 550, '| with every dimension ÷ without | 0.55× (**missed**) | 0.55× (**missed**) | ≥ 0.6× (issue 20) |'],
    [800, 600, '| with every dimension ÷ without | 0.6× (met) | 0.6× (met) | ≥ 0.6× (issue 20) |'],
  ])('judges visitors at %d and dimensions at %d hits/s against 1,000 without', (visitors, dimensions, line) => {
    const text = renderAudienceIngest(
      results({ off: 1000, visitors, dimensions, all: 400, allWithoutValueVisitors: 500 }),
    );
    expect(text).toContain(line);
  });

  it('renders nothing when the section did not run', () => {
    const { audienceIngest: _skipped, ...rest } = results({
      off: 1,
      visitors: 1,
      dimensions: 1,
      all: 1,
      allWithoutValueVisitors: 1,
    });
    expect(renderAudienceIngest(rest)).toBe('');
  });
});
