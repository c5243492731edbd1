/**
 * Whether a target holds a copy of a source: every kind read from both servers with the
 * SDK, and each source record held to its copy. The answer is a list of differences,
 * each naming the kind, the source record and the member that differs, so that a test
 * asserting the list is empty fails with what is wrong and where.
 *
 * A copy is found by the source's identifiers: it carries each of them, the source's
 * own `<namespace>:<id>` spelled `<sourceSystem>:<id>`. Each source record must have
 * exactly one copy, and the target no record that is a copy of nothing. Members are
 * compared once what a server owns is taken away (`created_date` and `modified_date`,
 * except a donation's `created_date`, which is the donation's own; the kind's read-only
 * members; `_links`; the target's own identifier; Action Network's native ids of what
 * an action links to, `action_network:person_id`; the status Action Network gives a
 * phone number or email address sent without one, and `unsubscribed` for a status it
 * does not take). Relations must lead to the copies of
 * what the source's lead to; totals (`total_signatures`, …) must be equal. Date-times are
 * equal when they name the same second (Action Network writes whole seconds, in UTC),
 * money when it is the same amount (a decimal string under Action Network's preset).
 */
import type { BaseClient } from '../../src/index.js';
import type { AnyKind, OneRelation } from '../../src/schema/kind.js';
import { KINDS } from '../../src/schema/kinds/index.js';

/** One way a target's copy differs from its source. */
export interface Difference {
  /** The kind, by plural name. */
  kind: string;
  /** The source record's address (or the target's, for a record that is a copy of nothing). */
  record: string;
  /** The member or relation (`given_name`, `_links.std:person`, `identifiers`), when one differs. */
  member?: string;
  /** What is wrong, in words. */
  problem: string;
  /** The source's value, normalised as compared. */
  source?: unknown;
  /** The copy's value, normalised as compared. */
  target?: unknown;
}

/** Options of {@link compareCopies}. */
export interface CompareOptions {
  /** The `sourceSystem` the sync was given: the source's own identifiers are spelled with it. */
  sourceSystem: string;
  /** The kinds to compare, by plural name. Default: every kind of the specification the source links. */
  kinds?: readonly string[];
  /**
   * Kinds the target cannot hold (a read-only collection: Action Network's lists and
   * items): not compared, and relations to their records not either.
   */
  skip?: readonly string[];
  /** Source records the target refused (their addresses): no copy is expected of them. */
  refused?: readonly string[];
}

/** A record as read for comparing. */
interface Read {
  url: string;
  /** The last segment of its address: its id on its server. */
  id: string;
  members: Record<string, unknown>;
  identifiers: string[];
  /** Relation name → the id of the record linked (undefined: no link). */
  links: Record<string, string | undefined>;
}

/** Members a server owns beyond a kind's read-only ones: never compared as members. */
const SERVER_MEMBERS = new Set(['identifiers', 'created_date', 'modified_date']);
/** Action Network's native ids of the records an action links to. */
const NATIVE_ID = /^action_network:[a-z_]+_id$/;
/** Members holding money: compared as amounts. */
const MONEY = new Set(['amount', 'credited_amount', 'total_amount']);
/** A date-time in any spelling a server writes (RFC 3339, or with a space and no zone). */
const DATE_TIME = /^\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?$/i;

/** The kinds of the specification by plural name. */
const KIND_BY_PLURAL = new Map<string, AnyKind>(KINDS.map((kind) => [kind.plural, kind]));

/** The id part of a record's address. */
function idOf(url: string): string {
  const path = new URL(url).pathname.replace(/\/+$/, '');
  return decodeURIComponent(path.slice(path.lastIndexOf('/') + 1));
}

/**
 * A value as compared: date-times as the second they name, money as a number, objects
 * with their keys sorted (JSON's order means nothing), nulls dropped from objects.
 *
 * @example
 * ```ts
 * normalise({ amount: '25.00', at: '2026-11-02T22:29:16.123Z' });
 * // { amount: 25, at: '<instant 2026-11-02T22:29:16.000Z>' }
 * ```
 */
