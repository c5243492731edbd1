/**
 * The SDK and the reference server agree on every kind's links: the relations the SDK
 * declares (`adis-sdk/schema`) are exactly the links the server's representations carry,
 * and its helpers exactly the helper links, served as declared (methods, calls without
 * a key). Each kind's records are created on a real in-memory server, with every
 * relation the kind can hold set, and read back.
 */
import {
  type AnyKind,
  type Helper,
  type HelperBodyName,
  KINDS,
  kindNamed,
  type ManyRelation,
  type OneRelation,
} from 'adis-sdk/schema';
import { strictHelperBodies } from 'adis-sdk/server-kit';
import { beforeAll, describe, expect, it } from 'vitest';
import { ALL_KINDS } from '../src/domain/catalog.js';
import { backReference } from '../src/domain/define-kind.js';
import { RECORD_HELPERS } from '../src/domain/helpers/record-helpers.js';
import type { ResourceKind } from '../src/domain/kinds.js';
import type { Harness, Json } from './helpers.js';
import { create, helperHarness } from './helpers-setup.js';

function ones(kind: AnyKind): OneRelation[] {
  return Object.values(kind.relations).filter((r): r is OneRelation => r.type === 'one');
}

function manys(kind: AnyKind): ManyRelation[] {
  return Object.values(kind.relations).filter((r): r is ManyRelation => r.type === 'many');
}

/** The link relations of a kind's one and many relations (`anyOf` is not a link). */
function declaredRelations(kind: AnyKind): string[] {
  return [...ones(kind), ...manys(kind)].map((r) => r.rel).sort();
}

/** The link relations of a kind's helpers, each once (a message's send and stop share one). */
function declaredHelpers(kind: AnyKind): string[] {
  return [...new Set(Object.values(kind.helpers).map((helper) => helper.rel))].sort();
}

function serverKindOf(kind: AnyKind): ResourceKind {
  const served = ALL_KINDS.find((k) => k.singular === kind.singular);
  if (!served) throw new Error(`the server does not serve ${kind.singular}`);
  return served;
}

function declared(name: string): AnyKind {
  const kind = kindNamed(name);
  if (!kind) throw new Error(`no kind named ${name}`);
  return kind;
}

let names = 0;

/** Members a create needs besides links: tags and lists are found by a unique name. */
function fieldsOf(kind: AnyKind): Json {
  return kind.singular === 'tag' || kind.singular === 'list'
    ? { name: `${kind.singular} ${++names}` }
    : {};
}

/**
 * The sets of one relations to set on records of a kind, so that together they hold
 * every relation: all of them on one record, except where the server takes exactly one
 * of a group (a tagging's target, an item's person or organization): then one record
 * per member of the group.
 */
function variants(kind: AnyKind): OneRelation[][] {
  const groups = serverKindOf(kind).exactlyOneOf ?? [];
  const grouped = new Set(groups.flat().map((rel) => `std:${rel}`));
  const free = ones(kind).filter((r) => !grouped.has(r.rel));
  let out: OneRelation[][] = [free];
  for (const group of groups) {
    const members = ones(kind).filter((r) => group.includes(r.rel.replace(/^std:/, '')));
    out = out.flatMap((chosen) => members.map((member) => [...chosen, member]));
  }
  return out;
}

