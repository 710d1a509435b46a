/**
 * The tracking beacon served as /tally.js. A site includes it with its public site key:
 *   <script defer src="https://tally.example/tally.js" data-site="example.com" data-key="pk_…"></script>
 * It reports `location.pathname + location.search` once per page view (SPA navigations included) to
 * POST api/hit next to the script, as text/plain so sendBeacon needs no CORS preflight. No cookies, no
 * storage: the body is the site key, the site, the path and `document.referrer` (where the visit came from; the
 * server keeps only its host, as the source dimension).
 * Optional attributes: data-respect-dnt (skip visitors sending Do Not Track), data-api (another endpoint).
 */
(() => {
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement)) return;
  const { site, key } = script.dataset;
  if (!site || !key) {
    // The only message the beacon prints: a site owner pasting the snippet needs to know why nothing counts.
    // eslint-disable-next-line no-console
    console.warn('tally.js: data-site and data-key are required; no page views are recorded');
    return;
  }
  // Relative to the script, so a tally served under a path prefix (…/tally/tally.js) posts to …/tally/api/hit.
  const endpoint = script.dataset.api ?? new URL('api/hit', script.src).href;
  const respectDnt = script.dataset.respectDnt !== undefined && script.dataset.respectDnt !== 'false';
  const dnt = (navigator as Navigator & { doNotTrack?: string | null }).doNotTrack;
  if (respectDnt && (dnt === '1' || dnt === 'yes')) return;

  let lastPage: string | undefined;
  const record = (): void => {
    const page = location.pathname + location.search;
    // replaceState with the same URL and hash-only changes are not new page views.
    if (page === lastPage) return;
    // The first page view's referrer is where the visit came from; later (SPA) views came from the page before.
    // Cut to 1,000 characters: the source is the host, and the body must stay within the endpoint's 4 KB.
    const referrer = (lastPage === undefined ? document.referrer : location.origin + lastPage).slice(0, 1000);
    lastPage = page;
    const body = JSON.stringify(referrer === '' ? { key, site, page } : { key, site, page, referrer });
    if (typeof navigator.sendBeacon === 'function' && navigator.sendBeacon(endpoint, body)) return;
    // sendBeacon is missing or refused the request (queue full): fetch with keepalive survives unload too.
    fetch(endpoint, {
      method: 'POST',
      body,
      keepalive: true,
      credentials: 'omit',
      mode: 'no-cors',
      headers: { 'content-type': 'text/plain' },
    }).catch(() => undefined);
  };

  // Single-page apps change pages through the History API; popstate covers back and forward.
  for (const name of ['pushState', 'replaceState'] as const) {
    const original = history[name];
    history[name] = function (this: History, ...args: Parameters<History['pushState']>) {
      original.apply(this, args);
      record();
    };
  }
  addEventListener('popstate', record);

  // A prerendered page has not been seen yet: count it when it becomes visible.
  if ((document.visibilityState as string) === 'prerender') {
    const onVisible = (): void => {
      if ((document.visibilityState as string) === 'prerender') return;
      document.removeEventListener('visibilitychange', onVisible);
      record();
    };
    document.addEventListener('visibilitychange', onVisible);
  } else {
    record();
  }
})();
