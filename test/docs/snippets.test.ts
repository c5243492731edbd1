/**
 * Code in the guides that nothing else compiles is checked here, so that it cannot rot:
 *
 * - the `ts` blocks of the guides in EXCERPTED are excerpts, word for word, of the
 *   example program or source they name (which `tsc` and the tests check), and the
 *   guides in SHOWN_WHOLE show the example file they name whole (a tested page);
 * - the message docs/export.md shows for an unreachable server is the one the built
 *   `adis-export` prints (npm test builds first).
 *
 * The TSDoc `@example` blocks of the source are type-checked by examples.test.ts.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/** Guides whose `ts` blocks are excerpts of the files named. */
const EXCERPTED: Record<string, string[]> = {
  'docs/syncing.md': ['examples/sync-changes.ts', 'src/navigator/collection.ts'],
  'docs/webhooks.md': [
    'examples/webhook-receiver.ts',
    'test/webhooks/receiver-example.test.ts',
    'test/e2e/webhooks.test.ts',
  ],
};

/** The `ts` code blocks of a markdown file. */
function markdownBlocks(file: string): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return [...text.matchAll(/^```ts\n([\s\S]*?)^```$/gm)].map((match) => match[1] ?? '');
}

/** The file's lines without their indentation (an excerpt may be shown dedented). */
function trimmedLines(text: string): string[] {
  return text.split('\n').map((line) => line.trim());
}

function containsRun(haystack: string[], needle: string[]): boolean {
  for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    if (needle.every((line, index) => haystack[start + index] === line)) return true;
  }
  return false;
}

/** Guides that show a whole example file in a code block. */
const SHOWN_WHOLE: Record<string, string> = {
  'docs/browser.md': 'examples/no-bundler/index.html',
};

describe('guide code', () => {
  it.each(Object.entries(SHOWN_WHOLE))('in %s shows %s as it is', (guide, file) => {
    const text = readFileSync(join(ROOT, guide), 'utf8');
    const whole = readFileSync(join(ROOT, file), 'utf8');
    const extension = file.slice(file.lastIndexOf('.') + 1);
    const blocks = [
      ...text.matchAll(new RegExp(`^\`\`\`${extension}\n([\\s\\S]*?)^\`\`\`$`, 'gm')),
    ];
    expect(blocks.map((block) => block[1])).toContain(whole);
  });

  it.each(Object.entries(EXCERPTED))('in %s is excerpted from %s', (guide, sources) => {
    const blocks = markdownBlocks(guide);
    expect(blocks.length).toBeGreaterThan(0);
    const texts = sources.map((source) => {
      const text = readFileSync(join(ROOT, source), 'utf8');
      // TSDoc examples count without their comment stars.
      return trimmedLines(text).map((line) => line.replace(/^\* ?/, '').trim());
    });
    const missing = blocks.filter(
      (block) => !texts.some((lines) => containsRun(lines, trimmedLines(block.trimEnd()))),
    );
    expect(missing, `not found word for word in ${sources.join(' or ')}`).toEqual([]);
  });
});

describe('docs/export.md', () => {
  it('shows the message adis-export really prints for an unreachable server', async () => {
    // A port nothing listens on: taken, then given back.
    const port = await new Promise<number>((resolve) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = probe.address() as { port: number };
        probe.close(() => resolve(free));
      });
    });
    const folder = mkdtempSync(join(tmpdir(), 'adis-export-doc-'));
    const url = `http://127.0.0.1:${port}/api/v1/`;
    const failed = await promisify(execFile)(
      process.execPath,
      [join(ROOT, 'dist/cli/export-cli.js'), '--url', url, '-o', join(folder, 'people.csv')],
      { env: { ...process.env, ADIS_KEY: 'any' } },
    ).catch((error: { code: number; stderr: string }) => error);
    rmSync(folder, { recursive: true, force: true });
    expect('code' in failed && failed.code).toBe(1);
    const printed = String(failed.stderr).trim().replaceAll(String(port), '8001');
    expect(readFileSync(join(ROOT, 'docs/export.md'), 'utf8')).toContain(`\n${printed}\n`);
  });
});
