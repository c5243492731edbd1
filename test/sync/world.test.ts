/**
 * The sync's test world checked on its own, before any sync runs through it: the
 * seeded source holds every kind with its relations, a server compared with itself has
 * no difference, a copy made by hand is found equal and every way it is made wrong is
 * named, and the fault proxy makes each of its faults.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, connect } from '../../src/index.js';
import { compareCopies, countRecords, describeDifferences, normalise } from './compare-copies.js';
import { faultProxy } from './fault-proxy.js';
import { seedSource } from './seed-source.js';
import { startServer, startWorld, type World, type WorldServer } from './world.js';

/** Every kind the seed makes records of. */
const SEEDED_KINDS = [
  'people',
  'organizations',
  'petitions',
  'signatures',
  'forms',
  'submissions',
  'fundraising_pages',
  'donations',
  'share_pages',
  'advocacy_campaigns',
  'outreaches',
  'events',
  'attendances',
  'questions',
  'answers',
  'wrappers',
  'messages',
  'tags',
  'taggings',
  'lists',
  'items',
  'queries',
  'canvasses',
];

describe.each(['specification', 'action-network'] as const)(
  'a source seeded under the %s preset',
  (preset) => {
    let source: WorldServer;
    let client: Client;
    let counts: Record<string, number>;

    beforeAll(async () => {
      source = await startServer('source', { preset });
      ({ counts } = await seedSource(source, { people: 300 }));
      client = await source.connect();
    });
    afterAll(() => source.close());

    it('holds records of every kind, as many as the seed says', async () => {
      for (const kind of SEEDED_KINDS) expect(counts[kind], kind).toBeGreaterThan(0);
      expect(await countRecords(client, SEEDED_KINDS)).toEqual(
        Object.fromEntries(SEEDED_KINDS.map((kind) => [kind, counts[kind]])),
      );
    });

    it('has people with other emails, phones and addresses, custom fields and foreign identifiers', async () => {
      const people = await client.people.toArray();
      expect(people).toHaveLength(300);
      const some = (test: (data: Record<string, unknown>) => boolean) =>
        people.filter((person) => test(person.document.properties)).length;
      const second = (member: string) => (data: Record<string, unknown>) =>
        Array.isArray(data[member]) && (data[member] as unknown[]).length > 1;
      expect(some(second('email_addresses'))).toBeGreaterThan(50);
      expect(some(second('phone_numbers'))).toBeGreaterThan(30);
      expect(some(second('postal_addresses'))).toBeGreaterThan(20);
      expect(
        some((data) => typeof (data.custom_fields as { ward?: unknown })?.ward === 'string'),
      ).toBeGreaterThan(80);
      expect(
        people.filter((person) => person.identifiers.some((id) => id.startsWith('crm:'))),
      ).toHaveLength(60);
      // Each at its own second, over the month before the seed's moment.
      expect(new Set(people.map((person) => person.data.created_date)).size).toBe(300);
    });

    it('relates the actions to people and parents, with totals and donations dated in the past', async () => {
      const petitions = await client.petitions.toArray();
      let signed = 0;
      for (const petition of petitions) {
        const signatures = await client.get(petition.link('std:signatures')?.url() ?? '');
        const total = Number(petition.document.properties.total_signatures);
        expect(total).toBe(Number(signatures.properties.total_records ?? total));
        signed += total;
      }
      expect(signed).toBe(counts.signatures);
      const [signature] = await client.signatures.toArray({ limit: 1 });
      expect(signature?.link('std:person')?.href).toMatch(/\/people\//);
      expect(signature?.link('std:petition')?.href).toMatch(/\/petitions\//);
      const donations = await client.donations.toArray();
      const past = donations.filter(
        (donation) =>
          Date.parse(String(donation.document.properties.created_date)) <
          Date.parse(String(donation.document.properties.modified_date)) - 3_600_000,
      );
      expect(past.length).toBeGreaterThanOrEqual(4);
    });

    it('compares equal to itself', async () => {
      const differences = await compareCopies(client, client, { sourceSystem: source.namespace });
      expect(describeDifferences(differences)).toBe('');
    });
  },
);

describe('the world', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld({ source: { preset: 'action-network' }, target: {} });
  });
  afterAll(() => world.close());

  it('names the sourceSystem a sync needs, and serves Action Network without its key rate', async () => {
    expect(world.sourceSystem).toBe('action_network');
    const client = await world.source.connect();
    expect(client.entryPoint.namespace).toBe('action_network');
    // Twenty calls at once: the preset's 4 a second would refuse most of them.
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        fetch(world.source.entryPoint, { headers: { 'OSDI-API-Token': world.source.key } }).then(
          (response) => response.status,
        ),
      ),
    );
    expect(statuses).toEqual(Array.from({ length: 20 }, () => 200));
  });

  it('is the same sourceSystem as the namespace when the namespaces differ, origin when not', async () => {
    const same = await startWorld();
    try {
      expect(same.sourceSystem).toBe('origin');
    } finally {
      await same.close();
    }
  });
});

