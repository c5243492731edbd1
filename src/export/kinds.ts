/**
 * The collections the export command can walk: every kind of the specification
 * (`schema/kinds/index.ts`), named by its collection relation without the curie
 * (`people` for `std:people`), people first.
 */
import { type AnyKind, KINDS } from '../schema/index.js';

/** A resource kind whose members the exporter reads as plain JSON. */
export type ExportableKind = AnyKind;

/** The collection names the exporter knows, people first. */
export const EXPORTABLE_COLLECTIONS: readonly string[] = KINDS.map((kind) => kind.plural);

/**
 * The kind of a collection named `people`, `std:people` or `osdi:people` (any curie
 * prefix: the server's own is resolved when connecting), or undefined.
 *
 * @example
 * ```ts
 * import { exportableKind } from './kinds.js';
 *
 * exportableKind('std:signatures')?.singular; // 'signature'
 * ```
 */
export function exportableKind(name: string): ExportableKind | undefined {
  const plural = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
  return KINDS.find((kind) => kind.plural === plural);
}
