import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  checkpointPath,
  readCheckpoint,
  removeCheckpoint,
  writeCheckpoint,
} from '../../src/export/checkpoint.js';
import { columnValue, defaultColumns, parseColumn } from '../../src/export/columns.js';
import { csvFormat, ndjsonFormat } from '../../src/export/formats.js';
import { EXPORTABLE_COLLECTIONS, exportableKind } from '../../src/export/kinds.js';
import { Utf8Buffer } from '../../src/export/output.js';
import { duration, ProgressBar, renderProgress } from '../../src/export/progress.js';
import { personKind, petitionKind } from '../../src/index.js';

const ana = {
  given_name: 'Ana',
  family_name: 'Lopez, "the elder"',
  identifiers: ['adis:1', 'crm:77'],
  email_addresses: [
    { address: 'old@example.org', primary: false },
    { address: 'ana@example.org', primary: 'true' },
  ],
  phone_numbers: [{ number: 5551234 }],
  custom_fields: { ward: ' 7 ', note: 'line one\nline two' },
  _links: { self: { href: 'https://api.example.org/api/v1/people/1' } },
  _embedded: { 'std:signatures': [{ comments: 'big' }] },
};
const url = 'https://api.example.org/api/v1/people/1';

describe('column paths', () => {
  it('reads members, indexes and the primary element', () => {
    expect(columnValue(parseColumn('email_addresses[primary].address'), ana)).toBe(
      'ana@example.org',
    );
    expect(columnValue(parseColumn('email_addresses.0.address'), ana)).toBe('old@example.org');
    expect(columnValue(parseColumn('email_addresses[1].address'), ana)).toBe('ana@example.org');
    expect(columnValue(parseColumn('custom_fields.ward'), ana)).toBe(' 7 ');
    // No element marked primary: the first one stands in.
    expect(columnValue(parseColumn('phone_numbers[primary].number'), ana)).toBe(5551234);
  });

  it('gives undefined for a path that leads nowhere', () => {
    expect(columnValue(parseColumn('postal_addresses[primary].locality'), ana)).toBeUndefined();
    expect(columnValue(parseColumn('given_name.first'), ana)).toBeUndefined();
    expect(columnValue(parseColumn('custom_fields[0]'), ana)).toBeUndefined();
  });

  it('refuses malformed paths with a message naming them', () => {
    for (const bad of ['', 'a..b', 'emails[first]', 'a b', '[primary']) {
      expect(() => parseColumn(bad)).toThrow(/Column .*expected members joined by dots/);
    }
  });

  it('defaults to the url and every member of the read schema, people with their primary contacts', () => {
    const people = defaultColumns(personKind).map((column) => column.header);
    expect(people.slice(0, 3)).toEqual([
      'url',
      'email_addresses[primary].address',
      'phone_numbers[primary].number',
    ]);
    expect(people).toContain('given_name');
    expect(people).toContain('custom_fields');
    expect(people).not.toContain('_links');
    const petitions = defaultColumns(petitionKind).map((column) => column.header);
    expect(petitions[0]).toBe('url');
    expect(petitions).toContain('total_signatures');
    expect(petitions).not.toContain('email_addresses[primary].address');
  });
});

describe('NDJSON', () => {
  it('writes one line per record with unknown members and links, without _embedded', () => {
    const line = ndjsonFormat().encode({ url, body: { ...ana, vendor_score: 3 } });
    expect(line.endsWith('\n')).toBe(true);
    expect(line.slice(0, -1)).not.toContain('\n');
    const parsed = JSON.parse(line) as Record<string, unknown>;
    expect(parsed.vendor_score).toBe(3);
    expect(parsed.custom_fields).toEqual(ana.custom_fields);
    expect(parsed._links).toEqual(ana._links);
    expect(parsed).not.toHaveProperty('_embedded');
    expect(ndjsonFormat().header()).toBe('');
  });

  it('writes a record that embeds nothing as the same text as the whole body', () => {
    const { _embedded: _ignored, ...plain } = ana;
    const line = ndjsonFormat().encode({ url, body: plain });
    expect(line).toBe(`${JSON.stringify(plain)}\n`);
    expect(ndjsonFormat().encode({ url, body: ana })).toBe(line);
  });
});

describe('CSV', () => {
  it('quotes per RFC 4180 and renders nested values as JSON', () => {
    const csv = csvFormat(
      [
        'url',
        'family_name',
        'identifiers',
        'custom_fields.ward',
        'custom_fields.note',
        'gender',
      ].map(parseColumn),
    );
    expect(csv.header()).toBe(
      'url,family_name,identifiers,custom_fields.ward,custom_fields.note,gender\r\n',
    );
    expect(csv.encode({ url, body: ana })).toBe(
      `${url},"Lopez, ""the elder""","[""adis:1"",""crm:77""]"," 7 ","line one\nline two",\r\n`,
    );
  });

  it('quotes cells that start or end with any white space, and only those', () => {
    const csv = csvFormat([parseColumn('a')]);
    const cell = (a: string) => csv.encode({ url, body: { a } }).slice(0, -2);
    for (const spaced of ['\tx', 'x\v', '\u00a0x', 'x\u3000', '\ufeffx', ' ']) {
      expect(cell(spaced)).toBe(`"${spaced}"`);
    }
    for (const plain of ['x', 'x\u0085', '\u200bx', 'é', '😀', '']) expect(cell(plain)).toBe(plain);
  });

  it('takes the record URL for the url column, not a member', () => {
    const csv = csvFormat([parseColumn('url')]);
    expect(csv.encode({ url, body: { url: 'a member' } })).toBe(`${url}\r\n`);
  });
});

