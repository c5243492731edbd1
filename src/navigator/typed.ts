import type * as z from 'zod/mini';
import type { HelperResult } from '../helpers/result.js';
import type { HELPER_BODIES, HelperBodyInputs } from '../schema/helper-bodies.js';
import type {
  AnyKind,
  AnyOfRelation,
  ManyRelation,
  NoticeHelper,
  OneRelation,
  RecordHelper,
} from '../schema/kind.js';
import type { KindNamed, SpecKind } from '../schema/kinds/index.js';
import type { Collection } from './collection.js';
import type { CallOptions } from './context.js';
import type { HelperOptions, NoticeHelperOptions } from './helper-call.js';
import type { UntypedData } from './kind.js';
import type { Resource } from './resource.js';
import type { NamedKind, ResourceNames } from './resources.js';

// Types only: everything here is derived from the kinds' declarations (schema/kinds/),
// so a relation, helper or field added there is typed everywhere without another line.

/**
 * The fields of a record of kind `K` as read from a server: the output of its read
 * schema.
 *
 * @example
 * ```ts
 * import type { DataOf, petitionKind } from 'adis-sdk';
 *
 * type Petition = DataOf<typeof petitionKind>;
 * const titleOf = (petition: Petition) => petition.title ?? '(untitled)';
 * ```
 */
export type DataOf<K extends AnyKind> = z.output<K['schema']>;

/**
 * What a client sends to create or update a record of kind `K`: the input of its write
 * schema (enums closed, unknown members refused).
 *
 * @example
 * ```ts
 * import type { InputOf, personKind } from 'adis-sdk';
 *
 * const input: InputOf<typeof personKind> = { given_name: 'Ana', gender: 'Female' };
 * ```
 */
export type InputOf<K extends AnyKind> = z.input<K['writeSchema']>;

/** The resource of the kind named `N`, untyped when `N` names no kind of the specification. */
export type Target<N extends string> = [KindNamed<N>] extends [never]
  ? Resource<UntypedData, UntypedData>
  : ResourceOf<KindNamed<N>>;

/** The collection of the kind named `N`. */
export type TargetCollection<N extends string> = [KindNamed<N>] extends [never]
  ? Collection<Resource<UntypedData, UntypedData>>
  : Collection<ResourceOf<KindNamed<N>>>;

/** The method a relation declaration becomes. */
export type RelationMethod<R, L> =
  R extends OneRelation<infer N, infer Required>
    ? (options?: CallOptions) => Promise<Required extends true ? Target<N> : Target<N> | undefined>
    : R extends ManyRelation<infer N>
      ? () => TargetCollection<N>
      : R extends AnyOfRelation<infer M>
        ? (options?: CallOptions) => Promise<AnyOfTarget<M, L> | undefined>
        : never;

/** Any of the records the relations named `M` lead to. */
export type AnyOfTarget<M extends string, L> = {
  [X in M]: X extends keyof L ? (L[X] extends OneRelation<infer N> ? Target<N> : never) : never;
}[M];

/** The helper bodies, by name. */
export type Bodies = typeof HELPER_BODIES;

/**
 * The input of the helper body named `B`: its named type ({@link HelperBodyInputs}) when it
 * has one, so that errors and hovers name it (`RecordSignatureInput`).
 */
export type BodyInput<B> = B extends keyof HelperBodyInputs
  ? HelperBodyInputs[B]
  : B extends keyof Bodies
    ? z.input<Bodies[B]>
    : never;

/** The method a helper declaration becomes. */
export type HelperMethod<H> =
  H extends RecordHelper<infer B, infer N>
    ? (
        input: BodyInput<B>,
        options?: HelperOptions,
      ) => Promise<HelperResult<Target<N>, Target<'person'>>>
    : H extends NoticeHelper<infer B>
      ? B extends string
        ? (input: BodyInput<B>, options?: NoticeHelperOptions) => Promise<HelperNotice>
        : (options?: NoticeHelperOptions) => Promise<HelperNotice>
      : never;

