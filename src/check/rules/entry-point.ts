/**
 * The entry point: an answer in HAL, its content type, its curies (declared, in the
 * draft's form, their documentation reachable), its version and fields, and the
 * collections it links, which the other checks walk. Its members are judged by their
 * rule's level: `std_version` is required, the others are listed and may be left out,
 * and any of them that is there must have its type.
 */
import { isAdisError } from '../../errors/type-guards.js';
import { HalDocument } from '../../hal/document.js';
import { isJsonObject, toLinkList } from '../../hal/link.js';
import { ACTION_NETWORK_KINDS } from '../../presets/action-network/index.js';
import type { AnyKind } from '../../schema/kind.js';
import { KINDS } from '../../schema/kinds/index.js';
import { type CheckContext, type LinkedCollection, onOrigin, SPEC } from '../context.js';
import { OffOriginError, type ProbeResponse } from '../prober.js';
import { missingStatus, type RuleName } from '../requirements.js';
import { checkContentType } from './content-type.js';

const SPEC_KINDS = new Map<string, AnyKind>(KINDS.map((kind) => [kind.plural, kind]));
const VENDOR_KINDS = new Map<string, AnyKind>(
  (ACTION_NETWORK_KINDS as readonly AnyKind[]).map((kind) => [kind.plural, kind]),
);

/**
 * Checks the entry point's answer and, when it is a HAL document, keeps it and the
 * collections it links in `context`. Returns false when nothing else can be checked.
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
  context.add(area, 'entry-point.hal', 'pass', 'a HAL document with _links', {
    spec: SPEC.entryPoint,
    url,
  });
  context.add(
    area,
    'entry-point.self',
    links.self ? 'pass' : missingStatus('entry-point.self'),
    links.self ? 'links its self' : 'no self link: a client cannot tell the entry point it read',
    { spec: SPEC.entryPoint, url },
  );
  checkCuries(context, links.curies, url);
  checkFields(context, body, url);
  findCollections(context, document);
  return true;
}

/**
 * The documentation a curie names, fetched once (its href expanded for one relation),
 * without the key. On another origin it is read only when the user asked
 * (`--follow-docs`): the server under test is the entry point's origin. A failure to
 * read it, wherever it is, is a warning about that link, and the run goes on.
 */
export async function checkCurieDocs(context: CheckContext): Promise<void> {
  const entry = context.entry;
  const first = context.collections.find((collection) => collection.rel.includes(':'));
  if (!entry || !first) return;
  const id = entry.curies.relationId(first.rel);
  if (id === first.rel) return; // undeclared: already reported
  const name = first.rel.split(':')[0];
  const extra = { spec: SPEC.curies, url: id };
  const rule = 'entry-point.curie-docs';
  if (!onOrigin(id, context.origin) && !context.followDocs) {
    context.add(
      'entry point',
      rule,
      'skip',
      `the curie ${name}'s documentation (${id}) is on another origin than the server under test (${context.origin}): not contacted (--follow-docs reads it)`,
      extra,
    );
    return;
  }
  let answer: ProbeResponse;
  try {
    answer = await context.request(id, { withKey: false, elsewhere: context.followDocs });
  } catch (error) {
    if (error instanceof OffOriginError) {
      context.add(
        'entry point',
        rule,
        'skip',
        `${error.message}: not contacted (--follow-docs reads it)`,
        extra,
      );
      return;
    }
    if (!isAdisError(error) || (error.code !== 'NETWORK' && error.code !== 'TIMEOUT')) throw error;
    context.add(
      'entry point',
      rule,
      'warn',
      `the curie of ${first.rel} expands to ${id}, which could not be read (${error.message}): its documentation cannot be read; the other checks go on`,
      extra,
    );
    return;
  }
  const ok = answer.status >= 200 && answer.status < 300;
  context.add(
    'entry point',
    rule,
    ok ? 'pass' : 'warn',
    ok
      ? `the curie ${name} resolves: ${id} answers ${answer.status}`
      : `the curie of ${first.rel} expands to ${id}, which answers ${answer.status}: its documentation cannot be read`,
    extra,
  );
}