describe('collections', () => {
  it('names every kind, people first, with or without a curie prefix', () => {
    expect(EXPORTABLE_COLLECTIONS[0]).toBe('people');
    expect(EXPORTABLE_COLLECTIONS).toHaveLength(23);
    expect(exportableKind('osdi:fundraising_pages')?.singular).toBe('fundraising_page');
    expect(exportableKind('std:people')).toBe(exportableKind('people'));
    expect(exportableKind('persons')).toBeUndefined();
  });
});

describe('progress', () => {
  it('shows share, counts, rate and an estimate when the total is known', () => {
    const line = renderProgress(
      'people',
      { records: 2500, total: 10_000, recordsThisRun: 2000, elapsedMs: 4000 },
      100,
    );
    expect(line).toBe(
      'people [########----------------------]   25%  2,500/10,000  500/s  ETA 15s',
    );
  });

  it('shows counts and rate alone without a total, and fits narrow terminals', () => {
    expect(
      renderProgress(
        'people',
        { records: 42, total: undefined, recordsThisRun: 42, elapsedMs: 2000 },
        80,
      ),
    ).toBe('people  42 records  21/s');
    const narrow = renderProgress(
      'people',
      { records: 1, total: 3, recordsThisRun: 1, elapsedMs: 1000 },
      30,
    );
    expect(narrow.length).toBeLessThanOrEqual(30);
    expect(narrow).not.toContain('[');
  });

  it('formats durations', () => {
    expect(duration(0)).toBe('0s');
    expect(duration(59.6)).toBe('1m 00s');
    expect(duration(185)).toBe('3m 05s');
    expect(duration(7800)).toBe('2h 10m');
  });

  it('redraws in place at most every 100 ms and clears itself', () => {
    const written: string[] = [];
    let now = 0;
    const bar = new ProgressBar(
      { write: (text: string) => written.push(text), columns: 60 },
      'people',
      0,
      () => now,
    );
    now = 1000;
    bar.update(10, 100);
    now = 1050;
    bar.update(20, 100); // too soon: skipped
    now = 1200;
    bar.update(30, 100);
    bar.done();
    expect(written).toHaveLength(3);
    expect(written[0]?.startsWith('\r')).toBe(true);
    expect(written[0]).toContain('10/100');
    expect(written[0]?.endsWith('\x1b[K')).toBe(true);
    expect(written[1]).toContain('30/100');
    expect(written[2]).toBe('\r\x1b[K');
  });
});

describe('checkpoints', () => {
  const dirs: string[] = [];
  afterEach(async () => {
    await Promise.all(dirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
  });
  /** A new folder in the OS temp directory, removed after the test. */
  async function tempDir(): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), 'adis-export-'));
    dirs.push(dir);
    return dir;
  }

  it('round-trip, and a missing one reads as none', async () => {
    const dir = await tempDir();
    const path = checkpointPath(join(dir, 'people.ndjson'));
    expect(path).toBe(join(dir, 'people.ndjson.export-state.json'));
    expect(await readCheckpoint(path)).toBeUndefined();
    const checkpoint = {
      version: 1 as const,
      entryPoint: 'http://127.0.0.1:8000/api/v1/',
      collection: 'people',
      filter: null,
      format: 'ndjson' as const,
      columns: null,
      next: 'http://127.0.0.1:8000/api/v1/people?page=2&after=10',
      records: 10,
      bytes: 1234,
      startedAt: '2026-11-23T10:00:00.000Z',
    };
    await writeCheckpoint(path, checkpoint);
    expect(await readCheckpoint(path)).toEqual(checkpoint);
    await removeCheckpoint(path);
    expect(await readCheckpoint(path)).toBeUndefined();
  });

  it('refuse a file that is not a checkpoint, naming it', async () => {
    const dir = await tempDir();
    const path = join(dir, 'x.export-state.json');
    await writeFile(path, 'not json');
    await expect(readCheckpoint(path)).rejects.toThrow(`${path} is not an export checkpoint`);
    await writeFile(path, JSON.stringify({ version: 2 }));
    await expect(readCheckpoint(path)).rejects.toThrow(/not an export checkpoint of this version/);
    expect(await readFile(path, 'utf8')).toBe(JSON.stringify({ version: 2 }));
  });
});

describe('the page buffer', () => {
  it('holds the same bytes as Buffer.from of the texts joined, growing as needed, reused after clear', () => {
    const page = new Utf8Buffer(4);
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'binary', maxLength: 300 }), { maxLength: 40 }),
        (texts) => {
          page.clear();
          for (const text of texts) page.append(text);
          // Lone surrogates included: both write U+FFFD.
          expect(Buffer.from(page.bytes).equals(Buffer.from(texts.join(''), 'utf8'))).toBe(true);
        },
      ),
    );
    page.clear();
    page.append('Zoë 😀 \ud800');
    expect(Buffer.from(page.bytes).toString('utf8')).toBe('Zoë 😀 \ufffd');
  });
});