export function normalise(value: unknown, key?: string): unknown {
  if (key !== undefined && MONEY.has(key)) {
    const amount = typeof value === 'string' ? Number(value) : value;
    if (typeof amount === 'number' && !Number.isNaN(amount)) return amount;
  }
  if (typeof value === 'string' && DATE_TIME.test(value)) {
    const zoned = /(Z|[+-]\d\d:?\d\d)$/i.test(value) ? value : `${value.replace(' ', 'T')}Z`;
    const ms = Date.parse(zoned.replace(' ', 'T'));
    if (!Number.isNaN(ms))
      return `<instant ${new Date(Math.floor(ms / 1000) * 1000).toISOString()}>`;
  }
  if (Array.isArray(value)) return value.map((item) => normalise(item));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const name of Object.keys(value).sort()) {
      const member = (value as Record<string, unknown>)[name];
      if (member !== null && member !== undefined) out[name] = normalise(member, name);
    }
    return out;
  }
  return value;
}

/** The members of a record compared as members (what a server owns taken away). */
function comparedMembers(kind: AnyKind, members: Record<string, unknown>): Record<string, unknown> {
  const owned = new Set(kind.readOnly);
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(members)) {
    const ownDate = name === 'created_date' && kind.clientCreatedDate === true;
    if (!ownDate && (SERVER_MEMBERS.has(name) || owned.has(name))) continue;
    if (NATIVE_ID.test(name) || name.startsWith('total_')) continue;
    out[name] = value;
  }
  return out;
}

/**
 * What a target gives a member the source left out, by the target's namespace: Action
 * Network's people POST (its signup rules) makes a phone number `unsubscribed` and an
 * email address `subscribed` unless told otherwise. A source member without a status is
 * compared as if it had the target's.
 */
const TARGET_DEFAULTS: Readonly<Record<string, Readonly<Record<string, JsonDefaults>>>> = {
  action_network: {
    people: {
      phone_numbers: { status: 'unsubscribed' },
      email_addresses: { status: 'subscribed' },
    },
  },
};

/**
 * The subscription statuses a target takes, by its namespace: Action Network's people
 * POST takes `subscribed` and `unsubscribed` only, so a sync writes any other status
 * (`bouncing`) as `unsubscribed` (never a subscription), and a source status it does not
 * take is compared as that.
 */
const TARGET_STATUSES: Readonly<Record<string, readonly string[]>> = {
  action_network: ['subscribed', 'unsubscribed'],
};

/** The list members whose elements carry a subscription status. */
const WITH_STATUS = ['email_addresses', 'phone_numbers'];

/** The members with each status the target does not take spelled `unsubscribed`. */
function withTakenStatuses(
  members: Record<string, unknown>,
  taken: readonly string[] | undefined,
): Record<string, unknown> {
  if (taken === undefined) return members;
  const out = { ...members };
  for (const name of WITH_STATUS) {
    const list = out[name];
    if (!Array.isArray(list)) continue;
    out[name] = list.map((element: unknown) => {
      if (element === null || typeof element !== 'object') return element;
      const status = (element as { status?: unknown }).status;
      return typeof status === 'string' && !taken.includes(status)
        ? { ...element, status: 'unsubscribed' }
        : element;
    });
  }
  return out;
}

/** Per list member, the defaults of its elements' members. */
type JsonDefaults = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

/**
 * The source's members with the target's defaults filled in where the source left a
 * member out and the copy (its element at the same place) holds exactly the default.
 */
function withDefaults(
  members: Record<string, unknown>,
  copy: Record<string, unknown>,
  defaults: JsonDefaults | undefined,
): Record<string, unknown> {
  if (defaults === undefined) return members;
  const out = { ...members };
  for (const [name, filled] of Object.entries(defaults)) {
    const list = out[name];
    const copied = copy[name];
    if (!Array.isArray(list) || !Array.isArray(copied)) continue;
    out[name] = list.map((element: unknown, at) => {
      const held: unknown = copied[at];
      if (
        element === null ||
        typeof element !== 'object' ||
        held === null ||
        typeof held !== 'object'
      ) {
        return element;
      }
      const added = Object.entries(filled).filter(
        ([member, value]) =>
          !(member in element) && (held as Record<string, unknown>)[member] === value,
      );
      return { ...Object.fromEntries(added), ...element };
    });
  }
  return out;
}

/** The totals of a record (`total_signatures`, …), compared apart. */
function totalsOf(members: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(members).filter(([name]) => name.startsWith('total_')));
}

/** Relations a server sets by itself (who changed a record last): not the copy's to carry. */
const SERVER_RELATIONS = new Set(['std:modified_by']);

/** The one-relations of a kind (a signature's person and petition). */
function oneRelations(kind: AnyKind): [string, OneRelation][] {
  return Object.values(kind.relations)
    .filter(
      (relation): relation is OneRelation =>
        relation.type === 'one' && !SERVER_RELATIONS.has(relation.rel),
    )
    .map((relation) => [relation.rel, relation]);
}

