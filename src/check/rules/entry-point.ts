/**
 * The entry point: an answer in HAL, its content type, its curies (declared, in the
 * draft's form, their documentation reachable), its version and fields, and the
 * collections it links, which the other checks walk.
 */
import { HalDocument } from '../../hal/document.js';
import { isJsonObject, toLinkList } from '../../hal/link.js';
import { ACTION_NETWORK_KINDS } from '../../presets/action-network/index.js';
import type { AnyKind } from '../../schema/kind.js';
import { KINDS } from '../../schema/kinds/index.js';
import { type CheckContext, type LinkedCollection, SPEC } from '../context.js';
import type { ProbeResponse } from '../prober.js';
import { checkContentType } from './content-type.js';

const SPEC_KINDS = new Map<string, AnyKind>(KINDS.map((kind) => [kind.plural, kind]));
const VENDOR_KINDS = new Map<string, AnyKind>(
  (ACTION_NETWORK_KINDS as readonly AnyKind[]).map((kind) => [kind.plural, kind]),
);

/**
 * Checks the entry point's answer and, when it is a HAL document, keeps it and the
 * collections it links in `context`. Returns false when nothing else can be checked.
 *
 * @example
 * ```ts
 * if (!checkEntryPoint(context, await context.request(entryUrl))) return report;
 * ```
 */
export function checkEntryPoint(context: CheckContext, answer: ProbeResponse): boolean {
  const url = answer.url;
  const area = 'entry point';
  if (answer.status !== 200) {
    context.add(
      area,
      'entry-point.status',
      'fail',
      `GET of the entry point answered ${answer.status}, not 200`,
      { spec: SPEC.entryPoint, url },
    );
    return false;
  }
  checkContentType(context, area, 'entry-point.content-type', answer);
  if (!isJsonObject(answer.json)) {
    context.add(
      area,
      'entry-point.json',
      'fail',
      answer.jsonError
        ? `the entry point is not JSON (${answer.jsonError})`
        : 'the entry point is not a JSON object',
      { spec: SPEC.entryPoint, url },
    );
    return false;
  }
  const body = answer.json;
  const document = HalDocument.parse(body, url);
  context.entry = document;
  const links = isJsonObject(body._links) ? body._links : undefined;
  if (!links) {
    context.add(
      area,
      'entry-point.hal',
      'fail',
      'the entry point has no _links: it is not a HAL document',
      { spec: SPEC.entryPoint, url },
    );
    return false;
  }
  context.add(
    area,
    'entry-point.hal',
    links.self ? 'pass' : 'warn',
    links.self ? 'a HAL document with _links and self' : 'a HAL document, but without a self link',
    { spec: SPEC.entryPoint, url },
  );
  checkCuries(context, links.curies, url);
  checkFields(context, body, url);
  findCollections(context, document);
  return true;
}

/** The documentation a curie names, fetched once (its href expanded for one relation). */
export async function checkCurieDocs(context: CheckContext): Promise<void> {
  const entry = context.entry;
  const first = context.collections.find((collection) => collection.rel.includes(':'));
  if (!entry || !first) return;
  const id = entry.curies.relationId(first.rel);
  if (id === first.rel) return; // undeclared: already reported
  const answer = await context.request(id, { withKey: false });
  context.add(
    'entry point',
    'entry-point.curie-docs',
    answer.status >= 200 && answer.status < 300 ? 'pass' : 'warn',
    answer.status >= 200 && answer.status < 300
      ? `the curie ${first.rel.split(':')[0]} resolves: ${id} answers ${answer.status}`
      : `the curie of ${first.rel} expands to ${id}, which answers ${answer.status}: its documentation cannot be read`,
    { spec: SPEC.curies, url: id },
  );
}

function checkCuries(context: CheckContext, value: unknown, url: string): void {
  const curies = toLinkList(value);
  if (curies.length === 0) {
    context.add(
      'entry point',
      'entry-point.curies',
      'fail',
      'the entry point declares no curies: relations like std:people name nothing',
      { spec: SPEC.curies, url },
    );
    return;
  }
  const problems: string[] = [];
  for (const curie of curies) {
    const name = typeof curie.name === 'string' ? curie.name : '(no name)';
    if (typeof curie.name !== 'string' || curie.name === '')
      problems.push('a curie without a name');
    if (!curie.href.includes('{rel}')) problems.push(`${name}: its href has no {rel}`);
    else if (curie.templated !== true) problems.push(`${name}: templated is not true`);
  }
  context.add(
    'entry point',
    'entry-point.curies',
    problems.length === 0 ? 'pass' : 'fail',
    problems.length === 0
      ? `curies declared: ${curies.map((curie) => curie.name).join(', ')}`
      : `curies not in the HAL form: ${problems.join('; ')}`,
    { spec: SPEC.curies, url },
  );
}

