/**
 * The dashboard served at /dashboard: a site and its pages over a range, charted with uPlot, kept live
 * through `pageStatsLive`. It uses only the public GraphQL API, like any frontend would: `topPages` when no
 * pages are chosen, one query for every charted series, one subscription per page. State lives in the URL
 * (?site=&pages=&range=&granularity=), the API key in memory only.
 */
import uPlot from 'uplot';
import { postGraphQL, wsClient } from '../shared/graphqlTransport';
import type { GraphQLResult } from '../shared/graphqlTransport';
import { LiveCounts, bucketIndex } from './liveBuckets';
import type { LivePoint } from './liveBuckets';
import { RANGES, findRange, pickGranularity, rangeAt } from './ranges';
import type { Granularity } from './ranges';
import { LIVE_SUBSCRIPTION, TOP_PAGES_QUERY, hasSiteSeries, seriesQuery, seriesVariables } from './seriesQuery';
import type { SeriesResult } from './seriesQuery';
import './dashboard.css';

const SITE_COLOR = '#52606d';
const COLORS = ['#2563eb', '#dc2626', '#16a34a', '#9333ea', '#ea580c', '#0891b2', '#4d7c0f', '#be185d'];
const MAX_PAGES = COLORS.length;
const TOP_PAGES = 5;
/** Hits on pages not charted reach the whole-site line only when the series are read again. */
const REFRESH_MS = 60_000;

interface View {
  site: string;
  /** Empty: chart the site's top pages over the range. */
  pages: string[];
  rangeId: string;
  granularity: Granularity;
}