describe('compareCopies', () => {
  let world: World;
  let from: Client;
  let to: Client;

  beforeAll(async () => {
    world = await startWorld();
    await seedSource(world.source, { people: 6, activity: false, extraActions: 0 });
    from = await world.source.connect();
    to = await world.target.connect();
  });
  afterAll(() => world.close());

  it('finds a copy made by hand equal, and names each way a copy is wrong', async () => {
    const kinds = ['people', 'petitions', 'signatures'];
    // A copy by hand: the people, one petition, a signature of it.
    const copies = new Map<string, string>();
    for (const person of await from.people.toArray()) {
      const {
        identifiers,
        created_date: _c,
        modified_date: _m,
        ...members
      } = person.document.properties as Record<string, unknown> & { identifiers: string[] };
      const copy = await to.people.create({
        ...members,
        identifiers: identifiers.map((id) => id.replace(/^adis:/, 'origin:')),
      });
      copies.set(person.url, copy.url);
    }
    const [first, second] = await from.people.toArray({ limit: 2 });
    const petition = await from.petitions.create({ title: 'Keep the library open' });
    const signature = await petition
      .signatures()
      .create({ comments: 'Yes', _links: { 'std:person': { href: first?.url ?? '' } } });
    const petitionCopy = await to.petitions.create({
      title: 'Keep the library open',
      identifiers: [`origin:${from.localId(petition)}`],
    });
    const signatureCopy = await petitionCopy.signatures().create({
      comments: 'Yes',
      identifiers: [`origin:${from.localId(signature)}`],
      _links: { 'std:person': { href: copies.get(first?.url ?? '') ?? '' } },
    });
    const compare = () => compareCopies(from, to, { sourceSystem: 'origin', kinds });
    expect(describeDifferences(await compare())).toBe('');

    // A member changed, a relation to the wrong person, a record that is no copy, a copy missing.
    const people = await to.people.toArray();
    await people[2]?.update({ given_name: 'Changed' });
    await signatureCopy.update({
      _links: { 'std:person': { href: copies.get(second?.url ?? '') ?? '' } },
    });
    // The server refuses a second record with an identifier: a second copy made
    // without the identifiers is what a lost answer written again leaves.
    await to.people.create({ given_name: 'Twice' });
    await people[4]?.delete();
    const problems = await compare();
    const found = problems.map(
      (difference) => `${difference.kind} ${difference.member ?? ''} ${difference.problem}`,
    );
    expect(found).toEqual(
      expect.arrayContaining([
        'people given_name member differs',
        expect.stringMatching(
          /^people {2}a record on the target that is a copy of no source record/,
        ),
        expect.stringMatching(/^people {2}no copy on the target/),
        expect.stringMatching(/^signatures _links.std:person the copy should link the copy/),
      ]),
    );
    expect(problems).toHaveLength(4);
    expect(describeDifferences(problems)).toContain('member differs: source "');
  });

  it('takes date-times to the second and money in either spelling as equal, and no other value', () => {
    const same = (a: unknown, b: unknown) =>
      JSON.stringify(normalise(a)) === JSON.stringify(normalise(b));
    expect(same({ at: '2026-11-02T22:29:16.123Z' }, { at: '2026-11-02T22:29:16Z' })).toBe(true);
    expect(same({ at: '2026-11-02 22:29:16' }, { at: '2026-11-02T22:29:16Z' })).toBe(true);
    expect(same({ at: '2026-11-02T23:29:16+01:00' }, { at: '2026-11-02T22:29:16Z' })).toBe(true);
    expect(same({ at: '2026-11-02T22:29:17Z' }, { at: '2026-11-02T22:29:16Z' })).toBe(false);
    expect(same({ amount: '25.00' }, { amount: 25 })).toBe(true);
    expect(same({ recipients: [{ amount: '12.50' }] }, { recipients: [{ amount: 12.5 }] })).toBe(
      true,
    );
    expect(same({ amount: '25.01' }, { amount: 25 })).toBe(false);
    expect(same({ signup_year: '2015' }, { signup_year: 2015 })).toBe(false);
    expect(same({ a: 1, b: null }, { a: 1 })).toBe(true);
    expect(same({ list: [1, 2] }, { list: [2, 1] })).toBe(false);
  });
});

