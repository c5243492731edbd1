/**
 * CSV columns: which value of a record goes in each cell.
 *
 * A column is a path into the record's JSON: members joined by dots
 * (`gender_pronouns.subject`), array elements by index (`email_addresses.0.address`)
 * or by `[primary]`, the element whose `primary` is true, else the first one: servers
 * mark one member primary, and a spreadsheet wants that one.
 */

import { isJsonObject } from '../wire/json-object.js';
import type { ExportableKind } from './kinds.js';

/** One step of a column path. */
type Step = { member: string } | { index: number } | { primary: true };

/** A parsed column: its header text and the steps that lead to its value. */
export interface Column {
  readonly header: string;
  readonly steps: readonly Step[];
}

/** The pseudo-column holding the record's own URL (its `self` link). */
export const URL_COLUMN = 'url';

const SEGMENT = /^([A-Za-z_$][\w$-]*|\d+)?((?:\[(?:primary|\d+)\])*)$/;

/**
 * Parses a column path such as `email_addresses[primary].address`; throws a TypeError
 * that names the path when it is malformed.
 */
export function parseColumn(path: string): Column {
  const trimmed = path.trim();
  const steps: Step[] = [];
  for (const segment of trimmed.split('.')) {
    const match = SEGMENT.exec(segment);
    if (!match || segment === '') {
      throw new TypeError(
        `Column ${JSON.stringify(path)}: expected members joined by dots, with [primary] or [n] after a member, like email_addresses[primary].address`,
      );
    }
    const [, member, brackets = ''] = match;
    if (member !== undefined) {
      steps.push(/^\d+$/.test(member) ? { index: Number(member) } : { member });
    }
    for (const [, inner] of brackets.matchAll(/\[(primary|\d+)\]/g)) {
      steps.push(inner === 'primary' ? { primary: true } : { index: Number(inner) });
    }
  }
  return { header: trimmed, steps };
}

/**
 * The value at a column's path in `record`, or undefined when any step is missing.
 *
 * @example
 * ```ts
 * import { columnValue, parseColumn } from './columns.js';
 *
 * const person = { email_addresses: [{ address: 'bo@example.org' }, { address: 'ana@example.org', primary: true }] };
 * columnValue(parseColumn('email_addresses[primary].address'), person); // 'ana@example.org'
 * ```
 */
export function columnValue(column: Column, record: unknown): unknown {
  let value: unknown = record;
  for (const step of column.steps) {
    if ('member' in step) {
      value = isJsonObject(value) ? value[step.member] : undefined;
    } else if (!Array.isArray(value)) {
      return undefined;
    } else if ('index' in step) {
      value = value[step.index];
    } else {
      value = value.find((element) => isJsonObject(element) && isTrue(element.primary)) ?? value[0];
    }
    if (value === undefined) return undefined;
  }
  return value;
}

/**
 * The default columns of a kind: the record's URL, then every member of its read
 * schema in the schema's order (nested values as JSON text), without the HAL members.
 * People also get their primary email address and phone number in columns of their
 * own, since that is what a spreadsheet of people is for.
 *
 * @example
 * ```ts
 * import { personKind } from 'adis-sdk';
 * import { defaultColumns } from './columns.js';
 *
 * defaultColumns(personKind).map((c) => c.header).slice(0, 3);
 * // ['url', 'email_addresses[primary].address', 'phone_numbers[primary].number']
 * ```
 */
export function defaultColumns(kind: ExportableKind): Column[] {
  const schema: unknown = kind.schema;
  const shape = isJsonObject(schema) && isJsonObject(schema.shape) ? Object.keys(schema.shape) : [];
  const members = shape.filter((name) => name !== '_links' && name !== '_embedded');
  const convenience =
    kind.plural === 'people'
      ? ['email_addresses[primary].address', 'phone_numbers[primary].number']
      : [];
  return [URL_COLUMN, ...convenience, ...members].map(parseColumn);
}

// The specification's `primary` is a boolean, but some servers send "true" (see the
// reading notes on phone numbers); both mean primary.
function isTrue(value: unknown): boolean {
  return value === true || value === 'true';
}
