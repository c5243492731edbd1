/**
 * The body a copy is written with: the source record's members as the source sent them
 * (so that what was read is what is written: the round-trip rule), less what the server
 * owns, with the source's identifiers (its own re-spelled in the name it has on the
 * target) and its links pointing at the target's copies.
 */
import type { Resource } from '../navigator/resource.js';
import { parseIdentifier } from '../schema/identifiers.js';
import type { PlannedKind } from './plan.js';
import type { PersonMatch } from './state-store.js';

/** How the source's names become the target's. */
export interface CopyNames {
  /** The source's namespace (its own identifiers' system), if it says. */
  sourceNamespace: string | undefined;
  /** The system name those identifiers carry on the target. */
  sourceSystem: string;
  /** The target's namespace: identifiers in it name the target's records, never sent. */
  targetNamespace: string | undefined;
  /** The address of a source record's copy on the target, when there is one. */
  copyOf(source: string): string | undefined;
}

/** A body ready to send, or why the record cannot be copied. */
export type CopyBody = { ok: true; body: Record<string, unknown> } | { ok: false; reason: string };

/** Members that are HAL's, not the record's. */
const HAL_MEMBERS = ['_links', '_embedded'];

/**
 * The source's identifiers as the copy carries them: the source's own (`adis:4c1e`)
 * as `<sourceSystem>:4c1e`, others as they are, none in the target's namespace (the
 * target's own records' names, which it refuses from a client).
 */
export function copiedIdentifiers(identifiers: readonly string[], names: CopyNames): string[] {
  const out: string[] = [];
  for (const identifier of identifiers) {
    let parsed: { system: string; id: string };
    try {
      parsed = parseIdentifier(identifier);
    } catch {
      continue; // not `<system>:<id>`: no server would take it back
    }
    const system = parsed.system === names.sourceNamespace ? names.sourceSystem : parsed.system;
    if (system === names.targetNamespace) continue;
    const copied = `${system}:${parsed.id}`;
    if (!out.includes(copied)) out.push(copied);
  }
  return out;
}

/**
 * The identifier by which the copy of a source record can always be found on the
 * target: the source's own, re-spelled; undefined for a source that names none.
 */
export function sourceIdentifier(resource: Resource<object>, names: CopyNames): string | undefined {
  const own = resource.identifiers.find(
    (identifier) => identifier.split(':', 1)[0] === names.sourceNamespace,
  );
  return own === undefined ? undefined : copiedIdentifiers([own], names)[0];
}

/**
 * The write body of a copy of `resource`, of the kind `planned`: its members less the
 * server's, its identifiers copied, and `_links` to the copies of what it links (the
 * placement's parent is not linked: the copy is written under it). A required link
 * whose record has no copy makes it uncopyable (the reason says which).
 */
export function copyBody(
  planned: PlannedKind,
  resource: Resource<object>,
  names: CopyNames,
): CopyBody {
  const { kind } = planned;
  const body: Record<string, unknown> = {};
  for (const [member, value] of Object.entries(resource.document.body)) {
    if (HAL_MEMBERS.includes(member) || kind.readOnly.includes(member)) continue;
    body[member] = value;
  }
  if (Array.isArray(body.identifiers)) {
    body.identifiers = copiedIdentifiers(
      body.identifiers.filter((id): id is string => typeof id === 'string'),
      names,
    );
  }
  const links: Record<string, { href: string }> = {};
  for (const relation of planned.links) {
    const href = resource.link(relation.rel)?.url();
    if (href === undefined) continue;
    const copy = names.copyOf(href);
    if (copy !== undefined) {
      links[relation.rel] = { href: copy };
    } else if (relation.required || linksTarget(planned, relation.rel)) {
      // The reason names no record: refusals are counted by reason, the record is named beside it.
      return {
        ok: false,
        reason: `the ${relation.kind.replaceAll('_', ' ')} it links (${relation.rel}) has no copy`,
      };
    }
  }
  if (Object.keys(links).length > 0) body._links = links;
  return { ok: true, body };
}

/** Whether a relation is what a tagging tags: without it, the copy would tag nothing. */
function linksTarget(planned: PlannedKind, rel: string): boolean {
  return Object.values(planned.kind.relations).some(
    (relation) =>
      relation.type === 'anyOf' &&
      relation.of.some((name) => {
        const one = planned.kind.relations[name];
        return one?.type === 'one' && one.rel === rel;
      }),
  );
}

/**
 * How the target can match a person: her primary email address (else her first), or
 * else her primary phone number (else her first); undefined when she has neither.
 *
 * @example
 * ```ts
 * import { personMatch } from './copy-body.js';
 *
 * personMatch({ email_addresses: [{ address: 'ana@example.org', primary: true }] });
 * // { email: 'ana@example.org' }
 * ```
 */
export function personMatch(person: Record<string, unknown>): PersonMatch | undefined {
  const email = pick(person.email_addresses, 'address');
  if (email !== undefined) return { email };
  const phone = pick(person.phone_numbers, 'number');
  return phone === undefined ? undefined : { phone };
}

/** The `member` of the primary entry of a list, else of its first that has one. */
function pick(list: unknown, member: string): string | undefined {
  if (!Array.isArray(list)) return undefined;
  const entries = list.filter(
    (entry): entry is Record<string, unknown> =>
      typeof entry === 'object' && entry !== null && typeof entry[member] === 'string',
  );
  const chosen = entries.find((entry) => entry.primary === true) ?? entries[0];
  return chosen?.[member] as string | undefined;
}

/**
 * The person inline for a record helper (Action Network's signature POST): what the
 * target matches her by, and the identifier of her copy.
 *
 * @example
 * ```ts
 * import { inlinePerson } from './copy-body.js';
 *
 * inlinePerson({ email: 'ana@example.org' }); // { email_addresses: [{ address: 'ana@example.org' }] }
 * ```
 */
export function inlinePerson(match: PersonMatch): Record<string, unknown> {
  return 'email' in match
    ? { email_addresses: [{ address: match.email }] }
    : { phone_numbers: [{ number: match.phone }] };
}