/**
 * What a notice helper (a message's send and schedule helpers) answers: the server's
 * notice, when it sends one.
 *
 * @example
 * ```ts
 * import type { HelperNotice } from 'adis-sdk';
 *
 * const message = await client.messages.get('https://api.example.org/api/v1/messages/1');
 * const { notice }: HelperNotice = await message.send();
 * ```
 */
export interface HelperNotice {
  /** The server's message, such as `Message scheduled`. */
  notice?: string;
}

/**
 * The resource type derived from kind `K`'s declaration: a {@link Resource} with typed
 * `data` (`T`, what is read) and `update` input (`I`, what is sent), a method per
 * relation of the kind (`signature.person()`, `petition.signatures()`) and a method per
 * helper (`petition.recordSignature(input)`), each documented in the kind's
 * declaration. The named resources (`PersonResource`, …) extend it with their named
 * data types; {@link ResourceOf} picks the name when there is one.
 *
 * @example
 * ```ts
 * import type { DerivedResource } from 'adis-sdk';
 * import { defineKind, optional } from 'adis-sdk/schema';
 * import * as z from 'zod/mini';
 *
 * const rallyKind = defineKind({
 *   singular: 'rally',
 *   plural: 'rallies',
 *   description: 'A rally',
 *   shape: () => ({ title: optional(z.string()) }),
 * });
 * type RallyResource = DerivedResource<typeof rallyKind>; // data.title, update({ title })
 * ```
 */
export type DerivedResource<
  K extends AnyKind,
  T extends object = DataOf<K>,
  I = InputOf<K>,
> = Resource<T, I> & {
  [M in keyof K['relations']]: RelationMethod<K['relations'][M], K['relations']>;
} & { [M in keyof K['helpers']]: HelperMethod<K['helpers'][M]> };

/**
 * A record of kind `K` read from a server: the kind's named resource
 * (`ResourceOf<typeof personKind>` is {@link PersonResource}), so that editors show one
 * name rather than the derivation; for a kind of your own, {@link DerivedResource} of it.
 *
 * @example
 * ```ts
 * import type { ResourceOf, signatureKind } from 'adis-sdk';
 *
 * const url = 'https://api.example.org/api/v1/signatures/1';
 * const signature: ResourceOf<typeof signatureKind> = await client.signatures.get(url);
 * const signer = await signature.person();
 * console.log(signer.data.given_name, signature.data.comments);
 * ```
 */
export type ResourceOf<K extends AnyKind> = K extends NamedKind
  ? K['singular'] extends keyof ResourceNames
    ? ResourceNames[K['singular']]
    : DerivedResource<K>
  : DerivedResource<K>;

/**
 * The collection of records of kind `K`: pages of {@link ResourceOf} `K`
 * (`Collection<PersonResource>`).
 *
 * @example
 * ```ts
 * import type { CollectionOf, personKind } from 'adis-sdk';
 *
 * const people: CollectionOf<typeof personKind> = client.people;
 * ```
 */
export type CollectionOf<K extends AnyKind> = Collection<ResourceOf<K>>;

/** `fundraising_pages` → `fundraisingPages`. */
export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}`
  ? `${Head}${Capitalize<Camel<Tail>>}`
  : S;

/**
 * The collections of a client, one per kind, named after the kind's plural in camel
 * case (`client.people`, `client.fundraisingPages`).
 *
 * @example
 * ```ts
 * import type { Collections, personKind } from 'adis-sdk';
 *
 * const people: Collections<typeof personKind>['people'] = client.people;
 * ```
 */
export type Collections<K extends AnyKind = SpecKind> = {
  // Spelled out rather than CollectionOf<D>, which editors would show as the alias of
  // the whole kind: this way `client.people` reads `Collection<PersonResource>`.
  [D in K as Camel<D['plural']>]: Collection<ResourceOf<D>>;
};

/** The method name a collection of `plural` gets on the client: camel case. */
export function collectionName(plural: string): string {
  return plural.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
}
