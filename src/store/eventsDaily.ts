/** `events.daily`: a site's or page's events per UTC day (eventDocument's shape). */
import { dayKey } from '../time/buckets';
import { documentId } from './documentId';

export const EVENTS_DAILY_COLLECTION = 'events.daily';

export function eventsDailyId(site: string, page: string, dayMs: number): string {
  return documentId(dayKey(dayMs), site, page);
}
