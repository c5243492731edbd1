import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SyncSetupError } from '../../src/sync/errors.js';
import { journalPath, openSyncState } from '../../src/sync/file-state.js';
import type { CopyEntry, SyncProgress } from '../../src/sync/state-store.js';

const pair = { from: 'https://old.example.org/api/v1/', to: 'https://new.example.org/api/v2/' };
let folder: string;
let counter = 0;
beforeAll(async () => {
  folder = await mkdtemp(join(tmpdir(), 'adis-sync-state-'));
});
afterAll(() => rm(folder, { recursive: true, force: true }));
const freshPath = () => join(folder, `state-${counter++}.json`);

const progress: SyncProgress = {
  format: 1,
  ...pair,
  sourceSystem: 'origin',
  kinds: { people: { since: '2026-12-01T10:00:00.000Z', run: null } },
};

// Addresses on either server or elsewhere, versions, pending instants and match keys of
// any characters a server could send (the packing must not confuse any of them).
const address = fc.oneof(
  fc.string().map((id) => `${pair.from}people/${id}`),
  fc.string().map((id) => `${pair.to}people/${id}`),
  fc.webUrl(),
  fc.string(),
);
const entry: fc.Arbitrary<CopyEntry> = fc.record(
  {
    kind: fc.constantFrom('people', 'signatures', 'fundraising_pages'),
    target: fc.option(address, { nil: undefined }),
    version: fc.option(fc.string({ minLength: 1 }), { nil: null }),
    pendingSince: fc.nat(),
    match: fc.oneof(fc.record({ email: fc.string() }), fc.record({ phone: fc.string() })),
  },
  { requiredKeys: ['kind', 'target', 'version'] },
);

/** What a copy reads back as: absent optional members are absent, not undefined. */
function normal(copy: CopyEntry | undefined) {
  return copy === undefined ? undefined : JSON.parse(JSON.stringify(copy));
}

describe('openSyncState', () => {
  it('reads back every copy as it was put, after a reopen', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(fc.tuple(address, entry), { maxLength: 30 }), async (puts) => {
        const path = freshPath();
        const state = await openSyncState(path, pair);
        const expected = new Map<string, CopyEntry>();
        for (const [source, copy] of puts) {
          state.putCopy(source, copy);
          expected.set(source, copy);
        }
        await state.save(progress);
        await state.close();
        const again = await openSyncState(path, pair);
        for (const [source, copy] of expected)
          expect(normal(again.copyOf(source))).toEqual(normal(copy));
        expect(new Set(again.sources())).toEqual(new Set(expected.keys()));
        expect(again.progress()).toEqual(progress);
        await again.close();
      }),
      { numRuns: 40 },
    );
  });

  it('keeps what was put before a crash without a save, and drops a torn last line', async () => {
    const path = freshPath();
    const state = await openSyncState(path, pair);
    state.putCopy(`${pair.from}people/1`, {
      kind: 'people',
      target: `${pair.to}people/a`,
      version: 'v1',
    });
    state.putCopy(`${pair.from}people/2`, {
      kind: 'people',
      target: undefined,
      version: 'v1',
      pendingSince: 5,
    });
    state.removeCopy(`${pair.from}people/1`);
    // No save and no close: a process killed here. Then half a line, as power loss leaves.
    await appendFile(journalPath(path), '["people/3","peop');
    const again = await openSyncState(path, pair);
    expect(again.copyOf(`${pair.from}people/1`)).toBeUndefined();
    expect(again.copyOf(`${pair.from}people/2`)).toEqual({
      kind: 'people',
      target: undefined,
      version: 'v1',
      pendingSince: 5,
    });
    expect(again.copyOf(`${pair.from}people/3`)).toBeUndefined();
    expect(again.progress()).toBeUndefined();
    await again.close();
  });

  it('rewrites a journal of superseded lines compact', async () => {
    const path = freshPath();
    const state = await openSyncState(path, pair);
    for (let version = 0; version < 1500; version += 1) {
      state.putCopy(`${pair.from}people/1`, {
        kind: 'people',
        target: `${pair.to}people/a`,
        version: `v${version}`,
      });
    }
    await state.close();
    const again = await openSyncState(path, pair);
    expect(again.copyOf(`${pair.from}people/1`)?.version).toBe('v1499');
    expect((await readFile(journalPath(path), 'utf8')).trim().split('\n')).toHaveLength(1);
    await again.close();
  });

  it('refuses the state of another pair of servers, and a damaged one, naming the file', async () => {
    const path = freshPath();
    const state = await openSyncState(path, pair);
    await state.save(progress);
    await state.close();
    const other = openSyncState(path, { ...pair, to: 'https://elsewhere.example.org/' });
    await expect(other).rejects.toThrow(SyncSetupError);
    await expect(other).rejects.toThrow(
      /from https:\/\/old\.example\.org\/api\/v1\/ to https:\/\/new/,
    );
    await writeFile(path, '{"format":1,');
    await expect(openSyncState(path, pair)).rejects.toThrow(/not a sync state \(not JSON\)/);
  });
});
