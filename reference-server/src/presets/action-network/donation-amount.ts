/**
 * A donation's `amount` under Action Network's preset: the total of its `recipients`,
 * computed by the system (docs/v2/donations). The specification lets a donation carry an
 * amount its recipients share (they may not add up to more); Action Network has no
 * amount of its own beside theirs.
 */
import type { ResourceKind } from '../../domain/kinds.js';
import { isPlainObject } from '../../domain/merge.js';
import type { JsonObject } from '../../storage/storage.js';

/**
 * The donation with `amount` set to the sum of its recipients' amounts, when at least
 * one recipient has one (money is stored as numbers); else as it is.
 *
 * @example
 * ```ts
 * import { amountOfRecipients } from './donation-amount.js';
 *
 * amountOfRecipients({ recipients: [{ amount: 10 }, { amount: 2.5 }] }); // { recipients: […], amount: 12.5 }
 * ```
 */
export function amountOfRecipients(doc: JsonObject): JsonObject {
  const recipients = Array.isArray(doc.recipients) ? doc.recipients.filter(isPlainObject) : [];
  const amounts = recipients
    .map((recipient) => recipient.amount)
    .filter((amount): amount is number => typeof amount === 'number' && Number.isFinite(amount));
  if (amounts.length === 0) return doc;
  // Rounded past cents only: sums of binary fractions (0.1 + 0.2) are not exact.
  const total = Number(amounts.reduce((sum, amount) => sum + amount, 0).toFixed(6));
  return { ...doc, amount: total };
}

/**
 * The specification's donation under the preset: its `amount` derived from its
 * recipients whenever it is written (after what the kind derives already).
 *
 * @example
 * ```ts
 * import { donationKind } from 'adis-sdk/schema';
 * import { serveKind } from 'adis-server';
 * import { donationAmountFromRecipients } from './donation-amount.js';
 *
 * const served = donationAmountFromRecipients(serveKind(donationKind));
 * served.derive?.({ recipients: [{ amount: 3 }] }, {}).amount; // 3
 * ```
 */
export function donationAmountFromRecipients(kind: ResourceKind): ResourceKind {
  const { derive } = kind;
  return {
    ...kind,
    derive: (doc, refs) => amountOfRecipients(derive ? derive(doc, refs) : doc),
  };
}
