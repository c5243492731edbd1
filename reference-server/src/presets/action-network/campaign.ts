/**
 * Action Network's campaigns on the reference server (`docs/v2/campaigns`): a read-only
 * collection. Action Network makes campaigns in its interface only, so clients can list
 * and read them, and every write is 405; the records come from the demo data
 * (`seed.ts`), written straight to storage with their `actions`.
 */

import { campaignKind } from 'adis-sdk/server-kit';
import { serveKind } from '../../domain/define-kind.js';
import type { ResourceKind } from '../../domain/kinds.js';

/**
 * The server's campaign: the SDK's declaration (`campaignKind`), not writable.
 */
export const campaignServerKind: ResourceKind = serveKind(campaignKind, {
  title: 'The collection of campaigns in the system',
  writable: false,
});
