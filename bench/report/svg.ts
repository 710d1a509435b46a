/**
 * Minimal SVG charts (no chart library): line charts with optional log axes, and horizontal bar charts.
 * Plain SVG 1.1 with inline attributes, so GitHub and any converter render them the same.
 */
export interface LineSeries {
  readonly name: string;
  readonly points: ReadonlyArray<{ readonly x: number; readonly y: number }>;
  /** Palette index (default: the series' position), so related lines can share a colour. */
  readonly colour?: number;
  /** Draw dashed (e.g. p95 beside a solid p50). */
  readonly dashed?: boolean;
}

export interface LineChartSpec {
  readonly title: string;
  readonly subtitle?: string;
  readonly xLabel: string;
  readonly yLabel: string;
  readonly series: readonly LineSeries[];
  readonly logX?: boolean;
  readonly logY?: boolean;
  /** Fixed x ticks (e.g. every 3 simulated hours); default: five even ticks. */
  readonly xTicks?: readonly number[];
  readonly yMin?: number;
}

export interface Bar {
  readonly label: string;
  readonly value: number;
  /** Colour index (bars of one design share a colour). */
  readonly group: number;
  readonly note?: string;
}

export interface BarChartSpec {
  readonly title: string;
  readonly subtitle?: string;
  readonly valueLabel: string;
  readonly bars: readonly Bar[];
  readonly groups: readonly string[];
  readonly logScale?: boolean;
}

export const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf'];
const FONT = 'font-family="Helvetica, Arial, sans-serif"';

function escapeXml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function tickLabel(value: number): string {
  const abs = Math.abs(value);
  if (abs >= 1e6) return `${Number((value / 1e6).toPrecision(3))}M`;
  if (abs >= 1e4) return `${Number((value / 1e3).toPrecision(3))}k`;
  if (abs >= 100 || abs === 0) return String(Math.round(value));
  return String(Number(value.toPrecision(2)));
}

function niceStep(span: number, count: number): number {
  const raw = span / count;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw);
  return step ?? 10 * magnitude;
}

interface Axis {
  readonly scale: (value: number) => number;
  readonly ticks: number[];
}

