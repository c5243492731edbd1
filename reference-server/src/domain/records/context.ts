/**
 * What the record operations work on: the storage they read and write, and the kinds
 * served. A `RecordService` (`service.ts`) is one, and passes itself along; the
 * operations take this interface rather than the class, so that they import nothing
 * of the class that calls them.
 */
import type { Storage } from '../../storage/storage.js';
import type { KindRegistry } from '../kinds.js';

/** The storage and kinds of the record operations. */
export interface RecordContext {
  readonly storage: Storage;
  /** The kinds served: links resolve and deletes cascade through it. */
  readonly registry: KindRegistry;
}
