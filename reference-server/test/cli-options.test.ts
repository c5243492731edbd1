/**
 * The command line's option parsers, called directly (no process is started): each good
 * value becomes what the server runs with, and each bad one is a UsageError (exit 2)
 * whose message names the flag, what it takes and what was given.
 */
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseArguments } from '../src/cli/arguments.js';
import { databaseLocation, defaultDatabase } from '../src/cli/default-database.js';
import {
  checkedOption,
  corsOriginsOption,
  curiePrefixOption,
  keyHeaderOption,
  keyRateOption,
  publicUrlOption,
} from '../src/cli/http-options.js';
import { keylessOpenOption } from '../src/cli/keyless-options.js';
import { type KeysFile, tenantNamespaces } from '../src/cli/keys-file.js';
import {
  integerOption,
  positiveIntegerOption,
  webhookRetryHoursOption,
} from '../src/cli/number-options.js';
import { presetOption } from '../src/cli/preset-option.js';
import { answeringLine } from '../src/cli/startup-line.js';
import { secondsOption, timeoutsOption } from '../src/cli/timeout-options.js';
import { UsageError } from '../src/cli/usage-error.js';
import { ACTION_NETWORK_PRESET, SPECIFICATION_PRESET } from '../src/presets/index.js';

/** The message of the UsageError `run` throws; fails the test if it throws none or another error. */
function usageError(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message;
  }
  throw new Error('expected a UsageError, got none');
}

describe('parseArguments', () => {
  it('returns the flags as given, and help for --help or -h', () => {
    expect(
      parseArguments(['--port', '0', '--quiet', '--cors-origin', 'a', '--cors-origin', 'b']),
    ).toEqual({
      port: '0',
      quiet: true,
      'cors-origin': ['a', 'b'],
    });
    expect(parseArguments(['--help'])).toBe('help');
    expect(parseArguments(['-h', '--port', 'x'])).toBe('help');
    expect(parseArguments([])).toEqual({});
  });

  it('refuses unknown flags, missing values and positional arguments, naming them', () => {
    expect(usageError(() => parseArguments(['--prot', '0']))).toMatch(/Unknown option '--prot'/);
    expect(usageError(() => parseArguments(['--port']))).toMatch(/--port/);
    expect(usageError(() => parseArguments(['8000']))).toMatch(/'8000'/);
  });
});

describe('integerOption', () => {
  it('takes digits up to the maximum, and the fallback without the flag', () => {
    expect(integerOption('port', undefined, 8000, 65535)).toBe(8000);
    expect(integerOption('port', '0', 8000, 65535)).toBe(0);
    expect(integerOption('port', '65535', 8000, 65535)).toBe(65535);
    expect(integerOption('port', '007', 8000, 65535)).toBe(7);
  });

  it.each(['-1', '1.5', '1e3', '0x10', '+5', '', ' 80', '65536', 'eighty'])(
    'refuses %j, naming the flag and its range',
    (raw) => {
      expect(usageError(() => integerOption('port', raw, 8000, 65535))).toBe(
        `--port must be an integer from 0 to 65535, got ${JSON.stringify(raw)}`,
      );
    },
  );
});

describe('positiveIntegerOption', () => {
  it('takes 1 and up, and the fallback without the flag', () => {
    expect(positiveIntegerOption('pool-size', undefined, 10, 1000)).toBe(10);
    expect(positiveIntegerOption('pool-size', '1', 10, 1000)).toBe(1);
    expect(positiveIntegerOption('message-send-rate', '1000000', 50, 1_000_000)).toBe(1_000_000);
  });

  it('says 0 is too few, and gives the range for anything else out of it', () => {
    expect(usageError(() => positiveIntegerOption('pool-size', '0', 10, 1000))).toBe(
      '--pool-size must be at least 1',
    );
    expect(usageError(() => positiveIntegerOption('message-send-rate', '0', 50, 1_000_000))).toBe(
      '--message-send-rate must be at least 1',
    );
    expect(usageError(() => positiveIntegerOption('pool-size', '1001', 10, 1000))).toBe(
      '--pool-size must be an integer from 0 to 1000, got "1001"',
    );
  });
});

describe('webhookRetryHoursOption', () => {
  it('takes hours above 0 up to 720, fractions too; 24 without the flag', () => {
    expect(webhookRetryHoursOption(undefined)).toBe(24);
    expect(webhookRetryHoursOption('0.5')).toBe(0.5);
    expect(webhookRetryHoursOption('720')).toBe(720);
  });

  it.each(['0', '0.0', '720.5', '-1', '1e2', '.5', 'a day'])('refuses %j', (raw) => {
    expect(usageError(() => webhookRetryHoursOption(raw))).toBe(
      `--webhook-retry-hours must be a number of hours above 0 and at most 720, got ${JSON.stringify(raw)}`,
    );
  });
});

