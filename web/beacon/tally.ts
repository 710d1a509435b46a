/**
 * The tracking beacon served as /tally.js. A site includes it with its public site key:
 *   <script defer src="https://tally.example/tally.js" data-site="example.com" data-key="pk_…"></script>
 * It reports `location.pathname + location.search` once per page view (SPA navigations included) to
 * POST api/hit next to the script, as text/plain so sendBeacon needs no CORS preflight. No cookies, no
 * storage: the body is the site key, the site, the path and `document.referrer` (where the visit came from; the
 * server keeps only its host, as the source dimension).
 * Optional attributes: data-respect-dnt (skip visitors sending Do Not Track), data-api (another endpoint).
 *
 * Custom events (issue 28): `tally('Signup', { props: { plan: 'pro' }, revenue: { amount: '29.90', currency: 'EUR' } })`.
 * Calls made before the script loads are queued by this one-line stub and sent once it runs:
 *   <script>window.tally = window.tally || function () { (tally.q = tally.q || []).push(arguments) }</script>
 * A 404 page sends `tally('404', { props: { path: location.pathname } })`. Opt-in auto-capture, by attribute:
 * data-outbound-links (clicks on links to other hosts: `Outbound Link: Click`, prop url) and data-file-downloads
 * (clicks on links to files: `File Download`, prop url; the value lists extensions, default pdf, zip, …).
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

  const send = (body: string): void => {
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

  let lastPage: string | undefined;
  const record = (): void => {
    const page = location.pathname + location.search;
    // replaceState with the same URL and hash-only changes are not new page views.
    if (page === lastPage) return;
    // The first page view's referrer is where the visit came from; later (SPA) views came from the page before.
    // Cut to 1,000 characters: the source is the host, and the body must stay within the endpoint's 4 KB.
    const referrer = (lastPage === undefined ? document.referrer : location.origin + lastPage).slice(0, 1000);
    lastPage = page;
    send(JSON.stringify(referrer === '' ? { key, site, page } : { key, site, page, referrer }));
  };

  interface EventOptions {
    readonly props?: Record<string, string | number | boolean>;
    readonly revenue?: { readonly amount: string | number; readonly currency: string };
  }
  /** A custom event on the current page; the server validates it (bad ones are refused, never half-counted). */
  const track = (event: unknown, options?: EventOptions): void => {
    if (typeof event !== 'string' || event === '') return;
    const page = location.pathname + location.search;
    const body: Record<string, unknown> = { key, site, page, event };
    if (options?.props) body.props = options.props;
    if (options?.revenue) body.revenue = options.revenue;
    send(JSON.stringify(body));
  };
  type Queued = ArrayLike<unknown>;
  const global = window as unknown as { tally?: ((...args: unknown[]) => void) & { q?: Queued[] } };
  const queued = global.tally?.q ?? [];
  global.tally = (event: unknown, options?: unknown) => track(event, options as EventOptions | undefined);
  for (const args of queued) track(args[0], args[1] as EventOptions | undefined);

  const outbound = script.dataset.outboundLinks !== undefined && script.dataset.outboundLinks !== 'false';
  const downloads = script.dataset.fileDownloads;
  const extensions = new Set(
    (downloads === undefined || downloads === '' || downloads === 'true'
      ? 'pdf,xlsx,docx,txt,rtf,csv,exe,key,pps,ppt,pptx,7z,pkg,rar,gz,zip,avi,mov,mp4,mpeg,wmv,midi,mp3,wav,wma,dmg,iso,msi'
      : downloads
    )
      .split(',')
      .map((e) => e.trim().toLowerCase()),
  );
  if (outbound || (downloads !== undefined && downloads !== 'false')) {
    // Capture phase: the event is sent before a navigation can unload the page; sendBeacon survives the unload.
    document.addEventListener(
      'click',
      (e) => {
        const link = e.target instanceof Element ? e.target.closest('a') : null;
        if (!link || !link.href) return;
        const url = new URL(link.href, location.href);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') return;
        const extension = url.pathname.split('.').pop()?.toLowerCase() ?? '';
        const clean = url.origin + url.pathname;
        if (
          downloads !== undefined &&
          downloads !== 'false' &&
          url.pathname.includes('.') &&
          extensions.has(extension)
        ) {
          track('File Download', { props: { url: clean } });
        } else if (outbound && url.host !== location.host) {
          track('Outbound Link: Click', { props: { url: clean } });
        }
      },
      true,
    );
  }

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
