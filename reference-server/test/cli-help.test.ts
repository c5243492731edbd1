/**
 * `adis-server --help`: it reads right where the command is installed from npm and in
 * the repository, and its flags are the flags of the one full table, in the server's
 * README, which the other docs link to rather than copy.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { killCliRuns, runCli, serverDir } from './run-cli.js';

afterEach(killCliRuns);

const FLAG = /--[a-z][a-z-]+/g;

/** The flags a markdown table names in its first column (rows starting "| `--"). */
function tableFlags(file: string): string[] {
  const text = readFileSync(resolve(serverDir, file), 'utf8');
  const rows = text.split('\n').filter((line) => line.startsWith('| `--'));
  return rows.map((row) => row.match(FLAG)?.[0] ?? '').sort();
}

async function helpText(): Promise<string> {
  const help = runCli(['--help']);
  expect(await help.exited).toBe(0);
  return help.output().stdout;
}

describe('adis-server --help', () => {
  it('names the installed command first, and npm start for the repository', async () => {
    const text = await helpText();
    expect(text).toMatch(/^ADIS reference server\n\nUsage: adis-server \[options\]/);
    expect(text).toContain('npm start -- [options] in the adis-sdk repository');
    expect(text).not.toMatch(/npx tsx src\/cli\.ts/);
    expect(text).toContain('/reference-server#flags');
  });

  it("lists exactly the flags of the server README's table", async () => {
    const options = (await helpText()).split('\n').filter((line) => /^ {2}--/.test(line));
    const helpFlags = options.map((line) => line.match(FLAG)?.[0] ?? '').sort();
    expect(helpFlags.length).toBeGreaterThan(10);
    expect(tableFlags('README.md')).toEqual(helpFlags);
  });

  it('is tabled once: the README and docs/reference-server.md link to the table', () => {
    expect(tableFlags('../README.md')).toEqual([]);
    expect(tableFlags('../docs/reference-server.md')).toEqual([]);
    for (const file of ['../README.md', '../docs/reference-server.md']) {
      expect(readFileSync(resolve(serverDir, file), 'utf8')).toContain(
        'reference-server/README.md#flags',
      );
    }
  });
});
