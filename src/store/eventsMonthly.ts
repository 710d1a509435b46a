/** `events.monthly`: a site's or page's events per UTC month (eventDocument's shape). */
import { monthKey } from '../time/buckets';
import { documentId } from './documentId';

export const EVENTS_MONTHLY_COLLECTION = 'events.monthly';

export function eventsMonthlyId(site: string, page: string, monthMs: number): string {
  return documentId(monthKey(monthMs), site, page);
}
