/** The playground's first tab: the README's Dashboard query, with variables for the last hour. */
export const exampleQuery = `# Run with ▶ (Ctrl-Enter). Docs: the book icon on the left.
# With API keys configured, add in Headers below:
#   {"Authorization": "Bearer <key>"}
# Record a hit first in a new tab (+):
#   mutation { recordHit(site: "example.com", page: "/pricing") { at } }
query Dashboard($from: DateTime!, $to: DateTime!) {
  lastHour: pageStats(site: "example.com", page: "/pricing", range: { from: $from, to: $to }, granularity: MINUTE) {
    total
    values
  }
  byHour: pageStats(site: "example.com", page: "/pricing", range: { from: $from, to: $to }, granularity: HOUR) {
    from
    to
    points {
      t
      hits
    }
  }
  serverInfo {
    version
    database {
      engine
      version
    }
  }
}
`;

/** `now` rounded up to the next minute, so the last minute bucket is the current one. */
export function exampleVariables(now: number): string {
  const to = Math.ceil(now / 60_000) * 60_000;
  const from = to - 3_600_000;
  return JSON.stringify({ from: new Date(from).toISOString(), to: new Date(to).toISOString() }, null, 2);
}
