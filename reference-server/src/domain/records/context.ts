/**
 * What the record operations work on: the storage they read and write, and the kinds
 * served. A {@link RecordService} is one; its operations pass themselves along.
 */
import type { Storage } from '../../storage/storage.js';
import type { KindRegistry } from '../kinds.js';
import type { RecordService } from './service.js';

/** The storage and kinds of the record operations (see {@link RecordService}). */
export interface RecordContext {
  readonly storage: Storage;
  /** The kinds served: links resolve and deletes cascade through it. */
  readonly registry: KindRegistry;
}
