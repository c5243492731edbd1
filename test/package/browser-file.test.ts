import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

// The prebuilt `adis-sdk/helpers/browser` file (npm test builds first): one
// self-contained ES module with every export of the light entry, for pages without a
// bundler. test/browser/no-bundler.test.ts loads it in Chromium.
const root = fileURLToPath(new URL('../../', import.meta.url));
const manifest = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, unknown>;
};

describe('the built adis-sdk/helpers/browser file', () => {
  it('is exported as an ES module with the light entry types', () => {
    expect(manifest.exports['./helpers/browser']).toEqual({
      types: './dist/helpers.d.ts',
      import: './dist/browser/helpers.js',
    });
  });

  it('imports nothing: it is the whole light entry in one minified file', () => {
    const code = readFileSync(`${root}dist/browser/helpers.js`, 'utf8');
    expect(code).not.toMatch(/\bimport\s*[{("'*]|\brequire\(/);
    expect(code).toMatch(/export\s*\{/);
    // Minified: a few long lines, not one line per statement.
    expect(code.split('\n').length).toBeLessThan(10);
  });

  it('exports what adis-sdk/helpers exports, and helperHref works from it', async () => {
    const file = await import('adis-sdk/helpers/browser');
    const entry = await import('adis-sdk/helpers');
    expect(Object.keys(file).sort()).toEqual(Object.keys(entry).sort());
    const petition = {
      _links: {
        self: { href: 'https://api.example.org/api/v1/petitions/1' },
        'osdi:record_signature_helper': { href: '/api/v1/petitions/1/record_signature_helper' },
      },
    };
    expect(file.helperHref(petition, 'record_signature_helper')).toBe(
      'https://api.example.org/api/v1/petitions/1/record_signature_helper',
    );
  });
});