/** Every record of `kind` on `client`, or undefined when the server links no such collection. */
async function readAll(client: BaseClient, kind: AnyKind): Promise<Read[] | undefined> {
  const collection = client.collection(kind);
  try {
    await collection.url();
  } catch {
    return undefined;
  }
  const records: Read[] = [];
  for await (const resource of collection.items()) {
    const links: Record<string, string | undefined> = {};
    for (const [rel] of oneRelations(kind)) {
      const href = resource.link(rel)?.href;
      links[rel] = href === undefined ? undefined : idOf(new URL(href, resource.url).href);
    }
    records.push({
      url: resource.url,
      id: idOf(resource.url),
      members: resource.document.properties,
      identifiers: resource.identifiers,
      links,
    });
  }
  return records;
}

/** The same JSON, for `a` and `b` as normalised. */
function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Compares the copy on `to` with its source on `from`: an empty list when every source
 * record has exactly one copy, equal to it.
 *
 * @example
 * ```ts
 * const differences = await compareCopies(from, to, { sourceSystem: 'origin' });
 * expect(describeDifferences(differences)).toBe('');
 * ```
 */
export async function compareCopies(
  from: BaseClient,
  to: BaseClient,
  options: CompareOptions,
): Promise<Difference[]> {
  const differences: Difference[] = [];
  const sourceNamespace = from.entryPoint.namespace ?? undefined;
  const targetNamespace = to.entryPoint.namespace;
  const skipped = new Set(options.skip ?? []);
  const refused = new Set(options.refused ?? []);
  const plurals = options.kinds ?? KINDS.map((kind) => kind.plural);
  const kinds = plurals
    .filter((plural) => !skipped.has(plural))
    .map((plural) => {
      const kind = KIND_BY_PLURAL.get(plural);
      if (!kind) throw new Error(`no kind of the specification is named ${plural}`);
      return kind;
    });

  // First every kind's records and their copies: relations need the copies of all kinds.
  const read: { kind: AnyKind; pairs: [Read, Read][] }[] = [];
  /** `<singular>:<source id>` → the id of its copy. */
  const copyOf = new Map<string, string>();
  for (const kind of kinds) {
    const sources = await readAll(from, kind);
    if (sources === undefined) {
      if (options.kinds !== undefined) {
        differences.push({
          kind: kind.plural,
          record: from.root.url,
          problem: 'the source links no such collection',
        });
      }
      continue;
    }
    const targets = await readAll(to, kind);
    if (targets === undefined) {
      if (sources.length > 0) {
        differences.push({
          kind: kind.plural,
          record: to.root.url,
          problem: 'the target links no such collection',
        });
      }
      continue;
    }
    const byIdentifier = new Map<string, Read[]>();
    for (const target of targets) {
      for (const identifier of target.identifiers) {
        byIdentifier.set(identifier, [...(byIdentifier.get(identifier) ?? []), target]);
      }
    }
    const pairs: [Read, Read][] = [];
    const matched = new Set<Read>();
    for (const source of sources) {
      if (refused.has(source.url)) continue;
      const own = `${options.sourceSystem}:${source.id}`;
      const copies = byIdentifier.get(own) ?? [];
      for (const copy of copies) matched.add(copy);
      if (copies.length !== 1) {
        differences.push({
          kind: kind.plural,
          record: source.url,
          problem:
            copies.length === 0
              ? `no copy on the target (none carries ${own})`
              : `${copies.length} copies on the target carry ${own}: ${copies.map((copy) => copy.url).join(', ')}`,
        });
        continue;
      }
      const copy = copies[0] as Read;
      pairs.push([source, copy]);
      copyOf.set(`${kind.singular}:${source.id}`, copy.id);
    }
    for (const target of targets) {
      if (matched.has(target)) continue;
      differences.push({
        kind: kind.plural,
        record: target.url,
        problem: `a record on the target that is a copy of no source record (identifiers ${JSON.stringify(target.identifiers)})`,
      });
    }
    read.push({ kind, pairs });
  }

  const compared = new Set(kinds.map((kind) => kind.singular));
  for (const { kind, pairs } of read) {
    for (const [source, copy] of pairs) {
      const expected = source.identifiers
        .map((identifier) =>
          sourceNamespace !== undefined && identifier.startsWith(`${sourceNamespace}:`)
            ? `${options.sourceSystem}:${identifier.slice(sourceNamespace.length + 1)}`
            : identifier,
        )
        .sort();
      const carried = copy.identifiers
        .filter(
          (identifier) =>
            !identifier.startsWith(`${targetNamespace}:`) || expected.includes(identifier),
        )
        .sort();
      if (!same(expected, carried)) {
        differences.push({
          kind: kind.plural,
          record: source.url,
          member: 'identifiers',
          problem: 'identifiers differ',
          source: expected,
          target: carried,
        });
      }

      const defaults = TARGET_DEFAULTS[targetNamespace ?? '']?.[kind.plural];
      const want = normalise(
        comparedMembers(
          kind,
          withTakenStatuses(
            withDefaults(source.members, copy.members, defaults),
            // Only a sync writes statuses anew: a server compared with itself holds its own.
            kind.plural === 'people' && from.root.url !== to.root.url
              ? TARGET_STATUSES[targetNamespace ?? '']
              : undefined,
          ),
        ),
      ) as Record<string, unknown>;
      const got = normalise(comparedMembers(kind, copy.members)) as Record<string, unknown>;
      for (const name of new Set([...Object.keys(want), ...Object.keys(got)])) {
        if (!same(want[name], got[name])) {
          differences.push({
            kind: kind.plural,
            record: source.url,
            member: name,
            problem: 'member differs',
            source: want[name],
            target: got[name],
          });
        }
      }

      const totals = normalise(totalsOf(source.members)) as Record<string, unknown>;
      const copyTotals = normalise(totalsOf(copy.members)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(totals)) {
        if (!same(value, copyTotals[name])) {
          differences.push({
            kind: kind.plural,
            record: source.url,
            member: name,
            problem: 'total differs',
            source: value,
            target: copyTotals[name],
          });
        }
      }

      for (const [rel, relation] of oneRelations(kind)) {
        const linked = source.links[rel];
        const copyLinked = copy.links[rel];
        if (linked === undefined) {
          if (copyLinked !== undefined) {
            differences.push({
              kind: kind.plural,
              record: source.url,
              member: `_links.${rel}`,
              problem: 'the copy links a record the source does not',
              target: copyLinked,
            });
          }
          continue;
        }
        // A relation to a kind not compared (or not held by the target) is not checked.
        if (!compared.has(relation.kind)) continue;
        const expectedId = copyOf.get(`${relation.kind}:${linked}`);
        if (expectedId === undefined) {
          differences.push({
            kind: kind.plural,
            record: source.url,
            member: `_links.${rel}`,
            problem: `the source links ${relation.kind} ${linked}, which has no copy`,
            target: copyLinked,
          });
        } else if (copyLinked !== expectedId) {
          differences.push({
            kind: kind.plural,
            record: source.url,
            member: `_links.${rel}`,
            problem: `the copy should link the copy ${expectedId} of ${relation.kind} ${linked}`,
            target: copyLinked,
          });
        }
      }
    }
  }
  return differences;
}

