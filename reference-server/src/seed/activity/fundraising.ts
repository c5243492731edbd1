/**
 * Two fundraising pages, each with 6–15 donations shared among its recipients; the
 * first page's second donation bounced and is voided. Donors who gave (not voided) are
 * remembered as `donors`, for the donor tag.
 */
import type { JsonObject } from '../../storage/storage.js';
import { DAY } from '../dates.js';
import type { ActStep, Step } from '../steps.js';
import { THE_ACTOR } from '../steps.js';
import { PARK_SITE, REFERRERS, UNION_SITE } from './group.js';

/** Who a page's donations go to, and each one's share. */
interface Recipient {
  display_name: string;
  legal_name: string;
  share: number;
}

/** Cents, as money is written: two decimals at most. */
function cents(amount: number): number {
  return Math.round(amount * 100) / 100;
}

/** 6–15 donations to the page `page`; the one at `voided` (if given) bounced. */
function donations(page: string, recipients: readonly Recipient[], voided?: number): ActStep {
  return {
    act: 'donation',
    by: { count: [6, 15] },
    fields: ({ choose, recently, index }) => {
      const base = choose.pick([10, 15, 20, 25, 35, 50, 75, 100, 150, 250]);
      // Many donors cover the card fee (2.9% + $0.30), so amounts carry cents.
      const coverFee = choose.chance(0.4);
      const amount = coverFee ? cents(base * 1.029 + 0.3) : base;
      let left = amount;
      const shares = recipients.map((recipient, at) => {
        const share = at === recipients.length - 1 ? left : cents(amount * recipient.share);
        left = cents(left - share);
        return {
          display_name: recipient.display_name,
          legal_name: recipient.legal_name,
          amount: share,
        };
      });
      const method = choose.weighted([
        ['Credit Card', 6],
        ['Check', 2],
        ['Cash', 1],
      ] as const);
      const actionDate = recently(60);
      const donation: JsonObject = {
        action_date: actionDate,
        amount,
        currency: 'USD',
        recipients: shares,
        payment:
          method === 'Credit Card'
            ? {
                method,
                reference_number: `ch_${choose.hex(16)}`,
                authorization_stored: choose.chance(0.3),
              }
            : method === 'Check'
              ? { method, reference_number: String(choose.int(1001, 4999)) }
              : { method },
        referrer_data: { ...choose.pick(REFERRERS) },
      };
      if (choose.chance(0.15)) donation.subscription_instance = `monthly-${choose.hex(8)}`;
      if (index === voided) {
        donation.voided = true;
        donation.voided_date = new Date(Date.parse(actionDate) + 2 * DAY).toISOString();
      }
      return donation;
    },
    links: { person: THE_ACTOR, fundraising_page: page },
    remember: { group: 'donors', when: (donation) => donation.voided !== true },
  };
}

/** Creates `park fund` and `relief fund`, then their donations. */
export const FUNDRAISING_STEPS: readonly Step[] = [
  {
    create: 'fundraising_page',
    name: 'park fund',
    fields: {
      title: 'Willow Bend Park Legal Defense Fund',
      name: 'park-legal-fund',
      summary: 'Help us take the north meadow lease to court.',
      description:
        'Every dollar pays for land-use attorneys and the environmental review challenge.',
      currency: 'USD',
      browser_url: `${PARK_SITE}/donate`,
      share_url: `${PARK_SITE}/donate`,
    },
    links: { creator: 'organizer' },
  },
  {
    create: 'fundraising_page',
    name: 'relief fund',
    fields: {
      title: 'Tenant Emergency Relief Fund',
      name: 'tenant-relief',
      summary: 'Space heaters, hotel nights and legal fees for neighbours in crisis.',
      currency: 'USD',
      browser_url: `${UNION_SITE}/relief`,
    },
    links: { creator: 'second organizer' },
  },
  donations(
    'park fund',
    [
      {
        display_name: 'Friends of Willow Bend Park',
        legal_name: 'Friends of Willow Bend Park Inc.',
        share: 1,
      },
    ],
    1,
  ),
  donations('relief fund', [
    {
      display_name: 'Riverside Tenants Union',
      legal_name: 'Riverside Tenants Union',
      share: 0.8,
    },
    {
      display_name: 'Brooklyn Housing Legal Aid',
      legal_name: 'Brooklyn Housing Legal Aid Society',
      share: 0.2,
    },
  ]),
];