interface Chart {
  view: View;
  pages: string[];
  /** Series index of the whole site, or -1 (SECOND charts have no site series). */
  siteIndex: number;
  labels: string[];
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

let chart: Chart | undefined;
let subscribedPages = '';
let unsubscribers: (() => void)[] = [];
let generation = 0;
let reloading = false;

function setStatus(text: string, state: 'loading' | 'live' | 'error' | 'ready'): void {
  status.textContent = text;
  status.dataset.state = state;
}

function describeErrors(errors: GraphQLResult['errors']): string | undefined {
  return errors
    ?.map((e) => (typeof e.extensions?.code === 'string' ? `${e.message} (${e.extensions.code})` : e.message))
    .join('; ');
}

function authorization(): string | undefined {
  const key = field('key').value.trim();
  return key ? `Bearer ${key}` : undefined;
}

async function query<T>(request: { query: string; variables: Record<string, unknown> }): Promise<GraphQLResult<T>> {
  const auth = authorization();
  return postGraphQL<T>(request, auth ? { authorization: auth } : {}).catch((error: unknown) => ({
    errors: [{ message: String(error) }],
  }));
}

function readView(params: URLSearchParams): View {
  const range = findRange(params.get('range'));
  const pages = (params.get('pages') ?? '')
    .split(',')
    .map((p) => p.trim())
    .filter((p) => p !== '');
  return {
    site: params.get('site') || 'example.com',
    pages: pages.slice(0, MAX_PAGES),
    rangeId: range.id,
    granularity: pickGranularity(range, params.get('granularity')),
  };
}

function fillControls(view: View): void {
  field('site').value = view.site;
  field('pages').value = view.pages.join(', ');
  field('range').replaceChildren(...RANGES.map((r) => new Option(r.label, r.id, false, r.id === view.rangeId)));
  fillGranularities(view.rangeId, view.granularity);
}

function fillGranularities(rangeId: string, selected: string): void {
  const range = findRange(rangeId);
  const granularity = pickGranularity(range, selected);
  field('granularity').replaceChildren(
    ...range.granularities.map((g) => new Option(g.toLowerCase(), g, false, g === granularity)),
  );
}

function viewFromControls(): View {
  return readView(
    new URLSearchParams({
      site: field('site').value.trim(),
      pages: field('pages').value,
      range: field('range').value,
      granularity: field('granularity').value,
    }),
  );
}

function showTotals(current: Chart): void {
  totalsBody.replaceChildren(
    ...current.labels.map((label, i) => {
      const row = document.createElement('tr');
      if (i === current.siteIndex) row.className = 'site';
      const name = document.createElement('td');
      const swatch = document.createElement('span');
      swatch.className = 'swatch';
      swatch.style.background = colorOf(current, i);
      name.append(swatch, label);
      const total = document.createElement('td');
      total.className = 'total';
      total.textContent = String(current.counts[i]!.reduce((a, b) => a + b, 0));
      row.append(name, total);
      return row;
    }),
  );
}

function colorOf(current: { siteIndex: number }, i: number): string {
  if (i === current.siteIndex) return SITE_COLOR;
  return COLORS[(i - (current.siteIndex === 0 ? 1 : 0)) % COLORS.length]!;
}

function draw(next: Omit<Chart, 'plot'>): Chart {
  chart?.plot.destroy();
  const stepped = next.view.granularity !== 'SECOND' && next.view.granularity !== 'MINUTE';
  const plot = new uPlot(
    {
      width: Math.min(1100, Math.max(480, window.innerWidth - 40)),
      height: 320,
      series: [
        {},
        ...next.labels.map((label, i) => ({
          label,
          stroke: colorOf(next, i),
          width: i === next.siteIndex ? 1.5 : 2,
          dash: i === next.siteIndex ? [6, 4] : undefined,
          points: { show: next.starts.length <= 40 },
          paths: stepped ? uPlot.paths.stepped?.({ align: 1 }) : undefined,
        })),
      ],
      axes: [{}, { label: `hits per ${next.view.granularity.toLowerCase()}` }],
      scales: { y: { range: (_u, _min, max) => [0, Math.max(1, max)] } },
    },
    [next.starts.map((t) => t / 1000), ...next.counts],
    chartBox,
  );
  const drawn = { ...next, plot };
  showTotals(drawn);
  return drawn;
}

/** The chosen pages, or the site's busiest over the range. */
async function resolvePages(view: View, range: { from: string; to: string }): Promise<string[] | string> {
  if (view.pages.length > 0) return view.pages;
  const result = await query<{ topPages: { edges: { node: { page: string } }[] } }>({
    query: TOP_PAGES_QUERY,
    variables: { site: view.site, ...range, first: TOP_PAGES },
  });
  if (!result.data?.topPages) return describeErrors(result.errors) ?? 'No data';
  return result.data.topPages.edges.map((edge) => edge.node.page);
}

async function load(view: View): Promise<void> {
  const mine = ++generation;
  if (!chart || chart.view !== view) setStatus('Loading…', 'loading');
  const range = rangeAt(findRange(view.rangeId), Date.now());
  const pages = await resolvePages(view, range);
  if (mine !== generation) return;
  if (typeof pages === 'string') {
    setStatus(pages, 'error');
    return;
  }
  const withSite = hasSiteSeries(view.granularity);
  const result = await query<Record<string, SeriesResult | null>>({
    query: seriesQuery(pages.length, withSite),
    variables: seriesVariables(view.site, pages, range, view.granularity),
  });
  if (mine !== generation) return;
  const series = [
    ...(withSite ? [result.data?.site ?? null] : []),
    ...pages.map((_, i) => result.data?.[`p${i}`] ?? null),
  ];
  const first = series.find((s): s is SeriesResult => s !== null);
  if (!first) {
    setStatus(describeErrors(result.errors) ?? 'No data', 'error');
    return;
  }
  const starts = first.points.map((p) => Date.parse(p.t));
  chart = draw({
    view,
    pages,
    siteIndex: withSite ? 0 : -1,
    labels: [...(withSite ? [`${view.site} (whole site)`] : []), ...pages],
    starts,
    end: Date.parse(first.to),
    counts: series.map((s) => (s ? s.points.map((p) => p.hits) : starts.map(() => 0))),
  });
  if (pages.length === 0) setStatus('No page of this site has hits in this range yet.', 'ready');
  const failed = describeErrors(result.errors);
  if (failed) setStatus(`Some series failed: ${failed}`, 'error');
  subscribe(chart);
}

function applyLive(current: Chart, pageIndex: number, deltas: LivePoint[]): void {
  if (chart !== current || deltas.length === 0) return;
  const seriesIndex = pageIndex + (current.siteIndex === 0 ? 1 : 0);
  for (const delta of deltas) {
    const i = bucketIndex(current.starts, current.end, delta.t);
    if (i === current.starts.length) {
      // The live bucket is past the charted range: time moved on, so read the whole range again.
      void reload();
      return;
    }
    if (i < 0) continue;
    current.counts[seriesIndex]![i]! += delta.hits;
    // The whole site grows with each of its pages.
    if (current.siteIndex >= 0) current.counts[current.siteIndex]![i]! += delta.hits;
  }
  current.plot.setData([current.starts.map((t) => t / 1000), ...current.counts]);
  showTotals(current);
}

async function reload(): Promise<void> {
  if (reloading || !chart) return;
  reloading = true;
  try {
    await load(chart.view);
  } finally {
    reloading = false;
  }
}

/** One subscription per charted page; kept across reloads while the pages and granularity stay the same. */
function subscribe(current: Chart): void {
  const granularity = current.view.granularity === 'SECOND' ? 'SECOND' : 'MINUTE';
  const id = JSON.stringify([current.view.site, current.pages, granularity, authorization()]);
  if (id === subscribedPages) {
    if (status.dataset.state !== 'error') setStatus('Live', 'live');
    return;
  }
  unsubscribers.forEach((stop) => stop());
  subscribedPages = id;
  const client = wsClient(authorization());
  let waiting = current.pages.length;
  if (waiting === 0) return;
  setStatus('Loaded; connecting live updates…', 'ready');
  unsubscribers = current.pages.map((page) => {
    const counts = new LiveCounts();
    let first = true;
    return client.subscribe<{ pageStatsLive: { snapshot: boolean; points: { t: string; hits: number }[] } }>(
      {
        query: LIVE_SUBSCRIPTION,
        variables: { site: current.view.site, page, granularity, window: granularity === 'SECOND' ? 60 : 120 },
      },
      {
        next: (message) => {
          const update = message.data?.pageStatsLive;
          if (!update) {
            setStatus(describeErrors(message.errors) ?? 'Live update failed', 'error');
            return;
          }
          const points = update.points.map((p) => ({ t: Date.parse(p.t), hits: p.hits }));
          const deltas = counts.apply(update.snapshot, points);
          // Later charts of the same pages (after a reload) receive the updates too.
          const pageIndex = chart?.view.site === current.view.site ? chart.pages.indexOf(page) : -1;
          if (chart && pageIndex >= 0) applyLive(chart, pageIndex, deltas);
          if (first && update.snapshot) {
            first = false;
            waiting -= 1;
            if (waiting === 0) setStatus('Live', 'live');
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
}

form.addEventListener('change', (event) => {
  const target = event.target as HTMLElement;
  // A new range offers other granularities: refresh the second picker before reading the form.
  if (target.getAttribute('name') === 'range') fillGranularities(field('range').value, field('granularity').value);
  if (target.tagName === 'SELECT') form.requestSubmit();
});
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const view = viewFromControls();
  const params = new URLSearchParams({ site: view.site, range: view.rangeId, granularity: view.granularity });
  if (view.pages.length > 0) params.set('pages', view.pages.join(','));
  history.replaceState(null, '', `?${params}`);
  void show(view);
});
setInterval(() => {
  if (document.visibilityState === 'visible') void reload();
}, REFRESH_MS);

void show(readView(new URLSearchParams(location.search)));
