/** The soak report's charts (bench/report/svg.ts): latency, memory and event-loop delay per sample. */
import { lineChart } from '../report/svg';
import type { SoakResult } from './runSoak';

export function soakCharts(result: SoakResult, engine: string): Array<[string, string]> {
  const at = (pick: (s: SoakResult['samples'][number]) => number) =>
    result.samples.map((s) => ({ x: s.minute, y: pick(s) }));
  const subtitle = `${engine}, ${result.soakRate} recordHit/s`;
  return [
    [
      'soak-latency.svg',
      lineChart({
        title: 'recordHit latency per sample',
        subtitle,
        xLabel: 'minutes',
        yLabel: 'ms (log)',
        logY: true,
        series: [
          { name: 'p50', points: at((s) => s.hits.p50) },
          { name: 'p99', points: at((s) => s.hits.p99) },
          { name: 'p99.9', points: at((s) => s.hits.p999) },
          { name: 'max', points: at((s) => s.hits.max), dashed: true },
          { name: 'dashboard p99', points: at((s) => s.dashboards.p99), dashed: true },
        ],
      }),
    ],
    [
      'soak-memory.svg',
      lineChart({
        title: 'Server memory per sample',
        subtitle,
        xLabel: 'minutes',
        yLabel: 'MB',
        series: [
          { name: 'heap after a full GC', points: at((s) => s.heapAfterGcMb) },
          { name: 'RSS', points: at((s) => s.rssMb) },
          { name: 'document cache (estimated)', points: at((s) => s.documentCacheMb), dashed: true },
        ],
      }),
    ],
    [
      'soak-event-loop.svg',
      lineChart({
        title: 'Server event-loop delay per sample',
        subtitle,
        xLabel: 'minutes',
        yLabel: 'ms',
        series: [
          { name: 'p99', points: at((s) => s.eventLoopP99Ms) },
          { name: 'max', points: at((s) => s.eventLoopMaxMs), dashed: true },
        ],
      }),
    ],
  ];
}
