/**
 * Identifiers of the form `<system name>:<id>` (spec, Common fields). A record carries
 * its identifier in the serving system's namespace (the entry point's `namespace`) and
 * may carry identifiers of other systems it was synced with.
 */

/** An identifier split into its system name and the id within that system. */
export interface ParsedIdentifier {
  /** The system name (`adis`, `crm`), the part before the first colon. */
  system: string;
  /** The id within that system; may itself contain colons. */
  id: string;
}

/**
 * Splits `<system>:<id>` at the first colon: system names have no colon, ids may (URNs,
 * compound keys). Throws a TypeError for a string that is not an identifier.
 *
 * @example
 * ```ts
 * import { parseIdentifier } from 'adis-sdk/schema';
 *
 * parseIdentifier('crm:881'); // { system: 'crm', id: '881' }
 * parseIdentifier('vendor:urn:x:1'); // { system: 'vendor', id: 'urn:x:1' }
 * ```
 */
export function parseIdentifier(identifier: string): ParsedIdentifier {
  const colon = identifier.indexOf(':');
  const system = identifier.slice(0, colon);
  const id = identifier.slice(colon + 1);
  if (colon <= 0 || id === '' || /\s/.test(system)) {
    throw new TypeError(
      `Not an identifier of the form <system name>:<id>: ${JSON.stringify(identifier)}`,
    );
  }
  return { system, id };
}

/**
 * Builds `<system>:<id>`. Throws a TypeError when the system name is empty or has a
 * colon or whitespace, or the id is empty.
 */
export function formatIdentifier(system: string, id: string): string {
  if (system === '' || /[:\s]/.test(system) || id === '') {
    throw new TypeError(`Cannot build an identifier from ${JSON.stringify([system, id])}`);
  }
  return `${system}:${id}`;
}

/**
 * The identifiers of one system, in order. Strings that are not identifiers are skipped.
 *
 * @example
 * ```ts
 * import { identifiersOf } from 'adis-sdk/schema';
 *
 * identifiersOf(['adis:1', 'crm:7', 'crm:8'], 'crm'); // ['crm:7', 'crm:8']
 * ```
 */
export function identifiersOf(identifiers: readonly string[], system: string): string[] {
  return identifiers.filter((identifier) => {
    const colon = identifier.indexOf(':');
    return colon > 0 && identifier.slice(0, colon) === system && colon < identifier.length - 1;
  });
}

/**
 * The record's identifier in the serving system: the first one in `namespace` (the
 * entry point's `namespace` field), or undefined.
 *
 * @example
 * ```ts
 * import { localIdentifier } from 'adis-sdk/schema';
 *
 * localIdentifier(['crm:7', 'adis:4c1e'], 'adis'); // 'adis:4c1e'
 * ```
 */
export function localIdentifier(
  identifiers: readonly string[],
  namespace: string,
): string | undefined {
  return identifiersOf(identifiers, namespace)[0];
}

/**
 * The id part of the record's local identifier, or undefined.
 *
 * @example
 * ```ts
 * import { localId } from 'adis-sdk/schema';
 *
 * localId(['crm:7', 'adis:4c1e'], 'adis'); // '4c1e'
 * ```
 */
export function localId(identifiers: readonly string[], namespace: string): string | undefined {
  const local = localIdentifier(identifiers, namespace);
  // Sliced rather than parsed: both parts come from the server (an entry point's
  // namespace may hold a space), and reading them must not throw.
  return local === undefined ? undefined : local.slice(namespace.length + 1);
}