describe('secondsOption and timeoutsOption', () => {
  it('turns seconds into whole milliseconds, at least 1', () => {
    expect(secondsOption('headers-timeout', undefined)).toBeUndefined();
    expect(secondsOption('headers-timeout', '2.5')).toBe(2500);
    expect(secondsOption('headers-timeout', '0.0001')).toBe(1);
    expect(secondsOption('keep-alive-timeout', '3600')).toBe(3_600_000);
  });

  it.each(['0', '3601', '-2', '1e1', '10s'])('refuses %j', (raw) => {
    expect(usageError(() => secondsOption('request-timeout', raw))).toBe(
      `--request-timeout must be a number of seconds above 0 and at most 3600, got ${JSON.stringify(raw)}`,
    );
  });

  it('fills the defaults, and takes each flag over its default', () => {
    expect(timeoutsOption({})).toEqual({
      headersMs: 10_000,
      requestMs: 30_000,
      keepAliveMs: 5_000,
    });
    expect(
      timeoutsOption({
        'headers-timeout': '2',
        'request-timeout': '4',
        'keep-alive-timeout': '0.5',
      }),
    ).toEqual({ headersMs: 2000, requestMs: 4000, keepAliveMs: 500 });
  });

  it('refuses a headers timeout above the request timeout, saying when that one is its default', () => {
    expect(usageError(() => timeoutsOption({ 'headers-timeout': '40' }))).toBe(
      '--headers-timeout (40 s) must not exceed --request-timeout (30 s, its default)',
    );
    expect(
      usageError(() => timeoutsOption({ 'headers-timeout': '5', 'request-timeout': '2' })),
    ).toBe('--headers-timeout (5 s) must not exceed --request-timeout (2 s)');
  });

  it('names the first bad flag before comparing them', () => {
    expect(usageError(() => timeoutsOption({ 'keep-alive-timeout': '0' }))).toMatch(
      /^--keep-alive-timeout must be/,
    );
  });
});

describe('checkedOption and the options the library checks', () => {
  it("puts the flag before the library's message, unless the message names it already", () => {
    const fails = (message: string) => () => {
      throw new RangeError(message);
    };
    expect(checkedOption('x', undefined, fails('never called'))).toBeUndefined();
    expect(usageError(() => checkedOption('x', 'v', fails('bad value')))).toBe('--x: bad value');
    expect(usageError(() => checkedOption('x', 'v', fails('--x must be y')))).toBe('--x must be y');
  });

  it('--key-header: an HTTP header name with no other meaning', () => {
    expect(keyHeaderOption(undefined)).toBeUndefined();
    expect(keyHeaderOption('OSDI-API-Token')).toBe('OSDI-API-Token');
    expect(usageError(() => keyHeaderOption('API Token'))).toMatch(
      /^--key-header: API key header must be an HTTP header name .*, got "API Token"$/,
    );
    expect(usageError(() => keyHeaderOption('Content-Type'))).toBe(
      '--key-header: API key header cannot be Content-Type: that header has another meaning',
    );
  });

  it('--curie-prefix: a short identifier', () => {
    expect(curiePrefixOption('osdi')).toBe('osdi');
    expect(usageError(() => curiePrefixOption('1osdi'))).toMatch(
      /^--curie-prefix: curie prefix must be 1 to 32 ASCII letters, .*, got "1osdi"$/,
    );
  });

  it('--key-rate: a whole number of calls from 1, in a message that names the flag once', () => {
    expect(keyRateOption(undefined)).toBeUndefined();
    expect(keyRateOption('4')).toBe(4);
    for (const raw of ['0', '2.5', 'many']) {
      expect(usageError(() => keyRateOption(raw))).toMatch(
        new RegExp(
          `^--key-rate must be an integer from 1 to \\d+, got ${JSON.stringify(raw)} \\(leave it out for no limit\\)$`,
        ),
      );
    }
  });
});

describe('corsOriginsOption', () => {
  it('is * without the flag or with *, else the origins, comma-separated or repeated', () => {
    expect(corsOriginsOption(undefined)).toBe('*');
    expect(corsOriginsOption(['*'])).toBe('*');
    expect(corsOriginsOption(['https://a.example, http://localhost:5173'])).toEqual([
      'https://a.example',
      'http://localhost:5173',
    ]);
    expect(corsOriginsOption(['https://a.example', 'https://b.example'])).toEqual([
      'https://a.example',
      'https://b.example',
    ]);
  });

  it('refuses * beside origins, and origins not written as browsers send them', () => {
    expect(usageError(() => corsOriginsOption(['https://a.example,*']))).toBe(
      '--cors-origin * cannot be combined with origins',
    );
    for (const bad of ['https://a.example/', 'a.example', 'ftp://a.example']) {
      expect(usageError(() => corsOriginsOption([bad]))).toBe(
        `--cors-origin: CORS origin ${JSON.stringify(bad)} must be written like https://www.example.org (scheme, host, optional port; no path or trailing slash)`,
      );
    }
  });
});