/**
 * The differences, one a line, for a test's failure message (`''` when there are none);
 * at most `limit` lines, then how many more.
 *
 * @example
 * ```ts
 * expect(describeDifferences(await compareCopies(from, to, { sourceSystem }))).toBe('');
 * ```
 */
export function describeDifferences(differences: readonly Difference[], limit = 40): string {
  const lines = differences.slice(0, limit).map((difference) => {
    const where = difference.member ? ` ${difference.member}` : '';
    const values =
      'source' in difference || 'target' in difference
        ? `: source ${JSON.stringify(difference.source)}, target ${JSON.stringify(difference.target)}`
        : '';
    return `${difference.kind} ${difference.record}${where}: ${difference.problem}${values}`;
  });
  if (differences.length > limit) lines.push(`… and ${differences.length - limit} more`);
  return lines.join('\n');
}

/**
 * How many records of each kind have a copy, by the identifiers: for a summary line or
 * a test that only counts.
 *
 * @example
 * ```ts
 * await countRecords(to, ['people', 'signatures']); // { people: 300, signatures: 95 }
 * ```
 */
export async function countRecords(
  client: BaseClient,
  plurals: readonly string[],
): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const plural of plurals) {
    const kind = KIND_BY_PLURAL.get(plural);
    if (!kind) throw new Error(`no kind of the specification is named ${plural}`);
    counts[plural] = (await readAll(client, kind))?.length ?? 0;
  }
  return counts;
}