function axis(values: number[], log: boolean, pixels: [number, number], fixed?: readonly number[], min?: number): Axis {
  // Loops, not Math.min(...values): spreading a large array into a call overflows the stack.
  let lo = min ?? Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  for (const v of values) {
    if (!Number.isFinite(v) || (log && v <= 0)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
  }
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [log ? 1 : 0, 1];
  let ticks: number[];
  if (log) {
    lo = 10 ** Math.floor(Math.log10(lo));
    hi = 10 ** Math.ceil(Math.log10(hi));
    if (lo === hi) hi = lo * 10;
    ticks = [];
    for (let t = lo; t <= hi * 1.0001; t *= 10) ticks.push(t);
  } else {
    if (lo === hi) hi = lo + 1;
    const step = niceStep(hi - lo, 5);
    lo = Math.floor(lo / step) * step;
    hi = Math.ceil(hi / step) * step;
    ticks = [];
    for (let t = lo; t <= hi + step / 2; t += step) ticks.push(Number(t.toPrecision(12)));
  }
  if (fixed) {
    ticks = Array.from(fixed);
    for (const t of fixed) {
      if (t < lo) lo = t;
      if (t > hi) hi = t;
    }
  }
  const [p0, p1] = pixels;
  const f = log ? Math.log10 : (v: number) => v;
  const a = f(lo);
  const b = f(hi);
  return { scale: (value) => p0 + ((f(value) - a) / (b - a || 1)) * (p1 - p0), ticks };
}

export function lineChart(spec: LineChartSpec): string {
  const width = 860;
  const height = 420;
  const left = 78;
  const right = 290;
  const top = spec.subtitle ? 62 : 46;
  const bottom = 56;
  const xs = spec.series.flatMap((s) => s.points.map((p) => p.x));
  const ys = spec.series.flatMap((s) => s.points.map((p) => p.y));
  const x = axis(xs, spec.logX ?? false, [left, width - right], spec.xTicks);
  const y = axis(ys, spec.logY ?? false, [height - bottom, top], undefined, spec.logY ? undefined : (spec.yMin ?? 0));
  const parts: string[] = [];
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="${left}" y="24" font-size="16" font-weight="bold" ${FONT}>${escapeXml(spec.title)}</text>`);
  if (spec.subtitle)
    parts.push(`<text x="${left}" y="44" font-size="12" fill="#555" ${FONT}>${escapeXml(spec.subtitle)}</text>`);
  for (const t of y.ticks) {
    const py = y.scale(t).toFixed(1);
    parts.push(`<line x1="${left}" x2="${width - right}" y1="${py}" y2="${py}" stroke="#e5e5e5"/>`);
    parts.push(
      `<text x="${left - 6}" y="${py}" dy="4" font-size="11" text-anchor="end" ${FONT}>${tickLabel(t)}</text>`,
    );
  }
  for (const t of x.ticks) {
    const px = x.scale(t).toFixed(1);
    parts.push(`<line x1="${px}" x2="${px}" y1="${top}" y2="${height - bottom}" stroke="#f0f0f0"/>`);
    parts.push(
      `<text x="${px}" y="${height - bottom + 16}" font-size="11" text-anchor="middle" ${FONT}>${tickLabel(t)}</text>`,
    );
  }
  parts.push(
    `<line x1="${left}" x2="${width - right}" y1="${height - bottom}" y2="${height - bottom}" stroke="#333"/>`,
  );
  parts.push(`<line x1="${left}" x2="${left}" y1="${top}" y2="${height - bottom}" stroke="#333"/>`);
  parts.push(
    `<text x="${(left + width - right) / 2}" y="${height - 14}" font-size="12" text-anchor="middle" ${FONT}>${escapeXml(spec.xLabel)}</text>`,
  );
  parts.push(
    `<text transform="translate(18 ${(top + height - bottom) / 2}) rotate(-90)" font-size="12" text-anchor="middle" ${FONT}>${escapeXml(spec.yLabel)}</text>`,
  );
  spec.series.forEach((series, i) => {
    const colour = PALETTE[(series.colour ?? i) % PALETTE.length] as string;
    const dash = (series.dashed ?? i >= PALETTE.length) ? ' stroke-dasharray="5 3"' : '';
    const points = series.points.filter((p) => Number.isFinite(p.y) && (!spec.logY || p.y > 0));
    const path = points.map((p) => `${x.scale(p.x).toFixed(1)},${y.scale(p.y).toFixed(1)}`).join(' ');
    parts.push(`<polyline points="${path}" fill="none" stroke="${colour}" stroke-width="2"${dash}/>`);
    for (const p of points) {
      parts.push(`<circle cx="${x.scale(p.x).toFixed(1)}" cy="${y.scale(p.y).toFixed(1)}" r="2.5" fill="${colour}"/>`);
    }
    const ly = top + 8 + i * 20;
    parts.push(
      `<line x1="${width - right + 14}" x2="${width - right + 34}" y1="${ly}" y2="${ly}" stroke="${colour}" stroke-width="3"${dash}/>`,
    );
    parts.push(
      `<text x="${width - right + 40}" y="${ly}" dy="4" font-size="11" ${FONT}>${escapeXml(series.name)}</text>`,
    );
  });
  return wrap(width, height, parts);
}

export function barChart(spec: BarChartSpec): string {
  const width = 760;
  const barHeight = 22;
  const gap = 8;
  const left = 260;
  const right = 110;
  const top = spec.subtitle ? 86 : 70;
  const height = top + spec.bars.length * (barHeight + gap) + 40;
  const values = spec.bars.map((b) => b.value);
  const scale = axis(values, spec.logScale ?? false, [left, width - right], undefined, spec.logScale ? undefined : 0);
  const parts: string[] = [];
  parts.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
  parts.push(`<text x="16" y="24" font-size="16" font-weight="bold" ${FONT}>${escapeXml(spec.title)}</text>`);
  if (spec.subtitle)
    parts.push(`<text x="16" y="44" font-size="12" fill="#555" ${FONT}>${escapeXml(spec.subtitle)}</text>`);
  let lx = 16;
  spec.groups.forEach((group, i) => {
    const ly = top - 22;
    parts.push(`<rect x="${lx}" y="${ly - 9}" width="12" height="12" fill="${PALETTE[i % PALETTE.length]}"/>`);
    parts.push(`<text x="${lx + 16}" y="${ly + 1}" font-size="11" ${FONT}>${escapeXml(group)}</text>`);
    lx += 24 + group.length * 6.5;
  });
  for (const t of scale.ticks) {
    const px = scale.scale(t).toFixed(1);
    parts.push(`<line x1="${px}" x2="${px}" y1="${top - 4}" y2="${height - 34}" stroke="#e5e5e5"/>`);
    parts.push(`<text x="${px}" y="${height - 20}" font-size="11" text-anchor="middle" ${FONT}>${tickLabel(t)}</text>`);
  }
  parts.push(
    `<text x="${(left + width - right) / 2}" y="${height - 4}" font-size="12" text-anchor="middle" ${FONT}>${escapeXml(spec.valueLabel)}</text>`,
  );
  spec.bars.forEach((bar, i) => {
    const y = top + i * (barHeight + gap);
    const x0 = scale.scale(spec.logScale ? (scale.ticks[0] as number) : 0);
    const x1 = Number.isFinite(bar.value) && (!spec.logScale || bar.value > 0) ? scale.scale(bar.value) : x0;
    parts.push(
      `<text x="${left - 8}" y="${y + barHeight / 2 + 4}" font-size="11" text-anchor="end" ${FONT}>${escapeXml(bar.label)}</text>`,
    );
    parts.push(
      `<rect x="${x0.toFixed(1)}" y="${y}" width="${Math.max(1, x1 - x0).toFixed(1)}" height="${barHeight}" fill="${PALETTE[bar.group % PALETTE.length]}"/>`,
    );
    parts.push(
      `<text x="${(Math.max(x0, x1) + 6).toFixed(1)}" y="${y + barHeight / 2 + 4}" font-size="11" ${FONT}>${escapeXml(bar.note ?? tickLabel(bar.value))}</text>`,
    );
  });
  return wrap(width, height, parts);
}

function wrap(width: number, height: number, parts: string[]): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">\n${parts.join('\n')}\n</svg>\n`;
}