describe('keylessOpenOption', () => {
  it('is nothing open without the flags, else one name per flag, commas kept', () => {
    expect(keylessOpenOption(undefined, undefined)).toEqual({ tags: [], lists: [] });
    expect(keylessOpenOption(['volunteer', 'Signers, 2026'], ['Newsletter'])).toEqual({
      tags: ['volunteer', 'Signers, 2026'],
      lists: ['Newsletter'],
    });
    expect(parseArguments(['--keyless-tag', 'a', '--keyless-tag', 'b'])).toMatchObject({
      'keyless-tag': ['a', 'b'],
    });
  });

  it('refuses an empty name, naming the flag', () => {
    expect(usageError(() => keylessOpenOption([' '], undefined))).toBe(
      '--keyless-tag needs a name, got " "',
    );
    expect(usageError(() => keylessOpenOption(undefined, ['']))).toBe(
      '--keyless-list needs a name, got ""',
    );
  });
});

describe('publicUrlOption', () => {
  it('takes an absolute http(s) URL, and nothing without the flag', () => {
    expect(publicUrlOption(undefined)).toBeUndefined();
    expect(publicUrlOption('https://api.example.org/base')).toBe('https://api.example.org/base');
  });

  it.each(['api.example.org', '/api', 'ftp://example.org/'])('refuses %j', (raw) => {
    expect(usageError(() => publicUrlOption(raw))).toBe(
      '--public-url must be an absolute http(s) URL',
    );
  });
});

describe('presetOption', () => {
  it('is the named preset, the specification without the flag', () => {
    expect(presetOption(undefined)).toBe(SPECIFICATION_PRESET);
    expect(presetOption('action-network')).toBe(ACTION_NETWORK_PRESET);
  });

  it('refuses an unknown name, listing the known ones', () => {
    expect(usageError(() => presetOption('nationbuilder'))).toBe(
      '--preset must be one of specification, action-network, got "nationbuilder"',
    );
  });
});

describe('tenantNamespaces', () => {
  const key = (tenant: string, namespace?: string): KeysFile['keys'][number] => ({
    token: `${tenant}-token-0000`,
    tenant,
    access: 'read',
    ...(namespace === undefined ? {} : { namespace }),
  });

  it("takes a tenant's namespace from whichever of its keys names it", () => {
    const file = { keys: [key('acme'), key('acme', 'acme_ns'), key('beta')] };
    expect(tenantNamespaces(file)).toEqual(
      new Map([
        ['acme', 'acme_ns'],
        ['beta', undefined],
      ]),
    );
  });

  it('refuses two namespaces for one tenant', () => {
    expect(usageError(() => tenantNamespaces({ keys: [key('acme', 'a'), key('acme', 'b')] }))).toBe(
      'keys file: tenant acme is given two namespaces, a and b',
    );
  });
});

describe('defaultDatabase and databaseLocation', () => {
  const userDir = resolve('/home/ana');

  it('keeps the data beside the server in the repository, in the user folder when installed', () => {
    expect(defaultDatabase(resolve('/repo/reference-server'), userDir)).toBe(
      resolve('/repo/reference-server/data/adis.db'),
    );
    expect(defaultDatabase(resolve('/app/node_modules/adis-server'), userDir)).toBe(
      resolve(userDir, 'adis.db'),
    );
  });

  it('takes --db over DATABASE_URL, relative to the user folder, and refuses other engines', () => {
    const root = resolve('/repo/reference-server');
    expect(databaseLocation(undefined, {}, root, userDir)).toEqual({
      engine: 'sqlite',
      path: resolve(root, 'data/adis.db'),
    });
    expect(databaseLocation('my.db', { DATABASE_URL: 'other.db' }, root, userDir)).toEqual({
      engine: 'sqlite',
      path: resolve(userDir, 'my.db'),
    });
    expect(usageError(() => databaseLocation('mysql://db/adis', {}, root, userDir))).toMatch(
      /mysql:/,
    );
  });
});

describe('answeringLine', () => {
  const defaults = {
    presetGiven: false,
    preset: SPECIFICATION_PRESET,
    apiKeyHeader: undefined,
    curiePrefix: undefined,
    keyRate: undefined,
  };

  it('is nothing for a default start', () => {
    expect(answeringLine(defaults)).toBeUndefined();
  });

  it("names the preset when given, with the flags over the preset's values", () => {
    expect(answeringLine({ ...defaults, presetGiven: true, preset: ACTION_NETWORK_PRESET })).toBe(
      'Preset action-network. Key header OSDI-API-Token, curie prefix osdi, at most 4 calls a second per key',
    );
    expect(answeringLine({ ...defaults, curiePrefix: 'osdi' })).toBe(
      `Key header ${SPECIFICATION_PRESET.apiKeyHeader}, curie prefix osdi, no limit per key`,
    );
  });
});
