/**
 * The answer to a successful DELETE: 204 without a body, as the specification has it,
 * or under a preset with a `deleteNotice` 200 with that notice (Action Network answers
 * `{ "notice": "This tagging was successfully deleted." }`).
 */
import type { ResourceKind } from '../../domain/kinds.js';
import type { ServingPreset } from '../../presets/serving-preset.js';
import { hal } from '../respond.js';

/**
 * The notice for a deleted record of `kind`: the preset's text with `{kind}` replaced by
 * the kind in words (`fundraising_page` → `fundraising page`); undefined without one.
 *
 * @example
 * ```ts
 * import { fundraisingPageKind } from 'adis-sdk/schema';
 * import { serveKind } from 'adis-server';
 * import { deleteNoticeOf } from './deleted.js';
 *
 * deleteNoticeOf('This {kind} was successfully deleted.', serveKind(fundraisingPageKind));
 * // 'This fundraising page was successfully deleted.'
 * ```
 */
export function deleteNoticeOf(notice: string | null, kind: ResourceKind): string | undefined {
  return notice?.replaceAll('{kind}', kind.singular.replace(/_/g, ' '));
}

/**
 * The response to a DELETE of a record of `kind` that succeeded.
 */
export function deletedAnswer(preset: ServingPreset, kind: ResourceKind): Response {
  const notice = deleteNoticeOf(preset.deleteNotice, kind);
  return notice === undefined ? hal(undefined, 204) : hal({ notice }, 200);
}
