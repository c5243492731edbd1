/**
 * Demo data: realistic people from a deterministic PRNG, so a given seed always gives
 * the same names, emails, phones and addresses (record ids are random UUIDs as always).
 */
import { localIdentifier, newRecordId } from './domain/identifiers.js';
import { personKind } from './domain/person.js';
import { composeDocument } from './domain/records/index.js';
import type { JsonObject, RecordWrite, Storage } from './storage/storage.js';

/**
 * mulberry32: a tiny, fast, well-distributed 32-bit PRNG; returns floats in [0, 1).
 *
 * @example
 * ```ts
 * import { prng } from './seed.js';
 *
 * const random = prng(42);
 * random(); // always the same first value for seed 42
 * ```
 */
export function prng(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const GIVEN = {
  Female: [
    'Ana',
    'Maria',
    'Aisha',
    'Mei',
    'Fatima',
    'Olivia',
    'Priya',
    'Chloe',
    'Sofia',
    'Amara',
    'Ingrid',
    'Yuki',
    'Lucia',
    'Nadia',
    'Grace',
  ],
  Male: [
    'James',
    'Luis',
    'Kwame',
    'Hiroshi',
    'Omar',
    'Noah',
    'Ravi',
    'Lucas',
    'Mateo',
    'Tariq',
    'Erik',
    'Daniel',
    'Samuel',
    'Ivan',
    'Kofi',
  ],
  Other: ['Alex', 'Sam', 'Robin', 'Jordan', 'Kai', 'River'],
} as const;
const FAMILY = [
  'Garcia',
  'Smith',
  'Okafor',
  'Nguyen',
  'Khan',
  'Müller',
  'Rossi',
  'Kim',
  'Silva',
  'Johnson',
  'Dubois',
  'Haddad',
  'Kowalski',
  'Tanaka',
  'Mensah',
  'Patel',
  "O'Brien",
  'Andersson',
  'Hernández',
  'Cohen',
];
const STREETS = [
  'Main St',
  'Oak Avenue',
  'High Street',
  'Rue de la Paix',
  'Elm Road',
  'Maple Drive',
  'Market Street',
  'Park Lane',
];
const PLACES = [
  {
    country: 'US',
    code: '1',
    digits: 10,
    locality: 'Washington',
    region: 'DC',
    postal: () => '20001',
  },
  {
    country: 'US',
    code: '1',
    digits: 10,
    locality: 'Brooklyn',
    region: 'NY',
    postal: () => '11201',
  },
  { country: 'US', code: '1', digits: 10, locality: 'Austin', region: 'TX', postal: () => '78701' },
  {
    country: 'GB',
    code: '44',
    digits: 10,
    locality: 'Manchester',
    region: 'MAN',
    postal: () => 'M1 1AE',
  },
  { country: 'FR', code: '33', digits: 9, locality: 'Paris', region: '75', postal: () => '75002' },
  {
    country: 'DE',
    code: '49',
    digits: 10,
    locality: 'Berlin',
    region: 'BE',
    postal: () => '10115',
  },
  {
    country: 'MX',
    code: '52',
    digits: 10,
    locality: 'Guadalajara',
    region: 'JAL',
    postal: () => '44100',
  },
] as const;
const PRONOUNS = {
  Female: { subject: 'She', object: 'Her', posessive: 'Hers' },
  Male: { subject: 'He', object: 'Him', posessive: 'His' },
  Other: { subject: 'They', object: 'Them', posessive: 'Theirs' },
} as const;
const LANGUAGES = ['en', 'es', 'fr', 'de', 'zh', 'ar', 'pt-BR', 'en-GB'];
const INTERESTS = ['canvassing', 'phone banking', 'events', 'data entry', 'fundraising'];
const SOURCES = ['website', 'event sign-in', 'petition', 'referral', 'import'];

function pick<T>(random: () => number, values: readonly T[]): T {
  return values[Math.floor(random() * values.length)] as T;
}

function digits(random: () => number, count: number): string {
  let out = String(1 + Math.floor(random() * 9));
  while (out.length < count) out += String(Math.floor(random() * 10));
  return out;
}

function emailPart(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
}

/**
 * One demo person's fields (without identifiers and dates). `index` makes the email
 * address unique; `small` leaves only names and one email (for million-row benchmarks).
 */
export function demoPerson(random: () => number, index: number, small = false): JsonObject {
  const gender = random() < 0.47 ? 'Female' : random() < 0.93 ? 'Male' : 'Other';
  const given = pick(random, GIVEN[gender]);
  const family = pick(random, FAMILY);
  const email = `${emailPart(given)}.${emailPart(family)}${index + 1}@example.org`;
  if (small) {
    return {
      given_name: given,
      family_name: family,
      email_addresses: [{ primary: true, address: email }],
    };
  }
  const place = pick(random, PLACES);
  const person: JsonObject = {
    given_name: given,
    family_name: family,
    email_addresses: [
      {
        primary: true,
        address: email,
        address_type: 'personal',
        status: random() < 0.85 ? 'subscribed' : 'unsubscribed',
      },
    ],
    phone_numbers: [
      {
        primary: true,
        number: place.code + digits(random, place.digits),
        number_type: random() < 0.7 ? 'Mobile' : 'Home',
        country: place.country,
        sms_capable: random() < 0.6,
      },
    ],
    postal_addresses: [
      {
        primary: true,
        address_type: 'Home',
        address_lines: [`${1 + Math.floor(random() * 2000)} ${pick(random, STREETS)}`],
        locality: place.locality,
        region: place.region,
        postal_code: place.postal(),
        country: place.country,
      },
    ],
    source: pick(random, SOURCES),
    custom_fields: {
      volunteer_interest: pick(random, INTERESTS),
      signup_year: String(2015 + Math.floor(random() * 11)),
    },
  };
  if (random() < 0.5) {
    person.gender = gender;
    person.gender_identity = gender === 'Other' ? 'Non-binary' : gender;
    person.gender_pronouns = { ...PRONOUNS[gender] };
  }
  if (random() < 0.4) {
    const first = pick(random, LANGUAGES);
    const second = pick(random, LANGUAGES);
    person.languages_spoken = first === second ? [first] : [first, second];
    person.preferred_language = first;
  }
  if (random() < 0.2) {
    person.birthdate = {
      year: 1940 + Math.floor(random() * 65),
      month: 1 + Math.floor(random() * 12),
      day: 1 + Math.floor(random() * 28),
    };
  }
  return person;
}

/** Options of {@link seedPeople}. */
export interface SeedOptions {
  /** Tenant name; created when missing. Default `demo`. */
  tenant?: string;
  /** Number of people. */
  count: number;
  /** PRNG seed. Default 1. */
  seed?: number;
  /** Minimal documents (names and one email): for large benchmarks. */
  small?: boolean;
  /** Called every `progressEvery` records (default 100,000). */
  onProgress?: (done: number) => void;
  progressEvery?: number;
}

/**
 * Inserts `count` demo people for a tenant in one transaction; returns the count.
 *
 * @example
 * ```ts
 * import { openStorage, seedPeople } from 'adis-server';
 *
 * const storage = openStorage(':memory:');
 * await seedPeople(storage, { count: 300 });
 * ```
 */
export async function seedPeople(storage: Storage, options: SeedOptions): Promise<number> {
  const tenant = await storage.tenants.ensure(options.tenant ?? 'demo');
  const random = prng(options.seed ?? 1);
  const every = options.progressEvery ?? 100_000;
  const stamp = new Date().toISOString();
  function* writes(): Generator<RecordWrite> {
    for (let index = 0; index < options.count; index++) {
      const id = newRecordId();
      const identifiers = [localIdentifier(tenant.namespace, id)];
      const doc = composeDocument(
        identifiers,
        stamp,
        stamp,
        demoPerson(random, index, options.small),
      );
      yield {
        tenantId: tenant.id,
        kind: personKind.singular,
        id,
        doc,
        created_date: stamp,
        modified_date: stamp,
        identifiers,
        keys: personKind.lookupKeys(doc),
      };
      if (options.onProgress && (index + 1) % every === 0) options.onProgress(index + 1);
    }
  }
  return storage.records.insertMany(writes());
}
