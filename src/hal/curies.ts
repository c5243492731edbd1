import type { CurieProblem } from '../errors/link-not-found-error.js';
import { isJsonObject } from './link.js';
import { expandTemplate } from './template.js';
import { resolveHref } from './uri.js';

const MAX_CACHED_IDS = 1_000;

/**
 * One curie: its name, its href and the base it resolves against, and what is wrong
 * with the href when it names no relation ({@link hrefProblem}; an alias shares it).
 */
interface Curie {
  name: string;
  href: string;
  base: string;
  problem: CurieProblem | undefined;
}

/**
 * What is wrong with a curie's href, or undefined when it can name relations. The HAL
 * draft (draft-kelly-json-hal, "curies") makes the href a URI template with the token
 * `{rel}`, each relation getting a URI of its own. Fixtures of Action Network's API in
 * the wild carry an `osdi` curie without one (none, `""`, or a documentation page's
 * URL): expanded anyway, every `osdi:` relation would be the same URI, and
 * `osdi:petitions` would be taken for `osdi:people`. Any expression naming `rel` counts
 * (`{rel}`, `{+rel}`): the token is what makes each relation's URI its own.
 */
function hrefProblem(href: unknown): string | undefined {
  if (typeof href !== 'string') return 'has no href';
  if (href === '') return 'has an empty href';
  return /\{[^}]*\brel\b[^}]*\}/.test(href) ? undefined : 'has no {rel} in its href';
}

/**
 * The curies in force for one HAL document: its own `_links.curies`, then those it
 * inherits (an embedded resource inherits its container's; every document of a server
 * inherits the entry point's, because many servers declare curies only there).
 *
 * A curie prefix is a local abbreviation: `std:people` and `osdi:people` are the same
 * relation when `std` and `osdi` expand to the same URI. So relations are compared by
 * their expanded URI ({@link Curies.relationId}), never by their spelling, and a prefix
 * that no curie declares is compared literally.
 *
 * A curie whose href names no relation (none, empty, no `{rel}`: {@link Curies.problems})
 * is declared but gives no URI: its relations are compared by name, as an undeclared
 * prefix's are, not expanded into one URI for all. Guessing what the server meant to
 * build (appending the relation, replacing a segment) would be inventing it. Its name
 * still counts: an alias to it (`std` to `osdi`, when the caller names `osdi`) compares
 * `std:people` as `osdi:people`.
 *
 * @example
 * ```ts
 * import { Curies } from 'adis-sdk';
 *
 * const curies = Curies.from(
 *   [{ name: 'osdi', href: 'https://api.example.org/docs/v1/{rel}', templated: true }],
 *   'https://api.example.org/api/v1/',
 * );
 * curies.relationId('osdi:people'); // 'https://api.example.org/docs/v1/people'
 * curies.relationId('next');        // 'next'
 * ```
 */
export class Curies {
  readonly #own: ReadonlyMap<string, Curie>;
  readonly #inherited: Curies | undefined;
  readonly #ids = new Map<string, string>();

  private constructor(own: ReadonlyMap<string, Curie>, inherited: Curies | undefined) {
    this.#own = own;
    this.#inherited = inherited;
  }

  /** A set with no curies: every relation is compared literally. */
  static readonly none: Curies = new Curies(new Map(), undefined);

  /**
   * Reads a `_links.curies` value (an array, or a single object as some servers send).
   * Curies without a `name` are ignored: nothing could refer to them. One whose href
   * names no relation is kept, by name, with its problem ({@link Curies.problems}).
   */
  static from(value: unknown, base: string, inherited?: Curies): Curies {
    const own = new Map<string, Curie>();
    (Array.isArray(value) ? value : [value]).forEach((entry: unknown, index) => {
      if (!isJsonObject(entry)) return;
      const { name, href } = entry;
      if (typeof name !== 'string' || name === '') return;
      const problem = hrefProblem(href);
      own.set(name, {
        name,
        href: href as string,
        base,
        problem: problem === undefined ? undefined : { name, index, problem },
      });
    });
    if (own.size === 0 && inherited) return inherited;
    return new Curies(own, inherited);
  }

