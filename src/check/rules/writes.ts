/**
 * With `--write` only: for each kind it has a sample of, create a record, read it back,
 * write it back unchanged (the round-trip rule: what a client read it can send again),
 * delete it and see it gone; one signup helper call with a unique email (and again in
 * the background, `background_request=true`); whether an `Idempotency-Key` sent twice
 * creates once. Every record made is deleted, and any that could not be is reported by
 * its URL. A create refused where a known server documents the collection as read only
 * is that server's departure (known-servers.ts), not a failure.
 */
import { isJsonObject } from '../../hal/link.js';
import { resolveHref, withQueryParameter } from '../../hal/uri.js';
import { DEFAULT_BACKGROUND_PARAMETER } from '../../wire/background-parameter.js';
import { type CheckContext, SPEC } from '../context.js';
import type { ProbeResponse } from '../prober.js';

/**
 * The query parameter that asks for a call to be done in the background: the SDK's,
 * spelt as Action Network documents it (`background_request`). The specification has
 * none; an immediate 2xx (Action Network's `200 {}`, the reference server's `202 {}`)
 * and the write seen applied soon after is what the check asks.
 */
const BACKGROUND = `${DEFAULT_BACKGROUND_PARAMETER}=true`;

/** A valid new record of each kind the checker writes, unique by `tag`. */
const SAMPLES: Readonly<Record<string, (tag: string) => Record<string, unknown>>> = {
  people: (tag) => ({
    given_name: 'Adis',
    family_name: `Check ${tag}`,
    email_addresses: [{ address: `adis-check-${tag}@example.org`, primary: true }],
  }),
  tags: (tag) => ({ name: `adis-check ${tag}` }),
  lists: (tag) => ({ name: `adis-check ${tag}` }),
  petitions: (tag) => ({ title: `adis-check ${tag}` }),
  forms: (tag) => ({ title: `adis-check ${tag}` }),
  events: (tag) => ({ title: `adis-check ${tag}`, start_date: '2030-06-01T18:00:00Z' }),
  questions: (tag) => ({ title: `adis-check ${tag}`, question_type: 'Paragraph' }),
};

/** Creates, reads back, writes back and deletes; calls a helper; sends a key twice. */
export async function checkWrites(context: CheckContext): Promise<void> {
  const leftovers: string[] = [];
  for (const collection of context.collections) {
    const sample = SAMPLES[collection.plural];
    if (!sample || collection.vendorKind) continue;
    await roundTrip(
      context,
      collection.plural,
      collection.link.url({}),
      sample(crypto.randomUUID()),
      leftovers,
    );
  }
  const tags = context.collections.find((collection) => collection.plural === 'tags');
  if (tags) await idempotency(context, tags.link.url({}), leftovers);
  await helper(context, leftovers);
  context.add(
    'writes',
    'writes.cleanup',
    leftovers.length === 0 ? 'pass' : 'warn',
    leftovers.length === 0
      ? 'every record the checker made is deleted'
      : `records the checker made and could not delete: ${leftovers.join(', ')}`,
    { spec: SPEC.createUpdate },
  );
}

async function roundTrip(
  context: CheckContext,
  plural: string,
  url: string,
  body: Record<string, unknown>,
  leftovers: string[],
): Promise<void> {
  const extra = { spec: SPEC.createUpdate, url };
  const created = await context.request(url, { method: 'POST', json: body });
  if (created.status !== 201 && created.status !== 200) {
    context.add(
      'writes',
      'writes.create',
      'fail',
      `${plural}: a create answered ${created.status}${errorText(created)}`,
      // What a known server may document: this collection refuses POST (read only).
      { ...extra, subject: { collection: plural, method: 'POST', status: created.status } },
    );
    return;
  }
  const self = createdUrl(created, url);
  context.add(
    'writes',
    'writes.create',
    created.status === 201 ? 'pass' : 'warn',
    `${plural}: a create answered ${created.status}${created.status === 200 ? ', where the specification says 201' : ''}`,
    extra,
  );
  if (!self) {
    context.add(
      'writes',
      'writes.read-back',
      'fail',
      `${plural}: the create answered neither a Location nor a self link: the record cannot be found again`,
      extra,
    );
    return;
  }
  const read = await context.request(self);
  const record = isJsonObject(read.json) ? read.json : undefined;
  const differs = record
    ? Object.keys(body).filter(
        (member) => typeof body[member] !== 'object' && record[member] !== body[member],
      )
    : [];
  context.add(
    'writes',
    'writes.read-back',
    read.status === 200 && record && differs.length === 0 ? 'pass' : 'fail',
    read.status !== 200 || !record
      ? `${plural}: GET of the new record answered ${read.status}`
      : differs.length > 0
        ? `${plural}: read back, ${differs.join(', ')} differ from what was sent`
        : `${plural}: read back as written`,
    { spec: SPEC.createUpdate, url: self },
  );
  if (record) {
    const { _links: _l, _embedded: _e, ...asRead } = record;
    const put = await context.request(self, { method: 'PUT', json: asRead });
    context.add(
      'writes',
      'writes.round-trip',
      put.status === 200 ? 'pass' : put.status === 204 ? 'warn' : 'fail',
      put.status === 200
        ? `${plural}: the record as read is accepted back unchanged`
        : `${plural}: writing back the record as read answered ${put.status}${errorText(put)}`,
      { spec: SPEC.createUpdate, url: self },
    );
  }
  await remove(context, plural, self, leftovers);
}

