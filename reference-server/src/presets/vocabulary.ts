import type { ResourceKind } from '../domain/kinds.js';
import type { ServerPreset } from './server-preset.js';

/** TODO(issue 21): being written. The kind as it is for now. */
export function withVocabulary(kind: ResourceKind, _preset: ServerPreset): ResourceKind {
  return kind;
}
