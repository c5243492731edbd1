/**
 * One record against its kind: its types (the SDK's lenient schema: what no client can
 * read is a failure), its members (a name the specification does not define and that
 * is not a vendor's `prefix:name` is off the spec), its values (formats and closed
 * enums of the specification; a known server's documented values allowed), its `self`.
 */
import type { HalDocument } from '../../hal/document.js';
import { isJsonObject } from '../../hal/link.js';
import type { AnyKind } from '../../schema/kind.js';
import { isVendorMember } from '../../schema/vendor.js';
import { SPEC } from '../context.js';
import { missingStatus } from '../requirements.js';
import type { Tally } from '../tally.js';

/** What validating a record found, besides what went into the tally. */
export interface RecordFindings {
  vendorMembers: Set<string>;
}

interface Issue {
  code: string;
  path: PropertyKey[];
  message: string;
  keys?: string[];
}

/** Validates `record` of collection `plural` against `kind`, adding to `tally`. */
export function validateRecord(
  tally: Tally,
  plural: string,
  kind: AnyKind,
  record: HalDocument,
  options: { extended: boolean; vendorKind: boolean },
  findings: RecordFindings,
): void {
  const body = record.body;
  const name = recordName(record);
  const lenient = kind.schema.safeParse(body);
  if (lenient.success) tally.pass('records', 'records.types', plural, SPEC.resources);
  else {
    tally.problem(
      'records',
      'records.types',
      'fail',
      `${plural}: ${name}: ${describe(lenient.error.issues as Issue[])} (not a ${kind.singular} a client can read)`,
      SPEC.resources,
    );
  }
  for (const member of Object.keys(body))
    if (isVendorMember(member)) findings.vendorMembers.add(member);
  const written = kind.writeSchema.safeParse(body);
  const unknown = written.success
    ? []
    : (written.error.issues as Issue[]).filter((issue) => issue.code === 'unrecognized_keys');
  if (unknown.length === 0) tally.pass('records', 'records.members', plural, SPEC.resources);
  else {
    tally.problem(
      'records',
      'records.members',
      'warn',
      `${plural}: ${name}: members the specification does not define and no vendor prefix marks: ${unknown.map((issue) => issue.keys?.map((key) => joinPath([...issue.path, key])).join(', ')).join(', ')}`,
      SPEC.resources,
    );
  }
  if (!options.vendorKind) {
    const strict = (options.extended ? kind.extendedSchema : kind.strictSchema).safeParse(body);
    const values = strict.success
      ? []
      : (strict.error.issues as Issue[]).filter(
          (issue) => issue.code === 'invalid_format' || issue.code === 'invalid_value',
        );
    if (values.length === 0) tally.pass('records', 'records.values', plural, SPEC.resources);
    else
      tally.problem(
        'records',
        'records.values',
        'warn',
        `${plural}: ${name}: values off the specification: ${describe(values)}`,
        SPEC.resources,
      );
  }
  const links = isJsonObject(body._links) ? body._links : undefined;
  const self = links && isJsonObject(links.self) && typeof links.self.href === 'string';
  if (self) tally.pass('records', 'records.self', plural, SPEC.common);
  else
    tally.problem(
      'records',
      'records.self',
      missingStatus('records.self'),
      `${plural}: ${name} has no _links.self: nothing can read it again or write it back`,
      SPEC.common,
    );
}

/** How a record is named in a message: its first identifier, or its self, or its place. */
export function recordName(record: HalDocument): string {
  const identifiers = record.body.identifiers;
  if (Array.isArray(identifiers) && typeof identifiers[0] === 'string') return identifiers[0];
  return record.selfUrl ?? 'a record';
}

function describe(issues: readonly Issue[]): string {
  return (
    issues
      .slice(0, 3)
      .map(
        (issue) =>
          `${joinPath(issue.path) || '(record)'}: ${issue.message === 'Invalid input' ? issue.code.replaceAll('_', ' ') : issue.message}`,
      )
      .join(', ') + (issues.length > 3 ? `, and ${issues.length - 3} more` : '')
  );
}

function joinPath(path: readonly PropertyKey[]): string {
  return path
    .map((part, index) =>
      typeof part === 'number' ? `[${part}]` : `${index > 0 ? '.' : ''}${String(part)}`,
    )
    .join('');
}