  /**
   * A copy in which `alias` expands like `prefix`. The SDK names the specification's
   * relations `std:…`; on a server that calls its curie `osdi`, the navigator aliases
   * `std` to `osdi` so that `std:people` finds `osdi:people`.
   *
   * @example
   * ```ts
   * import { Curies } from 'adis-sdk';
   *
   * const curies = Curies.from([{ name: 'osdi', href: 'https://api.example.org/docs/v1/{rel}', templated: true }], 'https://api.example.org/api/v1/');
   * const aliased = curies.withAlias('std', 'osdi');
   * aliased.relationId('std:people') === aliased.relationId('osdi:people'); // true
   * ```
   */
  withAlias(alias: string, prefix: string): Curies {
    const target = this.#lookup(prefix);
    if (!target || alias === prefix) return this;
    const own = new Map(this.#own);
    own.set(alias, target);
    return new Curies(own, this.#inherited);
  }

  /**
   * The curies in force whose href names no relation, own first, each with its place in
   * `_links.curies` and what is wrong: their prefixes are compared by name. A curie is
   * in force where no nearer one has its name (a page repeating the entry point's
   * curies reports each once). A LinkNotFoundError carries them, since they are the
   * likely reason a link is missing.
   *
   * @example
   * ```ts
   * import { Curies } from 'adis-sdk';
   *
   * Curies.from([{ name: 'osdi', href: '' }], 'https://api.example.org/api/v1/').problems();
   * // [{ name: 'osdi', index: 0, problem: 'has an empty href' }]
   * ```
   */
  problems(): CurieProblem[] {
    // A set: an alias (`std` to a broken `osdi`) shares its target's problem.
    const problems = new Set<CurieProblem>();
    for (const name of this.names()) {
      const problem = this.#lookup(name)?.problem;
      if (problem) problems.add(problem);
    }
    return [...problems];
  }

  /** The names of the curies in force, own first. */
  names(): string[] {
    const names = new Set<string>();
    // A loop for the reason given at #lookup.
    for (let curies: Curies | undefined = this; curies; curies = curies.#inherited) {
      for (const name of curies.#own.keys()) names.add(name);
    }
    return [...names];
  }

  /**
   * The identity of a relation: the expanded URI of a compact relation whose prefix is
   * a known curie, otherwise the relation exactly as written.
   */
  relationId(rel: string): string {
    const cached = this.#ids.get(rel);
    if (cached !== undefined) return cached;
    const id = this.#expand(rel);
    // Bounded like the template cache: the entry point's curies are shared by every
    // document of a walk, and a server could invent a new relation name per record.
    if (this.#ids.size >= MAX_CACHED_IDS) this.#ids.clear();
    this.#ids.set(rel, id);
    return id;
  }

  #expand(rel: string): string {
    const colon = rel.indexOf(':');
    if (colon <= 0) return rel;
    const curie = this.#lookup(rel.slice(0, colon));
    // An absolute URI used as a relation (`https://…`) has no curie named `https`, so
    // it is kept literally, which is what it is.
    if (!curie) return rel;
    const reference = rel.slice(colon + 1);
    // By the curie's own name: an alias to it then meets the relations written with it.
    if (curie.problem) return `${curie.name}:${reference}`;
    // The HAL draft says the curie href carries the token `{rel}`; a server that forgets
    // `templated: true` still means it, so the href is always expanded. A curie whose
    // href is no template or no URL names nothing: the relation stays literal.
    try {
      return resolveHref(curie.base, expandTemplate(curie.href, { rel: reference }));
    } catch {
      return rel;
    }
  }

  // The inherited sets are walked in a loop, not by recursion: every embedded level that
  // declares curies adds one set to the chain, so a server nesting `_embedded` 10,000
  // levels deep would otherwise overflow the stack (a RangeError out of `relationId` or
  // `names`, found by test/properties/hal.property.test.ts).
  #lookup(prefix: string): Curie | undefined {
    for (let curies: Curies | undefined = this; curies; curies = curies.#inherited) {
      const curie = curies.#own.get(prefix);
      if (curie) return curie;
    }
    return undefined;
  }
}

/**
 * The curies of a document body, or `inherited` when it declares none.
 *
 * @internal
 */
export function curiesOf(body: unknown, base: string, inherited?: Curies): Curies {
  const links = isJsonObject(body) ? body._links : undefined;
  const value = isJsonObject(links) ? links.curies : undefined;
  return Curies.from(value, base, inherited);
}
