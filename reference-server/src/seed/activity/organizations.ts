/** The two organizations behind the demo activity; later steps link to them by name. */
import type { RecordStep } from '../steps.js';
import { PARK_SITE, UNION_ROOM, UNION_SITE } from './group.js';

/** Creates `park friends` and `tenants union`. */
export const ORGANIZATION_STEPS: readonly RecordStep[] = [
  {
    create: 'organization',
    name: 'park friends',
    fields: {
      organization: 'Friends of Willow Bend Park',
      legal_status: 'c3',
      summary: 'Neighbours who care for, and defend, Willow Bend Park.',
      description:
        'Since 2009 the Friends of Willow Bend Park have planted trees, run monthly cleanups and ' +
        'organized the neighbourhood against plans to sell part of the park for development.',
      site_url: PARK_SITE,
      logo_image_url: `${PARK_SITE}/logo.png`,
      languages_spoken: ['en', 'es'],
      email_addresses: [{ primary: true, address: 'hello@willowbendpark.example.org' }],
      phone_numbers: [{ primary: true, number: '17185550142', number_type: 'Work' }],
      postal_addresses: [
        {
          primary: true,
          address_type: 'Mailing',
          address_lines: ['PO Box 2231'],
          locality: 'Brooklyn',
          region: 'NY',
          postal_code: '11217',
          country: 'US',
        },
      ],
      profiles: [
        {
          provider: 'Mastodon',
          handle: 'willowbendpark',
          url: 'https://mastodon.example/@willowbendpark',
        },
      ],
    },
  },
  {
    create: 'organization',
    name: 'tenants union',
    fields: {
      organization: 'Riverside Tenants Union',
      legal_status: 'unofficial',
      summary: 'Tenants of Riverside Towers organizing for repairs and fair rents.',
      description:
        'A volunteer-run union of the 400 households of Riverside Towers. We hold building ' +
        'meetings, document repairs, and bargain with the landlord together.',
      site_url: UNION_SITE,
      languages_spoken: ['en', 'es', 'zh'],
      email_addresses: [{ primary: true, address: 'organize@riversidetenants.example.org' }],
      phone_numbers: [{ primary: true, number: '17185550178', number_type: 'Mobile' }],
      postal_addresses: [
        {
          primary: true,
          address_type: 'Work',
          ...UNION_ROOM,
        },
      ],
      custom_fields: { founded: '2019', households: '400' },
    },
  },
];