describe('the fault proxy', () => {
  let world: World;
  beforeAll(async () => {
    world = await startWorld();
  });
  afterAll(() => world.close());

  it('forwards, logs and counts by method; the links lead back through it', async () => {
    const proxy = await faultProxy({ upstream: world.target.origin });
    try {
      const client = await world.target.connect({ via: proxy.origin });
      const person = await client.people.create({ given_name: 'Ana' });
      expect(person.url.startsWith(proxy.origin)).toBe(true);
      await client.people.toArray();
      expect(proxy.counts()).toEqual({ GET: 2, POST: 1 });
      expect(proxy.writes().map((entry) => `${entry.method} ${entry.status}`)).toEqual([
        'POST 201',
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('answers 429 with Retry-After to every Nth request, which the SDK waits out', async () => {
    const proxy = await faultProxy({ upstream: world.target.origin, throttleEvery: 2 });
    try {
      const client = await world.target.connect({ via: proxy.origin });
      const started = Date.now();
      await client.people.toArray();
      await client.people.toArray();
      expect(proxy.log.map((entry) => entry.status)).toEqual([200, 429, 200, 429, 200]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(1900);
    } finally {
      await proxy.close();
    }
  });

  it('answers 503 at the Kth POST, before forwarding or after (the write made)', async () => {
    for (const mode of ['before', 'after'] as const) {
      const proxy = await faultProxy({
        upstream: world.target.origin,
        failPost: { at: 2, mode },
        ignoreIdempotencyKeys: true,
      });
      try {
        const client = await world.target.connect({ via: proxy.origin });
        const before = (await client.people.toArray()).length;
        await client.people.create({ given_name: `First ${mode}` });
        // Without Idempotency-Key-Honoured the SDK does not send a POST again after a 5xx.
        await expect(client.people.create({ given_name: `Second ${mode}` })).rejects.toMatchObject({
          status: 503,
        });
        await client.people.create({ given_name: `Third ${mode}` });
        const names = (await client.people.toArray()).slice(before).map((p) => p.data.given_name);
        expect(names).toEqual(
          mode === 'after'
            ? [`First ${mode}`, `Second ${mode}`, `Third ${mode}`]
            : [`First ${mode}`, `Third ${mode}`],
        );
        expect(proxy.writes().map((entry) => entry.fault)).toEqual([
          undefined,
          `503 ${mode}`,
          undefined,
        ]);
      } finally {
        await proxy.close();
      }
    }
  });

  it('takes Idempotency-Key off requests and Idempotency-Key-Honoured off answers', async () => {
    const seen: (string | null)[] = [];
    const direct = await faultProxy({ upstream: world.target.origin });
    const ignoring = await faultProxy({
      upstream: world.target.origin,
      ignoreIdempotencyKeys: true,
    });
    try {
      for (const proxy of [direct, ignoring]) {
        const response = await fetch(`${proxy.origin}/api/v1/people`, {
          method: 'POST',
          headers: {
            'STD-API-Token': world.target.key,
            'content-type': 'application/json',
            'idempotency-key': `key-${proxy.origin}`,
          },
          body: JSON.stringify({ given_name: 'Keyed' }),
        });
        expect(response.status).toBe(201);
        seen.push(response.headers.get('idempotency-key-honoured'));
      }
      expect(seen[0]).not.toBeNull();
      expect(seen[1]).toBeNull();
    } finally {
      await Promise.all([direct.close(), ignoring.close()]);
    }
  });
});

describe('connect through the world', () => {
  it('reaches each server with its preset over loopback', async () => {
    const world = await startWorld({ target: { preset: 'action-network' } });
    try {
      const target = await connect(world.target.entryPoint, world.target.clientOptions());
      expect(target.entryPoint.namespace).toBe('action_network');
      expect(world.target.entryPoint).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2\/$/);
    } finally {
      await world.close();
    }
  });
});
