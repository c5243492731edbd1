/**
 * `adis-sync`'s command line: every flag read into the request, every usage error (each
 * naming what to do), and the keys, which come from files or the environment and never
 * from an argument.
 */
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  parseSyncCommandLine,
  SYNC_USAGE,
  type SyncCommandRequest,
  SyncUsage,
} from '../../src/cli/sync-arguments.js';
import { readSyncKey } from '../../src/cli/sync-keys.js';
import { KINDS, SERVER_PRESETS } from '../../src/index.js';

const FROM = 'http://127.0.0.1:8001/api/v1/';
const TO = 'https://crm.example.org/osdi/';
const BASE = [FROM, TO, '--state', 'sync-state.json'];

function parsed(args: readonly string[]): SyncCommandRequest {
  const result = parseSyncCommandLine(args);
  if (typeof result === 'string') throw new Error(`expected a request, got ${result}`);
  return result;
}

function usageError(args: readonly string[]): string {
  try {
    parseSyncCommandLine(args);
  } catch (error) {
    expect(error).toBeInstanceOf(SyncUsage);
    return (error as Error).message;
  }
  throw new Error(`expected a usage error for ${args.join(' ')}`);
}

describe('adis-sync arguments', () => {
  it('reads the two entry points and the state, with every default', () => {
    expect(parsed(BASE)).toEqual({
      from: FROM,
      to: TO,
      state: 'sync-state.json',
      fromKeyFile: undefined,
      toKeyFile: undefined,
      fromPreset: undefined,
      toPreset: undefined,
      kinds: undefined,
      since: undefined,
      dryRun: false,
      deletions: undefined,
      sourceSystem: undefined,
      rate: undefined,
      maxRequests: undefined,
      overlapMs: undefined,
      timeoutMs: undefined,
      json: false,
      quiet: false,
    });
  });

  it('reads every flag', () => {
    expect(
      parsed([
        '--from-key-file',
        'from.key',
        '--to-key-file=to.key',
        '--from-preset',
        'action-network',
        '--to-preset',
        'action-network',
        '--kinds',
        ' people, tags,petitions,signatures,people ',
        '--since',
        '2026-01-31T12:00:00+01:00',
        '--dry-run',
        '--deletions',
        'remove',
        '--source-system',
        'crm',
        '--rate',
        '3.5',
        '--max-requests',
        '500',
        '--overlap',
        '90',
        '--timeout',
        '2.5',
        '--json',
        '-q',
        ...BASE,
      ]),
    ).toEqual({
      from: FROM,
      to: TO,
      state: 'sync-state.json',
      fromKeyFile: 'from.key',
      toKeyFile: 'to.key',
      fromPreset: 'action-network',
      toPreset: 'action-network',
      kinds: ['people', 'tags', 'petitions', 'signatures'],
      since: '2026-01-31T11:00:00.000Z',
      dryRun: true,
      deletions: 'remove',
      sourceSystem: 'crm',
      rate: 3.5,
      maxRequests: 500,
      overlapMs: 90_000,
      timeoutMs: 2500,
      json: true,
      quiet: true,
    });
    expect(parsed([...BASE, '--quiet', '--deletions', 'report', '--overlap', '0'])).toMatchObject({
      quiet: true,
      deletions: 'report',
      overlapMs: 0,
    });
    expect(parsed([...BASE, '--since', '2026-02-01']).since).toBe('2026-02-01T00:00:00.000Z');
  });

  it('takes every kind of the specification by its plural name', () => {
    const all = KINDS.map((kind) => kind.plural);
    expect(parsed([...BASE, '--kinds', all.join(',')]).kinds).toEqual(all);
  });

  it('answers help and version before anything else is checked', () => {
    expect(parseSyncCommandLine(['--help'])).toBe('help');
    expect(parseSyncCommandLine(['-h', 'not a url'])).toBe('help');
    expect(parseSyncCommandLine(['--version', '--kinds', 'nonsense'])).toBe('version');
  });

  it.each([
    [[], 'give two entry point URLs: the source (from), then the target (to)'],
    [[FROM, '--state', 's.json'], 'give two entry point URLs'],
    [
      [FROM, TO, 'http://third.example/', '--state', 's.json'],
      'two entry point URLs (from, to), not 3 arguments',
    ],
    [
      ['not a url', TO, '--state', 's.json'],
      'the source (from) must be an entry point URL like https://',
    ],
    [[FROM, 'ftp://files.example/', '--state', 's.json'], 'the target (to) must be an http(s) URL'],
    [[FROM, FROM, '--state', 's.json'], 'the source and the target are the same entry point'],
    [[FROM, TO], '--state <file> is needed'],
    [[FROM, TO, '--state', ' '], '--state <file> is needed'],
    [[...BASE, '--state'], "Option '--state <value>' argument missing"],
    [[...BASE, '--from-key-file', ''], '--from-key-file names no file'],
    [[...BASE, '--to-key-file', ' '], '--to-key-file names no file'],
    [
      [...BASE, '--from-preset', 'nationbuilder'],
      'unknown --from-preset "nationbuilder"; one of: action-network',
    ],
    [
      [...BASE, '--to-preset', 'toString'],
      'unknown --to-preset "toString"; one of: action-network',
    ],
    [
      [...BASE, '--kinds', 'people,persons,tag'],
      '--kinds: unknown kinds "persons", "tag" (plural names); some of: people, organizations',
    ],
    [[...BASE, '--kinds', 'person'], '--kinds: unknown kind "person" (plural names)'],
    [[...BASE, '--kinds', ' , '], '--kinds names no kind; some of: people'],
    [
      [...BASE, '--since', 'yesterday'],
      '--since must be an ISO 8601 date or date-time like 2026-01-31',
    ],
    [[...BASE, '--since', '2026-02-30T00:00:00Z'], '--since: no such date "2026-02-30T00:00:00Z"'],
    [
      [...BASE, '--deletions', 'yes'],
      '--deletions must be report (list the records gone from the source) or remove',
    ],
    [[...BASE, '--deletions'], "Option '--deletions <value>' argument missing"],
    [
      [...BASE, '--source-system', 'my crm'],
      '--source-system must be a system name without colons or spaces',
    ],
    [
      [...BASE, '--source-system', 'crm:1'],
      '--source-system must be a system name without colons or spaces',
    ],
    [[...BASE, '--rate', '0'], '--rate must be a positive number, not "0"'],
    [[...BASE, '--rate', 'fast'], '--rate must be a positive number, not "fast"'],
    [
      [...BASE, '--max-requests', '2.5'],
      '--max-requests must be a positive whole number, not "2.5"',
    ],
    [[...BASE, '--max-requests', '0'], '--max-requests must be a positive whole number'],
    [[...BASE, '--overlap', '-5'], "Option '--overlap' argument is ambiguous"],
    [[...BASE, '--overlap=-5'], '--overlap must be a number of seconds, not "-5"'],
    [[...BASE, '--since', '2026-13-01'], '--since: no such date "2026-13-01"'],
    [[...BASE, '--overlap', 'a minute'], '--overlap must be a number of seconds, not "a minute"'],
    [[...BASE, '--timeout', '0'], '--timeout must be a number of seconds above 0, not "0"'],
    [[...BASE, '--dry-run=yes'], "Option '--dry-run' does not take an argument"],
    [[...BASE, '--force'], "Unknown option '--force'"],
  ])('refuses %j', (args, message) => {
    expect(usageError(args)).toContain(message);
  });

  it('has no option that takes a key, and says why when one is tried', () => {
    for (const flag of [
      '--api-key',
      '--key',
      '--from-key',
      '--to-key',
      '--token',
      '--to-api-key',
    ]) {
      const message = usageError([...BASE, flag, 'secret-key']);
      expect(message).toContain(`${flag}: keys are never given on the command line`);
      expect(message).toContain('--from-key-file or --to-key-file');
      expect(message).toContain('ADIS_FROM_KEY / ADIS_TO_KEY');
      expect(message).not.toContain('secret-key');
    }
    expect(usageError([...BASE, '--api-key=secret-key'])).not.toContain('secret-key');
    expect(SYNC_USAGE).toContain('never from the command line');
    expect(SYNC_USAGE).toContain('there is no --api-key option');
    expect(SYNC_USAGE).not.toMatch(/^\s+--(api-)?key\b/m);
  });

  it('documents every option it reads, every preset, and the exit codes', () => {
    for (const flag of [
      '--state <file>',
      '--from-key-file <file>',
      '--to-key-file <file>',
      '--from-preset <name>',
      '--to-preset <name>',
      '--kinds <list>',
      '--since <date>',
      '--dry-run',
      '--deletions <what>',
      '--source-system <name>',
      '--rate <n>',
      '--max-requests <n>',
      '--overlap <seconds>',
      '--timeout <seconds>',
      '--json',
      '-q, --quiet',
      '-h, --help',
      '--version',
      'ADIS_FROM_KEY',
      'ADIS_TO_KEY',
    ]) {
      expect(SYNC_USAGE).toContain(flag);
    }
    for (const name of Object.keys(SERVER_PRESETS)) expect(SYNC_USAGE).toContain(name);
    expect(SYNC_USAGE).toMatch(/Exit codes: 0 done, 1 done but the target refused some records/);
    expect(SYNC_USAGE.split('\n').every((line) => line.length <= 90)).toBe(true);
  });
});

