/**
 * `adis-sdk/sync` (Node only: the state lives in files): copies an organisation's data
 * from one server to another and keeps the copy up to date ({@link runSync}), the
 * library behind the `adis-sync` command. An entry of its own, so that the main and
 * browser entries do not carry it.
 */
export { type SyncErrorCode, SyncSetupError } from './errors.js';
export { journalPath, openSyncState, removeSyncState, type SyncPair } from './file-state.js';
export { type Placement, type PlannedKind, syncPlan } from './plan.js';
export {
  ACTION_NETWORK_TARGET,
  detectTarget,
  SPECIFICATION_TARGET,
  SYNC_PROFILES,
  saysActionNetwork,
} from './profiles.js';
export { runSync } from './run-sync.js';
export {
  type CopyEntry,
  type DateRange,
  type KindProgress,
  type KindRun,
  memorySyncState,
  type PersonMatch,
  type SyncProgress,
  type SyncStateStore,
  type SyncWindow,
} from './state-store.js';
export {
  type ChildWrites,
  emptyTally,
  type KindTally,
  type SyncEvent,
  type SyncRefusal,
  type SyncRequest,
  type SyncSummary,
  type SyncTargetProfile,
} from './types.js';
