/**
 * A server kind built from the SDK's declaration of the kind (`adis-sdk/schema`): its
 * names, its write schema and read-only members, its links (the declaration's `one`
 * relations), its sub-collections (its `many` relations) and its helpers. The server
 * adds only its own rules (totals, checks, cascades, lookup keys…), so the links a
 * record carries are the relations the SDK follows, by construction.
 */
import {
  type AnyKind,
  type Helper,
  kindNamed,
  type ManyRelation,
  type OneRelation,
} from 'adis-sdk/schema';
import type { JsonObject, LookupKey } from '../storage/storage.js';
import type { RecordHelper, Reference, ResourceKind, SubCollection } from './kinds.js';
import { parseOrThrow } from './validation.js';

/** How the server presents one of a kind's helpers: its path below the record, its title. */
export interface HelperRule {
  /** Path below the record's URL (default: the relation, `record_signature_helper`). */
  path?: string;
  /** Title of the link (default: derived from the names). */
  title?: string;
}

/**
 * The server's own rules for a kind: everything of a {@link ResourceKind} the SDK's
 * declaration does not say. Everything not listed defaults to "none".
 */
export type ServerRules = Partial<
  Pick<
    ResourceKind,
    | 'title'
    | 'inEntryPoint'
    | 'writable'
    | 'filterKeys'
    | 'exactlyOneOf'
    | 'view'
    | 'requiredOnCreate'
    | 'oneRecordPer'
    | 'contributions'
    | 'totals'
    | 'renderTotals'
    | 'derive'
    | 'prepareInput'
    | 'check'
    | 'event'
  >
> & {
  lookupKeys?(doc: JsonObject): LookupKey[];
  /** Paths and titles of the declaration's helpers, by relation without the curie. */
  helpers?: Readonly<Record<string, HelperRule>>;
};

/** A declaration's kind by singular name (default: the specification's kinds). */
export type KindLookup = (singular: string) => AnyKind | undefined;

/**
 * A relation without the specification's curie.
 */
export function withoutCurie(rel: string): string {
  return rel.replace(/^std:/, '');
}

/** `fundraising_page` → `fundraising page`. */
function words(name: string): string {
  return name.replace(/_/g, ' ');
}

function article(word: string): string {
  return /^[aeiou]/.test(word) ? 'an' : 'a';
}

function relationsOf<T extends OneRelation | ManyRelation>(
  declaration: AnyKind,
  type: T['type'],
): T[] {
  return Object.values(declaration.relations).filter((r): r is T => r.type === type);
}

/**
 * The relation of `child` that points back at a record of `parent`: the one named like
 * the parent (an answer's `canvass`), else the only one to the parent's kind (an event's
 * `sponsor` to its organization), else the only required one (a canvass's `target`,
 * beside its optional `canvasser`). Without the curie.
 *
 * @example
 * ```ts
 * import { eventKind, organizationKind, petitionKind, signatureKind } from 'adis-sdk/schema';
 * import { backReference } from './define-kind.js';
 *
 * backReference(petitionKind, signatureKind); // 'petition'
 * backReference(organizationKind, eventKind); // 'sponsor'
 * ```
 */
export function backReference(parent: AnyKind, child: AnyKind): string {
  const back = relationsOf<OneRelation>(child, 'one').filter((r) => r.kind === parent.singular);
  const required = back.filter((r) => r.required);
  const found =
    back.find((r) => r.rel === `std:${parent.singular}`) ??
    (back.length === 1 ? back[0] : required.length === 1 ? required[0] : undefined);
  if (!found) {
    throw new Error(
      `${child.singular} has no one relation back to a ${parent.singular} (${back.length} candidates): declare one to serve the ${parent.singular}'s ${child.plural}`,
    );
  }
  return withoutCurie(found.rel);
}

function helperTitle(declaration: AnyKind, helper: Helper): string {
  const owner = words(declaration.singular);
  if (helper.type === 'record') {
    const record = words(helper.record);
    return `Record ${article(record)} ${record} of this ${owner}`;
  }
  return `${words(withoutCurie(helper.rel))} of this ${owner}`;
}

/**
 * The record's helper links: one per helper relation of the declaration (a message's
 * `send` and `stopSending` are one link, `std:send_helper`, with two methods). A helper
 * is anonymous when the declaration lets a caller without a key make one of its calls.
 */
function helpersOf(declaration: AnyKind, rules: ServerRules): RecordHelper[] {
  const byRel = new Map<string, RecordHelper>();
  for (const helper of Object.values(declaration.helpers)) {
    const rel = withoutCurie(helper.rel);
    const anonymous = helper.type === 'record' && helper.anonymous;
    const known = byRel.get(rel);
    if (known) {
      known.anonymous ||= anonymous;
      continue;
    }
    const rule = rules.helpers?.[rel];
    byRel.set(rel, {
      rel,
      path: rule?.path ?? rel,
      title: rule?.title ?? helperTitle(declaration, helper),
      anonymous,
    });
  }
  for (const rel of Object.keys(rules.helpers ?? {})) {
    if (!byRel.has(rel)) {
      throw new Error(`${declaration.singular} declares no helper std:${rel}`);
    }
  }
  return [...byRel.values()];
}

/**
 * Builds the server's {@link ResourceKind} from the SDK's declaration of the kind and the
 * server's own rules: `parse` validates with the declaration's write schema (every issue
 * an ErrorDescription), its read-only members and whether a client gives its
 * `created_date` are the declaration's, references come from its `one` relations,
 * sub-collections from its `many` relations (each listing the records whose relation
 * back points at the parent), helper links from its helpers.
 *
 * @example
 * ```ts
 * import { tagKind } from 'adis-sdk/schema';
 * import { serveKind } from 'adis-server';
 *
 * const tags = serveKind(tagKind, { requiredOnCreate: ['name'] });
 * tags.references.map((r) => r.rel); // ['creator', 'modified_by']
 * tags.subCollections.map((s) => s.plural); // ['taggings']
 * ```
 */
export function serveKind(
  declaration: AnyKind,
  rules: ServerRules = {},
  kinds: KindLookup = kindNamed,
): ResourceKind {
  const { helpers: _helperRules, ...serverRules } = rules;
  const references: Reference[] = relationsOf<OneRelation>(declaration, 'one').map((relation) => ({
    rel: withoutCurie(relation.rel),
    kinds: [relation.kind],
    required: relation.required,
  }));
  const subCollections: SubCollection[] = relationsOf<ManyRelation>(declaration, 'many').map(
    (relation) => {
      const child = kinds(relation.kind);
      if (!child) throw new Error(`${declaration.singular}: no kind named ${relation.kind}`);
      const plural = withoutCurie(relation.rel);
      return {
        plural,
        kind: relation.kind,
        via: backReference(declaration, child),
        title: `The ${words(declaration.singular)}'s ${words(plural)}`,
      };
    },
  );
  const helpers = helpersOf(declaration, rules);
  return {
    singular: declaration.singular,
    plural: declaration.plural,
    title: `The collection of ${words(declaration.plural)} in the system`,
    inEntryPoint: true,
    writable: true,
    readOnly: declaration.readOnly,
    ...(declaration.clientCreatedDate === true ? { clientCreatedDate: true } : {}),
    lookupKeys: () => [],
    references,
    subCollections,
    ...(helpers.length > 0 ? { helpers } : {}),
    ...serverRules,
    declaration,
    parse: (body) =>
      parseOrThrow(declaration.strictSchema, body, `std:${declaration.singular}`) as JsonObject,
  };
}
