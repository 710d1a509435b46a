/**
 * The dashboard served at /dashboard: a site's pages over a range, charted with uPlot, kept live through
 * `pageStatsLive`. It uses only the public GraphQL API (one query per view, one subscription per page),
 * like any frontend would. State lives in the URL (?site=&pages=&range=&granularity=), the key in memory.
 */
import uPlot from 'uplot';
import { postGraphQL, wsClient } from '../shared/graphqlTransport';
import { LiveCounts, bucketIndex } from './liveBuckets';
import type { LivePoint } from './liveBuckets';
import { RANGES, findRange, pickGranularity, rangeAt } from './ranges';
import type { Granularity } from './ranges';
import { LIVE_SUBSCRIPTION, seriesQuery, seriesVariables } from './seriesQuery';
import type { SeriesResult } from './seriesQuery';
import './dashboard.css';

const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4d7c0f', '#be185d'];
const MAX_PAGES = COLORS.length;

interface View {
  site: string;
  pages: string[];
  rangeId: string;
  granularity: Granularity;
}

interface Chart {
  view: View;
  starts: number[];
  end: number;
  counts: number[][];
  plot: uPlot;
}

const form = document.getElementById('controls') as HTMLFormElement;
const field = (name: string): HTMLInputElement & HTMLSelectElement =>
  form.elements.namedItem(name) as HTMLInputElement & HTMLSelectElement;
const status = document.getElementById('status') as HTMLElement;
const chartBox = document.getElementById('chart') as HTMLElement;
const totalsBody = document.querySelector('#totals tbody') as HTMLElement;
const grandTotal = document.getElementById('grand-total') as HTMLElement;

let chart: Chart | undefined;
let unsubscribers: (() => void)[] = [];
let generation = 0;
let reloading = false;

function setStatus(text: string, state: 'loading' | 'live' | 'error' | 'ready'): void {
  status.textContent = text;
  status.dataset.state = state;
}

function describeErrors(errors: readonly { message: string; extensions?: Record<string, unknown> }[] | undefined) {
  return errors
    ?.map((e) => (typeof e.extensions?.code === 'string' ? `${e.message} (${e.extensions.code})` : e.message))
    .join('; ');
}

function authorization(): string | undefined {
  const key = field('key').value.trim();
  return key ? `Bearer ${key}` : undefined;
}

function readView(params: URLSearchParams): View {
  const range = findRange(params.get('range'));
  const pages = (params.get('pages') ?? '/')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return {
    site: params.get('site') ?? 'example.com',
    pages: (pages.length > 0 ? pages : ['/']).slice(0, MAX_PAGES),
    rangeId: range.id,
    granularity: pickGranularity(range, params.get('granularity')),
  };
}

function fillControls(view: View): void {
  field('site').value = view.site;
  field('pages').value = view.pages.join(', ');
  const rangeSelect = field('range');
  rangeSelect.replaceChildren(...RANGES.map((r) => new Option(r.label, r.id, false, r.id === view.rangeId)));
  const granularitySelect = field('granularity');
  granularitySelect.replaceChildren(
    ...findRange(view.rangeId).granularities.map((g) => new Option(g.toLowerCase(), g, false, g === view.granularity)),
  );
}

function viewFromControls(): View {
  const params = new URLSearchParams({
    site: field('site').value.trim(),
    pages: field('pages').value,
    range: field('range').value,
    granularity: field('granularity').value,
  });
  return readView(params);
}

function showTotals(view: View, counts: number[][]): void {
  const totals = counts.map((series) => series.reduce((a, b) => a + b, 0));
  totalsBody.replaceChildren(
    ...view.pages.map((page, i) => {
      const row = document.createElement('tr');
      row.dataset.page = page;
      const name = document.createElement('td');
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = COLORS[i]!;
      name.append(swatch, page);
      const total = document.createElement('td');
      total.className = 'total';
      total.textContent = String(totals[i]);
      row.append(name, total);
      return row;
    }),
  );
  grandTotal.textContent = String(totals.reduce((a, b) => a + b, 0));
}

function draw(view: View, starts: number[], end: number, counts: number[][]): Chart {
  chart?.plot.destroy();
  const granularity = view.granularity;
  const plot = new uPlot(
    {
      width: Math.min(1100, Math.max(480, window.innerWidth - 40)),
      height: 320,
      series: [
        {},
        ...view.pages.map((page, i) => ({
          label: page,
          stroke: COLORS[i],
          width: 2,
          fill: view.pages.length === 1 ? `${COLORS[i]}22` : undefined,
          points: { show: starts.length <= 40 },
          paths: granularity === 'SECOND' || granularity === 'MINUTE' ? undefined : uPlot.paths.stepped?.({ align: 1 }),
        })),
      ],
      axes: [{}, { label: `hits per ${granularity.toLowerCase()}` }],
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    },
    [starts.map((t) => t / 1000), ...counts],
    chartBox,
  );
  showTotals(view, counts);
  return { view, starts, end, counts, plot };
}

