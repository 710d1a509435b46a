/**
 * Where a soak's live heap grows: V8's sampling heap profile (HeapProfiler.getSamplingProfile) keeps a sample only
 * while the object it sampled is alive, so a profile's tree is the live heap by allocating stack. Two profiles of one
 * run, taken minutes apart, differ by what was kept in between: a structure that only grows shows there, a cache at
 * its bound does not.
 *
 * Sites are keyed by the allocating frame and by the nearest frame of tally's own code under it (the allocating frame
 * is often a library's or V8's own, `Map.set` or a Buffer, which alone says nothing about who holds the object).
 */

export interface HeapCallFrame {
  readonly functionName: string;
  readonly url: string;
  readonly lineNumber: number;
  readonly columnNumber: number;
}

export interface HeapProfileNode {
  readonly callFrame: HeapCallFrame;
  readonly selfSize: number;
  readonly children: readonly HeapProfileNode[];
}

/** The profile as the inspector returns it (`samples` left out: sizes are already summed per node). */
export interface HeapProfile {
  readonly head: HeapProfileNode;
}

export interface SiteGrowth {
  readonly site: string;
  readonly beforeBytes: number;
  readonly afterBytes: number;
}

/** Whether a frame is tally's own code (built or source), not a dependency's or Node's. */
export function isOwnFrame(frame: HeapCallFrame): boolean {
  return /\/(dist\/)?src\//.test(frame.url) && !frame.url.includes('/node_modules/');
}

export function frameName(frame: HeapCallFrame): string {
  const file = frame.url === '' ? '' : frame.url.replace(/^.*\/(dist\/)?(src|node_modules)\//, '$2/');
  const where = file === '' ? '' : ` ${file}:${frame.lineNumber + 1}`;
  return `${frame.functionName || '(anonymous)'}${where}`;
}

/** Live bytes per site: the allocating frame, and (when it is not tally's) the nearest tally frame calling it. */
export function liveBytesBySite(profile: HeapProfile): Map<string, number> {
  const sites = new Map<string, number>();
  const walk = (node: HeapProfileNode, nearestOwn: HeapCallFrame | undefined): void => {
    const own = isOwnFrame(node.callFrame) ? node.callFrame : nearestOwn;
    if (node.selfSize > 0) {
      const at = frameName(node.callFrame);
      const site = own === undefined || own === node.callFrame ? at : `${at} ← ${frameName(own)}`;
      sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    }
    for (const child of node.children) walk(child, own);
  };
  walk(profile.head, undefined);
  return sites;
}

/** The sites whose live bytes grew most from `before` to `after`, largest growth first. */
export function grownSites(before: HeapProfile, after: HeapProfile, top: number): SiteGrowth[] {
  const was = liveBytesBySite(before);
  const now = liveBytesBySite(after);
  const growth: SiteGrowth[] = [];
  for (const [site, afterBytes] of now) {
    const beforeBytes = was.get(site) ?? 0;
    if (afterBytes > beforeBytes) growth.push({ site, beforeBytes, afterBytes });
  }
  growth.sort((a, b) => b.afterBytes - b.beforeBytes - (a.afterBytes - a.beforeBytes) || (a.site < b.site ? -1 : 1));
  return growth.slice(0, top);
}

/** Total live bytes a profile sampled. */
export function profileBytes(profile: HeapProfile): number {
  let total = 0;
  const walk = (node: HeapProfileNode): void => {
    total += node.selfSize;
    for (const child of node.children) walk(child);
  };
  walk(profile.head);
  return total;
}