async function remove(
  context: CheckContext,
  plural: string,
  self: string,
  leftovers: string[],
): Promise<void> {
  const deleted = await context.request(self, { method: 'DELETE' });
  if (deleted.status !== 204 && deleted.status !== 200) {
    leftovers.push(self);
    context.add(
      'writes',
      'writes.delete',
      'warn',
      `${plural}: DELETE answered ${deleted.status}${errorText(deleted)}`,
      { spec: SPEC.createUpdate, url: self },
    );
    return;
  }
  const gone = await context.request(self);
  context.add(
    'writes',
    'writes.delete',
    gone.status === 404 || gone.status === 410
      ? deleted.status === 204
        ? 'pass'
        : 'warn'
      : 'fail',
    gone.status === 404 || gone.status === 410
      ? `${plural}: deleted (${deleted.status}${deleted.status === 200 ? ', where the specification says 204' : ''}), then ${gone.status}`
      : `${plural}: DELETE answered ${deleted.status} but the record still answers ${gone.status}`,
    { spec: SPEC.createUpdate, url: self },
  );
  if (gone.status === 200) leftovers.push(self);
}

async function idempotency(context: CheckContext, url: string, leftovers: string[]): Promise<void> {
  const key = `adis-check-${crypto.randomUUID()}`;
  const body = { name: `adis-check ${key}` };
  const first = await context.request(url, {
    method: 'POST',
    json: body,
    headers: { 'Idempotency-Key': key },
  });
  const second = await context.request(url, {
    method: 'POST',
    json: body,
    headers: { 'Idempotency-Key': key },
  });
  const one = createdUrl(first, url);
  const two = createdUrl(second, url);
  const honoured = one !== undefined && one === two;
  context.add(
    'writes',
    'writes.idempotency-key',
    honoured ? 'pass' : 'warn',
    honoured
      ? `a create sent twice with one Idempotency-Key made one record${second.headers.get('idempotent-replayed') ? ' (the repeat says Idempotent-Replayed)' : ''}`
      : `a create sent twice with one Idempotency-Key answered ${first.status} then ${second.status}${one && two ? ' with two records' : ''}: a retried POST may act twice (at least once, not exactly once)`,
    { spec: SPEC.idempotency, url },
  );
  for (const self of new Set([one, two])) if (self) await remove(context, 'tags', self, leftovers);
}

async function helper(context: CheckContext, leftovers: string[]): Promise<void> {
  const link = context.entry?.link(`${context.prefix}:person_signup_helper`);
  if (!link) {
    context.add(
      'writes',
      'writes.helper',
      'skip',
      'the entry point links no person_signup_helper',
      { spec: SPEC.helpers },
    );
    return;
  }
  const url = link.url({});
  const email = `adis-check-${crypto.randomUUID()}@example.org`;
  const body = {
    person: { given_name: 'Adis', family_name: 'Check', email_addresses: [{ address: email }] },
  };
  const answer = await context.request(url, { method: 'POST', json: body });
  const ok = answer.status >= 200 && answer.status < 300;
  context.add(
    'writes',
    'writes.helper',
    ok ? 'pass' : 'fail',
    ok
      ? `person_signup_helper with a new email answered ${answer.status}`
      : `person_signup_helper answered ${answer.status}${errorText(answer)}`,
    { spec: SPEC.helpers, url },
  );
  const person = createdUrl(answer, url);
  // The same person again, in the background, with another given name: an upsert that
  // makes nothing new, seen applied when her record shows the name. She is deleted only
  // then, or a late background write would make her again after the delete.
  const renamed = { person: { ...body.person, given_name: 'Adis-background' } };
  const background = await context.request(
    withQueryParameter(url, DEFAULT_BACKGROUND_PARAMETER, 'true'),
    { method: 'POST', json: renamed },
  );
  const accepted = background.status >= 200 && background.status < 300;
  const applied =
    accepted && person ? await appliedWithin(context, person, 'Adis-background') : false;
  context.add(
    'writes',
    'writes.background-processing',
    accepted ? (applied || !person ? 'pass' : 'warn') : 'warn',
    !accepted
      ? `${BACKGROUND} answered ${background.status}${errorText(background)}`
      : applied
        ? `${BACKGROUND} answered ${background.status}, and the write was applied`
        : person
          ? `${BACKGROUND} answered ${background.status}, but the write was not seen within ${BACKGROUND_POLLS} reads`
          : `${BACKGROUND} answered ${background.status}`,
    { spec: SPEC.notes, url },
  );
  if (person) await remove(context, 'people', person, leftovers);
  else if (ok) leftovers.push(`the person ${email} (the helper's answer named no self)`);
}

/** Reads of a record while waiting for a background write to show. */
const BACKGROUND_POLLS = 10;

/** Whether `url`'s record shows `given_name` within {@link BACKGROUND_POLLS} reads. */
async function appliedWithin(
  context: CheckContext,
  url: string,
  givenName: string,
): Promise<boolean> {
  for (let poll = 0; poll < BACKGROUND_POLLS; poll++) {
    const answer = await context.request(url);
    if (isJsonObject(answer.json) && answer.json.given_name === givenName) return true;
    await new Promise((resolve) => setTimeout(resolve, 100 * (poll + 1)));
  }
  return false;
}

/** The new record's address: its Location, or its self link. */
function createdUrl(answer: ProbeResponse, base: string): string | undefined {
  const location = answer.headers.get('location');
  if (location) return resolveHref(answer.url || base, location);
  const links =
    isJsonObject(answer.json) && isJsonObject(answer.json._links) ? answer.json._links : undefined;
  const self =
    links && isJsonObject(links.self) && typeof links.self.href === 'string'
      ? links.self.href
      : undefined;
  return self ? resolveHref(base, self) : undefined;
}

function errorText(answer: ProbeResponse): string {
  if (answer.status < 400) return '';
  const text = answer.text.replace(/\s+/g, ' ').slice(0, 200);
  return text ? `: ${text}` : '';
}