function checkCuries(context: CheckContext, value: unknown, url: string): void {
  const curies = toLinkList(value);
  if (curies.length === 0) {
    context.add(
      'entry point',
      'entry-point.curies',
      missingStatus('entry-point.curies'),
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

/** A member of the entry point the specification lists, and the rule that checks it. */
interface EntryPointMember {
  member: string;
  type: 'string' | 'integer';
  /** The rule, whose level says whether the member may be left out. */
  rule: RuleName;
  spec: string;
  /** Where servers in the wild put it instead (`osdi_version`, `max_page_size`), named when it is missing. */
  alias?: RegExp;
}

/** The entry point's members, as the specification's table lists them. */
const ENTRY_POINT_MEMBERS: readonly EntryPointMember[] = [
  {
    member: 'std_version',
    type: 'string',
    rule: 'entry-point.version',
    spec: SPEC.versioning,
    alias: /^[a-z]+_version$/,
  },
  {
    member: 'max_pagesize',
    type: 'integer',
    rule: 'entry-point.max-pagesize',
    spec: SPEC.limits,
    alias: /^max_page_size$/,
  },
  { member: 'motd', type: 'string', rule: 'entry-point.fields', spec: SPEC.entryPoint },
  { member: 'vendor_name', type: 'string', rule: 'entry-point.fields', spec: SPEC.entryPoint },
  { member: 'product_name', type: 'string', rule: 'entry-point.fields', spec: SPEC.entryPoint },
  { member: 'namespace', type: 'string', rule: 'entry-point.fields', spec: SPEC.entryPoint },
];

function hasType(value: unknown, type: EntryPointMember['type']): boolean {
  return type === 'string' ? typeof value === 'string' : Number.isInteger(value);
}

/** A member that is there with the wrong type, as a message names it: its value and its type. */
function wrongValue(name: string, value: unknown): string {
  const type = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
  return `${name} is ${JSON.stringify(value)?.slice(0, 40) ?? String(value)} (${type})`;
}

function checkFields(context: CheckContext, body: Record<string, unknown>, url: string): void {
  for (const entry of ENTRY_POINT_MEMBERS) {
    if (entry.rule !== 'entry-point.fields') checkMember(context, body, url, entry);
  }
  checkListedFields(
    context,
    body,
    url,
    ENTRY_POINT_MEMBERS.filter((entry) => entry.rule === 'entry-point.fields'),
  );
}

/** A member with a rule of its own: there with its type, there with another, or missing. */
function checkMember(
  context: CheckContext,
  body: Record<string, unknown>,
  url: string,
  { member, type, rule, spec, alias }: EntryPointMember,
): void {
  const value = body[member];
  if (value !== undefined && hasType(value, type)) {
    context.add('entry point', rule, 'pass', `${member} ${String(value)}`, { spec, url });
  } else if (value !== undefined) {
    context.add(
      'entry point',
      rule,
      'fail',
      `${wrongValue(member, value)}, not ${type === 'string' ? 'a string' : 'an integer'}`,
      { spec, url, subject: { members: [member] } },
    );
  } else {
    const other = alias ? Object.keys(body).find((key) => alias.test(key)) : undefined;
    context.add(
      'entry point',
      rule,
      missingStatus(rule),
      `no ${member}${other ? `: it is in ${other} (${String(body[other])})` : ''}`,
      { spec, url, subject: { members: [member], missing: true } },
    );
  }
}

/** The members one rule checks together (`entry-point.fields`): a wrong one fails, a missing one is the level's. */
function checkListedFields(
  context: CheckContext,
  body: Record<string, unknown>,
  url: string,
  listed: readonly EntryPointMember[],
): void {
  const rule = 'entry-point.fields';
  const extra = { spec: SPEC.entryPoint, url };
  const wrong = listed.filter(
    ({ member, type }) => body[member] !== undefined && !hasType(body[member], type),
  );
  const missing = listed
    .filter(({ member }) => body[member] === undefined)
    .map((entry) => entry.member);
  if (wrong.length > 0) {
    context.add(
      'entry point',
      rule,
      'fail',
      `not strings: ${wrong.map(({ member }) => wrongValue(member, body[member])).join(', ')}${missing.length > 0 ? `; missing: ${missing.join(', ')}` : ''}`,
      { ...extra, subject: { members: wrong.map((entry) => entry.member) } },
    );
  } else if (missing.length > 0) {
    context.add(
      'entry point',
      rule,
      missingStatus(rule),
      `missing (the specification lists them, a server may leave them out): ${missing.join(', ')}`,
      { ...extra, subject: { members: missing, missing: true } },
    );
  } else {
    context.add(
      'entry point',
      rule,
      'pass',
      `vendor ${String(body.vendor_name)}, product ${String(body.product_name)}, namespace ${String(body.namespace)}`,
      extra,
    );
  }
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
