import * as z from 'zod/mini';
import type { AnyKind } from '../schema/kind.js';

/** A resource of a kind the SDK has no schema for: any JSON object. */
export type UntypedData = Record<string, unknown>;

const anyRecord = z.record(z.string(), z.unknown());

/**
 * A kind without schema, relations or helpers, under the given names: what the
 * navigator reads a record as when its kind is not registered with the connection.
 *
 * @internal
 */
export function untypedKindOf(singular: string, plural: string): AnyKind {
  return {
    singular,
    plural,
    description: `A ${singular} (no schema registered)`,
    schema: anyRecord,
    writeSchema: anyRecord,
    strictSchema: anyRecord,
    extendedSchema: anyRecord,
    readOnly: ['_links', '_embedded'],
    relations: {},
    helpers: {},
  };
}

/**
 * The kind used when following a relation whose target the SDK does not type: the
 * document's members are kept as they are.
 *
 * @internal
 */
export const untypedKind: AnyKind = untypedKindOf('resource', 'resources');
