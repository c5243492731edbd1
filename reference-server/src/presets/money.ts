/**
 * How a preset's server writes money: JSON numbers (the plain server), or decimal
 * strings with two decimals (`"25.00"`) as Action Network writes them. Money is stored
 * as numbers either way (the schemas parse `"25.00"` to 25), so totals are sums; only
 * what a record looks like when rendered changes.
 */
import type { ResourceKind } from '../domain/kinds.js';
import { isPlainObject } from '../domain/merge.js';
import type { JsonObject } from '../storage/storage.js';
import type { ServingPreset } from './serving-preset.js';

/** Step of a money path into every element of a list. */
const EACH = '*';

/**
 * Where each kind of the specification keeps money, by singular name: the members the
 * SDK declares with `money()` (written) or reads as money (totals), as paths, `*`
 * stepping into each element of a list.
 */
const MONEY_MEMBERS: Readonly<Record<string, readonly (readonly string[])[]>> = {
  donation: [['amount'], ['credited_amount'], ['recipients', EACH, 'amount']],
  attendance: [['tickets', EACH, 'amount']],
  event: [
    ['total_amount'],
    ['ticket_levels', EACH, 'amount'],
    ['ticket_levels', EACH, 'total_amount'],
  ],
  fundraising_page: [['total_amount']],
};

/** An amount as Action Network writes it: `25` is `"25.00"`. Anything else as it is. */
function decimalString(value: unknown): unknown {
  return typeof value === 'number' && Number.isFinite(value) ? value.toFixed(2) : value;
}

/** `value` with the money at `path` written as a decimal string (a copy where it changes). */
function withTextAt(value: unknown, path: readonly string[]): unknown {
  const [step, ...rest] = path;
  if (step === undefined) return decimalString(value);
  if (step === EACH) {
    return Array.isArray(value) ? value.map((element) => withTextAt(element, rest)) : value;
  }
  if (!isPlainObject(value) || !(step in value)) return value;
  return { ...value, [step]: withTextAt(value[step], rest) } as JsonObject;
}

/**
 * A document with its money (at `paths`) written as decimal strings with two decimals;
 * members that are not numbers are left as they are, so applying it twice is harmless.
 *
 * @example
 * ```ts
 * import { moneyAsText } from './money.js';
 *
 * moneyAsText({ amount: 25, recipients: [{ amount: 5.5 }] }, [['amount'], ['recipients', '*', 'amount']]);
 * // { amount: '25.00', recipients: [{ amount: '5.50' }] }
 * ```
 */
export function moneyAsText(doc: JsonObject, paths: readonly (readonly string[])[]): JsonObject {
  let out: unknown = doc;
  for (const path of paths) out = withTextAt(out, path);
  return out as JsonObject;
}

/**
 * The kind under the preset's money: under `decimal-string`, a kind that holds money
 * (donations, attendances, events, fundraising pages) renders it as decimal strings
 * (`"25.00"`), its own members through a `view` and its totals through `renderTotals`;
 * other kinds, and every kind under `number`, are the same object (a view makes a kind's
 * records render the slow way, so only kinds with money get one).
 *
 * @example
 * ```ts
 * import { donationKind } from 'adis-sdk/schema';
 * import { ACTION_NETWORK_PRESET, serveKind } from 'adis-server';
 * import { withMoney } from './money.js';
 *
 * const donations = withMoney(serveKind(donationKind), ACTION_NETWORK_PRESET);
 * donations.view?.({ amount: 25 }, new Date()); // { amount: '25.00' }
 * ```
 */
export function withMoney(kind: ResourceKind, preset: ServingPreset): ResourceKind {
  const paths = MONEY_MEMBERS[kind.singular];
  if (preset.money === 'number' || !paths) return kind;
  const { view, renderTotals } = kind;
  const hasTotals = (kind.totals?.length ?? 0) > 0 || renderTotals !== undefined;
  return {
    ...kind,
    view: (doc, now) => moneyAsText(view ? view(doc, now) : doc, paths),
    ...(hasTotals
      ? {
          renderTotals: (doc: JsonObject, totals: Record<string, number>) =>
            moneyAsText(renderTotals ? renderTotals(doc, totals) : { ...doc, ...totals }, paths),
        }
      : {}),
  };
}
