import * as z from 'zod/mini';
import type { HalDocument } from '../hal/index.js';
import type { NavigatorContext } from './context.js';
import { Resource } from './resource.js';

/**
 * Everything the navigator needs to know about one kind of resource: its relation
 * names, its read and write schemas (the single source of its types) and how to wrap a
 * document of that kind in its typed class.
 *
 * @example
 * ```ts
 * const people: ResourceKind<Person, PersonInput, PersonResource> = personKind;
 * people.plural; // 'people'
 * ```
 */
export interface ResourceKind<T extends object, I, W extends Resource<T, I>> {
  /** Name of one resource, as in the relation `std:person`. */
  readonly singular: string;
  /** Name of the collection, as in the relation `std:people`. */
  readonly plural: string;
  /** The read schema: what a document of this kind must hold, and its type `T`. */
  readonly schema: z.ZodMiniType<T, unknown>;
  /** The write schema: what `create` and `update` accept, and its type `I`. */
  readonly writeSchema: z.ZodMiniType<unknown, I>;
  /**
   * Wraps a document of this kind in its typed class.
   *
   * @param context - The connection's shared state, passed on to the resource.
   * @param document - The document read from the server.
   *
   * @example
   * ```ts
   * const person = personKind.wrap(context, await context.get(url));
   * ```
   */
  wrap(context: NavigatorContext, document: HalDocument): W;
}

/** A resource of a kind the SDK has no schema for yet: any JSON object. */
export type UntypedData = Record<string, unknown>;

/**
 * The kind used when following a relation whose target the SDK does not type: the
 * document's members are kept as they are.
 *
 * @example
 * ```ts
 * const tag = await person.follow('std:taggings'); // a Resource<UntypedData>
 * ```
 */
export const untypedKind: ResourceKind<
  UntypedData,
  UntypedData,
  Resource<UntypedData, UntypedData>
> = {
  singular: 'resource',
  plural: 'resources',
  schema: z.record(z.string(), z.unknown()),
  writeSchema: z.record(z.string(), z.unknown()),
  wrap: (context, document) => new Resource(context, document, untypedKind),
};

/**
 * A kind that reads and writes like `untypedKind` but with its own relation names, for
 * collections of resources the SDK does not type yet (a person's signatures, say).
 *
 * @example
 * ```ts
 * const signatures = untypedKindOf('signature', 'signatures');
 * ```
 */
export function untypedKindOf(
  singular: string,
  plural: string,
): ResourceKind<UntypedData, UntypedData, Resource<UntypedData, UntypedData>> {
  const kind: ResourceKind<UntypedData, UntypedData, Resource<UntypedData, UntypedData>> = {
    ...untypedKind,
    singular,
    plural,
    wrap: (context, document) => new Resource(context, document, kind),
  };
  return kind;
}