async function load(view: View): Promise<void> {
  const mine = ++generation;
  setStatus('Loading…', 'loading');
  const range = rangeAt(findRange(view.rangeId), Date.now());
  const result = await postGraphQL<Record<string, SeriesResult | null>>(
    {
      query: seriesQuery(view.pages.length),
      variables: seriesVariables(view.site, view.pages, range, view.granularity),
      operationName: 'DashboardSeries',
    },
    authorization() ? { authorization: authorization()! } : {},
  ).catch((error: unknown) => ({ data: undefined, errors: [{ message: String(error) }] }));
  if (mine !== generation) return;
  const series = view.pages.map((_, i) => result.data?.[`p${i}`] ?? null);
  const first = series.find((s): s is SeriesResult => s !== null);
  if (!first) {
    setStatus(describeErrors(result.errors) ?? 'No data', 'error');
    return;
  }
  const starts = first.points.map((p) => Date.parse(p.t));
  const counts = series.map((s) => (s ? s.points.map((p) => p.hits) : starts.map(() => 0)));
  chart = draw(view, starts, Date.parse(first.to), counts);
  const failed = describeErrors(result.errors);
  setStatus(failed ? `Some series failed: ${failed}` : 'Loaded; connecting live updates…', failed ? 'error' : 'ready');
}

function applyLive(view: View, pageIndex: number, deltas: LivePoint[]): void {
  if (!chart || chart.view !== view || deltas.length === 0) return;
  let changed = false;
  for (const delta of deltas) {
    const i = bucketIndex(chart.starts, chart.end, delta.t);
    if (i === chart.starts.length) {
      // The live bucket is past the charted range: time moved on, so read the whole range again.
      void reload(view);
      return;
    }
    if (i < 0) continue;
    chart.counts[pageIndex]![i]! += delta.hits;
    changed = true;
  }
  if (changed) {
    chart.plot.setData([chart.starts.map((t) => t / 1000), ...chart.counts]);
    showTotals(view, chart.counts);
  }
}

async function reload(view: View): Promise<void> {
  if (reloading) return;
  reloading = true;
  try {
    await load(view);
    if (chart?.view === view) setStatus('Live', 'live');
  } finally {
    reloading = false;
  }
}

function subscribe(view: View): void {
  unsubscribers.forEach((stop) => stop());
  const granularity = view.granularity === 'SECOND' ? 'SECOND' : 'MINUTE';
  const client = wsClient(authorization());
  let waiting = view.pages.length;
  unsubscribers = view.pages.map((page, pageIndex) => {
    const counts = new LiveCounts();
    let first = true;
    return client.subscribe<{ pageStatsLive: { snapshot: boolean; points: { t: string; hits: number }[] } }>(
      {
        query: LIVE_SUBSCRIPTION,
        variables: { site: view.site, page, granularity, window: granularity === 'SECOND' ? 60 : 120 },
      },
      {
        next: (message) => {
          const update = message.data?.pageStatsLive;
          if (!update) {
            setStatus(describeErrors(message.errors) ?? 'Live update failed', 'error');
            return;
          }
          const points = update.points.map((p) => ({ t: Date.parse(p.t), hits: p.hits }));
          applyLive(view, pageIndex, counts.apply(update.snapshot, points));
          if (first && update.snapshot) {
            first = false;
            waiting -= 1;
            if (waiting === 0 && chart?.view === view) setStatus('Live', 'live');
          }
        },
        error: (error) => setStatus(`Live updates stopped: ${String((error as Error).message ?? error)}`, 'error'),
        complete: () => undefined,
      },
    );
  });
}

async function show(view: View): Promise<void> {
  fillControls(view);
  await load(view);
  if (chart?.view === view) subscribe(view);
}

form.addEventListener('change', (event) => {
  // A new range offers other granularities: refresh the second picker before reading the form.
  if ((event.target as HTMLElement).getAttribute('name') === 'range') {
    const range = findRange(field('range').value);
    const granularity = pickGranularity(range, field('granularity').value);
    field('granularity').replaceChildren(
      ...range.granularities.map((g) => new Option(g.toLowerCase(), g, false, g === granularity)),
    );
  }
  if ((event.target as HTMLElement).tagName === 'SELECT') form.requestSubmit();
});
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const view = viewFromControls();
  const params = new URLSearchParams({
    site: view.site,
    pages: view.pages.join(','),
    range: view.rangeId,
    granularity: view.granularity,
  });
  history.replaceState(null, '', `?${params}`);
  void show(view);
});

void show(readView(new URLSearchParams(location.search)));
