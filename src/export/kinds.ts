/**
 * The collections the export command can walk: every kind the SDK types, named by its
 * collection relation without the curie (`people` for `std:people`).
 */
import {
  advocacyCampaignKind,
  answerKind,
  attendanceKind,
  canvassKind,
  donationKind,
  eventKind,
  formKind,
  fundraisingPageKind,
  itemKind,
  listKind,
  messageKind,
  organizationKind,
  outreachKind,
  personKind,
  petitionKind,
  queryKind,
  questionKind,
  type Resource,
  type ResourceKind,
  sharePageKind,
  signatureKind,
  submissionKind,
  taggingKind,
  tagKind,
  wrapperKind,
} from '../index.js';

/** A resource kind whose members the exporter reads as plain JSON. */
export type ExportableKind = ResourceKind<object, unknown, Resource<object, unknown>>;

// People first: it is the collection most exports are for, and the usage text lists
// the names in this order.
const KINDS: readonly ExportableKind[] = [
  personKind,
  organizationKind,
  petitionKind,
  signatureKind,
  formKind,
  submissionKind,
  fundraisingPageKind,
  donationKind,
  sharePageKind,
  advocacyCampaignKind,
  outreachKind,
  eventKind,
  attendanceKind,
  questionKind,
  answerKind,
  wrapperKind,
  messageKind,
  tagKind,
  taggingKind,
  listKind,
  itemKind,
  queryKind,
  canvassKind,
];

/** The collection names the exporter knows, people first. */
export const EXPORTABLE_COLLECTIONS: readonly string[] = KINDS.map((kind) => kind.plural);

/**
 * The kind of a collection named `people`, `std:people` or `osdi:people` (any curie
 * prefix: the server's own is resolved when connecting), or undefined.
 *
 * @example
 * ```ts
 * exportableKind('std:signatures')?.singular; // 'signature'
 * ```
 */
export function exportableKind(name: string): ExportableKind | undefined {
  const plural = name.includes(':') ? name.slice(name.indexOf(':') + 1) : name;
  return KINDS.find((kind) => kind.plural === plural);
}