describe('adis-sync keys', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'adis-sync-keys-'));
    await writeFile(join(dir, 'from.key'), '  from-secret\n');
    await writeFile(join(dir, 'empty.key'), ' \n\n');
    await writeFile(join(dir, 'two-lines.key'), 'one\ntwo\n');
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("reads a key file's content, trimmed, relative to the working directory", async () => {
    expect(await readSyncKey('from', 'from.key', {}, dir)).toBe('from-secret');
    expect(await readSyncKey('to', join(dir, 'from.key'), {}, '/')).toBe('from-secret');
  });

  it('prefers the file to the environment, and reads ADIS_FROM_KEY / ADIS_TO_KEY otherwise', async () => {
    const env = { ADIS_FROM_KEY: ' env-from ', ADIS_TO_KEY: 'env-to', ADIS_KEY: 'not this' };
    expect(await readSyncKey('from', 'from.key', env, dir)).toBe('from-secret');
    expect(await readSyncKey('from', undefined, env, dir)).toBe('env-from');
    expect(await readSyncKey('to', undefined, env, dir)).toBe('env-to');
    expect(await readSyncKey('to', undefined, { ADIS_KEY: 'not this' }, dir)).toBeUndefined();
    expect(await readSyncKey('to', undefined, { ADIS_TO_KEY: '' }, dir)).toBeUndefined();
  });

  it('refuses a missing, empty or many-line key file, naming the flag and the file', async () => {
    await expect(readSyncKey('from', 'missing.key', {}, dir)).rejects.toThrow(SyncUsage);
    await expect(readSyncKey('from', 'missing.key', {}, dir)).rejects.toThrow(
      `--from-key-file missing.key: no such file (${join(dir, 'missing.key')}); it should hold the source (from)'s API key, or give the key in ADIS_FROM_KEY`,
    );
    await expect(readSyncKey('to', 'empty.key', {}, dir)).rejects.toThrow(
      `--to-key-file empty.key is empty: put the target (to)'s API key in it (${join(dir, 'empty.key')})`,
    );
    await expect(readSyncKey('to', 'two-lines.key', {}, dir)).rejects.toThrow(
      '--to-key-file two-lines.key holds more than one line',
    );
    await expect(readSyncKey('to', '.', {}, dir)).rejects.toThrow(
      '--to-key-file .: a folder, not a file',
    );
  });

  it.skipIf(process.getuid?.() === 0)('refuses a key file it may not read', async () => {
    const locked = join(dir, 'locked.key');
    await writeFile(locked, 'k');
    await chmod(locked, 0o000);
    await expect(readSyncKey('to', locked, {}, dir)).rejects.toThrow('not readable by this user');
  });
});
