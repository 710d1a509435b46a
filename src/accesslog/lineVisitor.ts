/**
 * The visitor of an access-log line: hex(sha256(client address, User-Agent, UTC day)), the importer's stand-in
 * for a cookieless id. Stable (a re-run of an import sends the same id, so its batches keep their idempotency
 * fingerprints) and transient (a new id every UTC day, as the beacon's daily salt). The server keys it with the
 * database's secret before counting; neither the id nor its inputs are stored.
 */
import { createHash } from 'node:crypto';
import { startOfDay } from '../time/buckets';

export function lineVisitor(clientIp: string, userAgent: string | undefined, at: number): string {
  const day = new Date(startOfDay(at)).toISOString().slice(0, 10);
  return createHash('sha256')
    .update(JSON.stringify([clientIp, userAgent ?? '', day]))
    .digest('hex');
}