function checkFields(context: CheckContext, body: Record<string, unknown>, url: string): void {
  const area = 'entry point';
  if (typeof body.std_version === 'string') {
    context.add(area, 'entry-point.version', 'pass', `std_version ${body.std_version}`, {
      spec: SPEC.versioning,
      url,
    });
  } else {
    const other = Object.keys(body).find((key) => /^[a-z]+_version$/.test(key));
    context.add(
      area,
      'entry-point.version',
      'fail',
      other
        ? `the version is in ${other} (${String(body[other])}), not std_version`
        : 'no std_version: clients cannot tell which version of the specification it implements',
      { spec: SPEC.versioning, url },
    );
  }
  if (Number.isInteger(body.max_pagesize)) {
    context.add(
      area,
      'entry-point.max-pagesize',
      'pass',
      `max_pagesize ${String(body.max_pagesize)}`,
      { spec: SPEC.limits, url },
    );
  } else {
    context.add(
      area,
      'entry-point.max-pagesize',
      'fail',
      Number.isInteger(body.max_page_size)
        ? `the page size limit is in max_page_size (${String(body.max_page_size)}), not max_pagesize`
        : 'no integer max_pagesize',
      { spec: SPEC.limits, url },
    );
  }
  const missing = ['motd', 'vendor_name', 'product_name', 'namespace'].filter(
    (field) => typeof body[field] !== 'string',
  );
  context.add(
    area,
    'entry-point.fields',
    missing.length === 0 ? 'pass' : 'warn',
    missing.length === 0
      ? `vendor ${String(body.vendor_name)}, product ${String(body.product_name)}, namespace ${String(body.namespace)}`
      : `fields missing or not strings: ${missing.join(', ')}`,
    { spec: SPEC.entryPoint, url },
  );
}

function findCollections(context: CheckContext, document: HalDocument): void {
  const url = document.url;
  const declared = new Set(document.curies.names());
  const undeclared = new Set<string>();
  const unknown: string[] = [];
  const prefixes = new Map<string, number>();
  for (const rel of document.relations()) {
    const colon = rel.indexOf(':');
    if (colon <= 0) continue;
    const prefix = rel.slice(0, colon);
    const name = rel.slice(colon + 1);
    if (!declared.has(prefix) && !/^https?$/.test(prefix)) undeclared.add(prefix);
    const specKind = SPEC_KINDS.get(name);
    const vendorKind = specKind ? undefined : VENDOR_KINDS.get(name);
    const link = document.link(rel);
    if (!link) continue;
    if (specKind) prefixes.set(prefix, (prefixes.get(prefix) ?? 0) + 1);
    if (specKind || vendorKind) {
      context.collections.push({
        plural: name,
        rel,
        link,
        kind: specKind ?? vendorKind,
        vendorKind: !specKind,
      } satisfies LinkedCollection);
    } else if (!['metadata', 'person_signup_helper', 'docs'].includes(name)) {
      unknown.push(rel);
    }
  }
  // The prefix most of the specification's collections use: std, or a vendor's own (osdi).
  context.prefix = [...prefixes].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 'std';
  if (undeclared.size > 0) {
    context.add(
      'entry point',
      'entry-point.curie-undeclared',
      'warn',
      `relations use prefixes no curie declares: ${[...undeclared].join(', ')}`,
      { spec: SPEC.curies, url },
    );
  }
  const spec = context.collections.filter((collection) => !collection.vendorKind);
  context.add(
    'entry point',
    'entry-point.collections',
    spec.length > 0 ? 'pass' : 'fail',
    spec.length > 0
      ? `links ${spec.length} collections of the specification: ${spec.map((collection) => collection.plural).join(', ')}` +
          (unknown.length > 0 ? `; and relations it does not define: ${unknown.join(', ')}` : '')
      : 'links no collection of the specification (std:people, std:petitions, …)',
    { spec: SPEC.entryPoint, url },
  );
}
