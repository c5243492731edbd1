/**
 * Who the demo groups are: a park-protection campaign and a tenants' union in
 * Brooklyn, their sites and time zone, and where their supporters come from.
 */
import { localTime } from '../dates.js';

/** The park friends' site. */
export const PARK_SITE = 'https://willowbendpark.example.org';
/** The tenants' union's site. */
export const UNION_SITE = 'https://riversidetenants.example.org';
/** The tenants' union's meeting room: its office address and where its events are. */
export const UNION_ROOM = {
  venue: 'Riverside Towers community room',
  address_lines: ['145 Riverside Terrace'],
  locality: 'Brooklyn',
  region: 'NY',
  postal_code: '11201',
  country: 'US',
} as const;
/** Where the groups meet. */
export const ZONE = 'America/New_York';

/** How supporters found an action: copied into its `referrer_data`. */
export const REFERRERS = [
  { source: 'email-newsletter', website: 'riversidetenants.example.org' },
  { source: 'facebook', website: 'facebook.com' },
  { source: 'door-to-door', referrer: 'canvass team' },
  { source: 'website', website: 'willowbendpark.example.org' },
  { source: 'sms', referrer: 'text blast' },
] as const;

/**
 * Wall-clock time in the groups' time zone, `days` after `now`.
 *
 * @example
 * ```ts
 * import { inZone } from './group.js';
 *
 * inZone(new Date('2026-04-15T16:00:00Z'), 3, 18, 30); // '2026-04-18T18:30:00-04:00'
 * ```
 */
export function inZone(now: Date, days: number, hour: number, minute = 0): string {
  return localTime(ZONE, now, days, hour, minute);
}
