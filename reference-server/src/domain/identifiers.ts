/**
 * Identifier rules (spec, Common fields): every record has the local identifier
 * `<namespace>:<id>`, assigned by the server and always kept; identifiers of other
 * systems sent by the client are kept too; identifiers are unique per tenant and kind.
 */
import { randomUUID } from 'node:crypto';
import { ApiError, ErrorCode, type ErrorDescription } from './errors.js';

/**
 * A new record id (a UUID): unguessable, so ids do not leak record counts.
 *
 * @example
 * ```ts
 * newRecordId(); // 'c0a8012e-...'
 * ```
 */
export function newRecordId(): string {
  return randomUUID();
}

/**
 * The local identifier of a record.
 *
 * @example
 * ```ts
 * localIdentifier('adis', 'c0a8012e'); // 'adis:c0a8012e'
 * ```
 */
export function localIdentifier(namespace: string, id: string): string {
  return `${namespace}:${id}`;
}

/**
 * Whether `identifier` is in the local namespace.
 *
 * @example
 * ```ts
 * isLocalIdentifier('adis:1', 'adis'); // true
 * ```
 */
export function isLocalIdentifier(identifier: string, namespace: string): boolean {
  return identifier.startsWith(`${namespace}:`);
}

/**
 * The identifiers to store: the local one first, then the client's foreign ones.
 * A client identifier in the local namespace is refused (400
 * LOCAL_IDENTIFIER_NOT_ALLOWED) unless it is the record's own local identifier, which
 * is simply kept: only the server mints local identifiers.
 *
 * @example
 * ```ts
 * resolveIdentifiers('adis', 'adis:1', ['crm:9']); // ['adis:1', 'crm:9']
 * ```
 */
export function resolveIdentifiers(
  namespace: string,
  local: string,
  sent: readonly string[] | null | undefined,
  resource: string,
  property = 'identifiers',
): string[] {
  const errors: ErrorDescription[] = [];
  const result = [local];
  (sent ?? []).forEach((identifier, index) => {
    if (identifier === local) return;
    if (isLocalIdentifier(identifier, namespace)) {
      errors.push({
        error_code: ErrorCode.LOCAL_IDENTIFIER_NOT_ALLOWED,
        description: `${property}[${index}]: identifiers in the local namespace "${namespace}" are assigned by the server`,
        properties: [`${property}[${index}]`],
        hint: `send only identifiers of other systems; the server adds ${namespace}:<id>`,
      });
      return;
    }
    if (!result.includes(identifier)) result.push(identifier);
  });
  if (errors.length > 0) throw new ApiError(400, errors, resource);
  return result;
}

/**
 * Builds the 400 for identifiers already used by other records.
 *
 * @example
 * ```ts
 * throw duplicateIdentifierError(['crm:9'], ['crm:9'], 'std:person');
 * ```
 */
export function duplicateIdentifierError(
  identifiers: readonly string[],
  taken: readonly string[],
  resource: string,
  property = 'identifiers',
): ApiError {
  return new ApiError(
    400,
    taken.map((identifier) => {
      const index = identifiers.indexOf(identifier);
      const where = index >= 0 ? `${property}[${index}]` : property;
      return {
        error_code: ErrorCode.DUPLICATE_IDENTIFIER,
        description: `${where}: ${identifier} already identifies another record`,
        properties: [where],
        hint: 'identifiers are unique per resource type; update that record instead',
      };
    }),
    resource,
  );
}
