/**
 * adis-sdk: a TypeScript client for the Advocacy Data Interchange Service.
 *
 * Start with {@link connect}: it reads the API entry point and returns a
 * {@link Client} whose collections page with `for await` and whose resources follow
 * their links. Every address comes from the server's `_links`; the SDK builds none.
 *
 * @packageDocumentation
 */
export * from './errors/index.js';
export * from './hal/index.js';
export * from './http/index.js';
export { Client, type ClientOptions, connect } from './navigator/client.js';
export { Collection, type Page, type PagingOptions } from './navigator/collection.js';
export type { CallOptions, NavigatorContext, SendResult } from './navigator/context.js';
export {
  type ResourceKind,
  type UntypedData,
  untypedKind,
  untypedKindOf,
} from './navigator/kind.js';
export { type FollowOptions, Resource } from './navigator/resource.js';
export type { WriteOptions } from './navigator/write.js';
export { type CollectionPageInfo, CollectionPageSchema } from './resources/collection-page.js';
export { type EntryPoint, EntryPointSchema } from './resources/entry-point.js';
export {
  type EmailAddress,
  type Person,
  type PersonInput,
  PersonSchema,
  PersonWriteSchema,
  type PhoneNumber,
  type PostalAddress,
} from './resources/person.js';
export { PersonResource, personKind } from './resources/person-resource.js';