describe('the relations the SDK declares are the links the server serves', () => {
  let h: Harness;
  const hrefs = new Map<string, string>();

  /** The href of a record of `name`, created once with its required relations. */
  async function recordOf(name: string): Promise<string> {
    const known = hrefs.get(name);
    if (known) return known;
    const kind = declared(name);
    const required = ones(kind).filter((r) => r.required);
    const href = (await createWith(kind, required))._links.self.href as string;
    hrefs.set(name, href);
    return href;
  }

  /**
   * Creates a record of `kind` linking a record of each relation's kind; reads it back.
   * A kind that is one per person and parent (a signature) gets a new person each time:
   * the same person again would update the record (200), not create one.
   */
  async function createWith(kind: AnyKind, relations: readonly OneRelation[]): Promise<Json> {
    const links: Record<string, { href: string }> = {};
    const once = serverKindOf(kind).oneRecordPer ?? [];
    for (const relation of relations) {
      const fresh = relation.kind === 'person' && once.includes(relation.rel.replace(/^std:/, ''));
      const href = fresh
        ? (await create(h, 'people', { given_name: `Person ${++names}` }))._links.self.href
        : await recordOf(relation.kind);
      links[relation.rel] = { href };
    }
    const created = await create(h, kind.plural, { ...fieldsOf(kind), _links: links });
    const read = await h.json('GET', created._links.self.href);
    expect(read.status).toBe(200);
    return read.body;
  }

  beforeAll(() => {
    h = helperHarness();
  });

  it('serves every kind the SDK declares, and no other', async () => {
    expect(ALL_KINDS.map((k) => k.singular)).toEqual(KINDS.map((k) => k.singular));
    const entry = await h.json('GET', '/api/v1/');
    for (const kind of KINDS) expect(entry.body._links).toHaveProperty([`std:${kind.plural}`]);
  });

  describe.each(KINDS.map((kind) => [kind.singular, kind] as const))('%s', (_name, kind) => {
    it("declares the server's references and sub-collections", () => {
      const served = serverKindOf(kind);
      expect(served.plural).toBe(kind.plural);
      expect(served.references.map((r) => ({ ...r, rel: `std:${r.rel}` }))).toEqual(
        ones(kind).map((r) => ({ rel: r.rel, kinds: [r.kind], required: r.required })),
      );
      expect(served.subCollections.map((s) => [`std:${s.plural}`, s.kind])).toEqual(
        manys(kind).map((r) => [r.rel, r.kind]),
      );
      expect((served.helpers ?? []).map((helper) => `std:${helper.rel}`).sort()).toEqual(
        declaredHelpers(kind),
      );
    });

    it('carries exactly the declared relations and helpers as links', async () => {
      const relations = new Set<string>();
      const helpers = new Set<string>();
      for (const variant of variants(kind)) {
        const record = await createWith(kind, variant);
        const links: Record<string, Json> = record._links;
        const others = Object.keys(links).filter((rel) => rel !== 'self' && rel !== 'curies');
        for (const rel of others) {
          expect(rel).toMatch(/^std:/);
          (rel.endsWith('_helper') ? helpers : relations).add(rel);
        }
        // Every relation set on this record is linked, to a record of the declared kind.
        for (const relation of variant) {
          expect(links[relation.rel]?.href, relation.rel).toContain(
            `/api/v1/${declared(relation.kind).plural}/`,
          );
        }
        // Every collection is linked, and answers a collection document.
        for (const relation of manys(kind)) {
          const href = links[relation.rel]?.href;
          expect(href, relation.rel).toBeTypeOf('string');
          const page = await h.json('GET', href);
          expect(page.status, relation.rel).toBe(200);
          expect(page.body._links).toHaveProperty([`std:${declared(relation.kind).plural}`]);
        }
      }
      expect([...relations].sort()).toEqual(declaredRelations(kind));
      expect([...helpers].sort()).toEqual(declaredHelpers(kind));
    });

    const helperList = Object.entries(kind.helpers) as [string, Helper][];
    if (helperList.length === 0) return;
    it('serves each helper as declared', async () => {
      const record = await createWith(
        kind,
        ones(kind).filter((r) => r.required),
      );
      for (const [name, helper] of helperList) {
        const href: string = record._links[helper.rel].href;
        if (helper.type === 'record') {
          // One definition: the body as the SDK declares it (the server checks its strict
          // side), the record it creates, and the relation of that record that points back here.
          const definition = RECORD_HELPERS[helper.rel.replace(/^std:/, '')];
          expect(definition, name).toBeDefined();
          expect(definition?.main).toBe(helper.record);
          expect(definition?.schema).toBe(strictHelperBodies()[helper.body as HelperBodyName]);
          expect(definition?.via).toBe(backReference(kind, declared(helper.record)));
          // Without a key: refused (401) unless the specification allows it (then the
          // empty body is what is wrong).
          const anonymous = await h.json('POST', href, { body: {}, key: null });
          expect(anonymous.status, `${name} without a key`).toBe(helper.anonymous ? 400 : 401);
        } else {
          const keyed = await h.json(helper.method, href, { body: {} });
          expect([404, 405], `${helper.method} ${helper.rel}`).not.toContain(keyed.status);
          const anonymous = await h.json(helper.method, href, { body: {}, key: null });
          expect(anonymous.status, `${name} without a key`).toBe(401);
        }
      }
    });
  });
});
