/**
 * Open-loop load: requests are due at a fixed rate whatever the answers, the way independent visitors arrive, and
 * each latency runs from when its request was due (not when it could be sent), so a stalled server shows in the
 * percentiles instead of slowing the load down (no coordinated omission). At most `maxInFlight` recordHit requests
 * are outstanding; one more due is counted as the error CLIENT_BACKLOG (the server did not keep up). Dashboards go
 * out on their own schedule, and one live subscription stays open throughout.
 */
import { createClient } from 'graphql-ws';
import type { Client } from 'graphql-ws';
import WebSocket from 'ws';
import type { SoakClient } from './SoakClient';
import { SoakTraffic } from './SoakTraffic';
import type { Window } from './Window';

const TICK_MS = 10;
/** Dashboards in flight at most: more due meanwhile are counted as CLIENT_BACKLOG. */
const MAX_DASHBOARDS_IN_FLIGHT = 20;

export interface Load {
  /** Changes the recordHit rate from now on. */
  setRate(perSecond: number): void;
  /** Stops sending and waits for the requests in flight. */
  stop(): Promise<void>;
}

export function driveLoad(options: {
  readonly client: SoakClient;
  readonly serverUrl: string;
  readonly traffic: SoakTraffic;
  readonly rate: number;
  readonly dashboardsPerMinute: number;
  readonly maxInFlight: number;
  /** The window results go to now. */
  readonly window: () => Window;
}): Load {
  const { client, traffic } = options;
  const inFlight = new Set<Promise<void>>();
  let hitsInFlight = 0;
  let dashboardsInFlight = 0;
  let rate = options.rate;
  let origin = performance.now();
  let scheduled = 0;
  let index = 0;
  let dashboards = 0;
  const dashboardEvery = 60_000 / options.dashboardsPerMinute;
  let nextDashboard = performance.now();

  const track = (promise: Promise<void>): void => {
    inFlight.add(promise);
    void promise.finally(() => inFlight.delete(promise));
  };
  const sendHit = (dueAt: number): void => {
    const window = options.window();
    window.due += 1;
    if (hitsInFlight >= options.maxInFlight) {
      window.failed('CLIENT_BACKLOG');
      return;
    }
    hitsInFlight += 1;
    const { query, variables } = traffic.hit(index++, Date.now());
    track(
      client.graphql(query, variables).then((answer) => {
        hitsInFlight -= 1;
        const now = options.window();
        if (answer.code === undefined) now.answered('hit', performance.now() - dueAt);
        else now.failed(answer.code);
      }),
    );
  };
  const sendDashboard = (dueAt: number): void => {
    if (dashboardsInFlight >= MAX_DASHBOARDS_IN_FLIGHT) {
      options.window().failed('CLIENT_BACKLOG');
      return;
    }
    dashboardsInFlight += 1;
    const { query, variables } = traffic.dashboard(dashboards++, Date.now());
    track(
      client.graphql(query, variables).then((answer) => {
        dashboardsInFlight -= 1;
        const now = options.window();
        if (answer.code === undefined) now.answered('dashboard', performance.now() - dueAt);
        else now.failed(answer.code);
      }),
    );
  };
  const timer = setInterval(() => {
    const now = performance.now();
    // Every request due by now, each at the instant it was due.
    const due = Math.floor(((now - origin) * rate) / 1000);
    for (; scheduled < due; scheduled++) sendHit(origin + (scheduled * 1000) / rate);
    while (nextDashboard <= now) {
      sendDashboard(nextDashboard);
      nextDashboard += dashboardEvery;
    }
  }, TICK_MS);
  const live = subscribe(options.serverUrl, options.window);

  return {
    setRate(perSecond) {
      origin = performance.now();
      scheduled = 0;
      rate = perSecond;
    },
    async stop() {
      clearInterval(timer);
      await live.dispose();
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** The live subscription: counts its messages; an error or an end before dispose() is an error of the window. */
function subscribe(serverUrl: string, window: () => Window): Client {
  const client = createClient({
    url: `${serverUrl.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    retryAttempts: 0,
  });
  let disposed = false;
  client.subscribe(
    { query: SoakTraffic.liveQuery() },
    {
      next: (result) => {
        if (result.errors?.length) {
          const code = result.errors[0]?.extensions?.code;
          window().failed(`LIVE ${typeof code === 'string' ? code : 'error'}`);
        } else {
          window().liveMessages += 1;
        }
      },
      error: () => {
        if (!disposed) window().failed('LIVE_ENDED');
      },
      complete: () => {
        if (!disposed) window().failed('LIVE_ENDED');
      },
    },
  );
  const dispose = client.dispose.bind(client);
  return Object.assign(client, {
    dispose: () => {
      disposed = true;
      return dispose();
    },
  });
}
