/** The share options of a petition or share page, with per-network share counts. */
import type { JsonObject } from '../../storage/storage.js';
import type { Chooser } from '../chooser.js';

/** What a share says on each network. */
export interface ShareText {
  title: string;
  description: string;
  message: string;
  subject: string;
  body: string;
}

/**
 * A page's share options: every network with a share count drawn from the PRNG, and a
 * short link.
 */
export function shareOptions(
  choose: Chooser,
  text: ShareText,
  url: string,
  image: string,
): JsonObject[] {
  return [
    {
      network_a_share: {
        title: text.title,
        description: text.description,
        image,
        total_shares: choose.int(40, 220),
      },
      network_b_share: { message: text.message, total_shares: choose.int(10, 90) },
      email_share: { subject: text.subject, body: text.body, total_shares: choose.int(60, 300) },
      mastodon_share: { message: `${text.message} #Brooklyn`, total_shares: choose.int(3, 40) },
    },
    {
      network_b_share: {
        message: `${text.title}: ${url}`,
        share_url: `${url}?utm_source=short`,
        total_shares: choose.int(5, 40),
      },
    },
  ];
}
