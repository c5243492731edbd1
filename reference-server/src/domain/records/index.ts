/**
 * Generic record operations for any registered kind ({@link RecordService}) and the
 * names around them that the HTTP layer, the helpers and the seeds use.
 */
export type { CollectionPage, CollectionRef } from './collection-page.js';
export {
  composeDocument,
  HELPER_MEMBERS,
  REFS,
  referencesOf,
  SERVER_STATE,
} from './document.js';
export type { LinkInput, LinkTarget } from './links.js';
export type {
  CreateOptions,
  CreateOrUpdateOptions,
  EventDetails,
  RecordReplacement,
  UpdateOptions,
} from './options.js';
export { RecordService } from './service.js';
export type { RecordUpsert } from './upsert.js';
