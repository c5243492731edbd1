/**
 * A kind as a preset serves it: the plain server's kind, with what the preset changes
 * about it applied in turn (how its writes are validated, how its money and date-times
 * are written, where its helpers live, the native ids it stores, whether clients may
 * write it). Each change is one small function of its own file.
 */
import type { ResourceKind } from '../domain/kinds.js';
import { withDateTimes } from './date-times.js';
import { withEmbedLinks } from './embed-links.js';
import { withHelperAddresses } from './helper-addresses.js';
import { withKindChanges } from './kind-changes.js';
import { withMoney } from './money.js';
import { withNativeIds } from './native-ids.js';
import { withReadOnly } from './read-only-kinds.js';
import type { ServingPreset } from './serving-preset.js';
import { withVocabulary } from './vocabulary.js';

/**
 * The kind under `preset`; the same object under the specification's preset.
 */
export function adaptKind(kind: ResourceKind, preset: ServingPreset): ResourceKind {
  return KIND_ADAPTERS.reduce((adapted, adapt) => adapt(adapted, preset), kind);
}

/** The changes, in the order they apply: each sees the kind the one before made. */
const KIND_ADAPTERS: readonly ((kind: ResourceKind, preset: ServingPreset) => ResourceKind)[] = [
  withKindChanges,
  withVocabulary,
  withMoney,
  withDateTimes,
  withHelperAddresses,
  withEmbedLinks,
  withNativeIds,
  withReadOnly,
];
