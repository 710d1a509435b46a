/**
 * One sample of a server's `/metrics` (Prometheus text format): the tests that watch a gauge or a counter read it
 * here. Undefined where the server does not report that series.
 */
export function metricValue(
  text: string,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const wanted = Object.entries(labels)
    .map(([k, v]) => `${k}="${v}"`)
    .join(',');
  const prefix = wanted === '' ? `${name} ` : `${name}{${wanted}} `;
  const line = text.split('\n').find((l) => l.startsWith(prefix));
  return line === undefined ? undefined : Number(line.slice(prefix.length).trim().split(' ')[0]);
}

/** `metricValue` of the server at `baseUrl` now. */
export async function readMetric(
  baseUrl: string,
  name: string,
  options: { readonly labels?: Record<string, string>; readonly headers?: Record<string, string> } = {},
): Promise<number | undefined> {
  const text = await (await fetch(`${baseUrl}/metrics`, { headers: options.headers ?? {} })).text();
  return metricValue(text, name, options.labels);
}
