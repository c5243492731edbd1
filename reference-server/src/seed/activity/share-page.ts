/** A share page spreading the word before the park hearing. */
import type { RecordStep } from '../steps.js';
import { PARK_SITE } from './group.js';
import { shareOptions } from './share-options.js';

/** Creates the share page, with share counts drawn from the PRNG. */
export const SHARE_PAGE_STEPS: readonly RecordStep[] = [
  {
    create: 'share_page',
    fields: ({ choose }) => ({
      title: 'Tell your neighbours about Willow Bend',
      name: 'share-willow-bend',
      description: 'Spread the word before the Parks Department hearing.',
      share_url: `${PARK_SITE}/join`,
      share_options: shareOptions(
        choose,
        {
          title: 'Willow Bend Park needs you',
          description: 'The hearing on the north meadow lease is coming up. Join us.',
          message: 'Our park is on the line. Join the Friends of Willow Bend Park:',
          subject: 'Can you come to the park hearing?',
          body: 'The city wants to lease part of Willow Bend Park. Find out how to help: {share_url}',
        },
        `${PARK_SITE}/join`,
        `${PARK_SITE}/images/pond.jpg`,
      ),
    }),
    links: { creator: 'organizer' },
  },
];
