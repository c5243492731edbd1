import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { entryPointVersion } from '../../src/schema/index.js';

// The entry point's version, whatever a server calls the field: `std_version`,
// `osdi_version`, or `<prefix>_version` after its own curie prefix.

const prefix = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/);
const version = fc.stringMatching(/^\d{1,2}(\.\d{1,2}){0,2}$/);

describe('entryPointVersion', () => {
  it.each([
    [{ std_version: '1.0' }, 'std', '1.0'],
    [{ osdi_version: '1.0' }, 'osdi', '1.0'],
    [{ osdi_version: '1.0' }, 'std', '1.0'], // a server whose curie was not found
    [{ std_version: '1.0' }, 'osdi', '1.0'],
    [{ acme_version: '2.1' }, 'acme', '2.1'],
    [{ acme_version: '2.1' }, 'std', undefined], // another server's field is not read
    [{ std_version: 1.1 }, 'std', '1.1'],
    [{ std_version: ' 1.0 ' }, 'std', '1.0'],
    [{ std_version: '', osdi_version: '1.0' }, 'std', '1.0'],
    [{ std_version: null, osdi_version: '1.0' }, 'std', '1.0'],
    [{ std_version: { major: 1 } }, 'std', undefined],
    [{ std_version: Number.NaN }, 'std', undefined],
    [{ motd: 'hello' }, 'std', undefined],
    [{}, 'std', undefined],
  ])('reads %j under prefix %s as %s', (entryPoint, name, expected) => {
    expect(entryPointVersion(entryPoint, name)).toBe(expected);
  });

  it('reads std_version by default', () => {
    expect(entryPointVersion({ std_version: '1.0' })).toBe('1.0');
  });

  it('never reads inherited members', () => {
    const inherited = Object.create({ std_version: '9.9' }) as Record<string, unknown>;
    expect(entryPointVersion(inherited)).toBeUndefined();
  });

  it('reads the field named after the prefix, whichever that is (property)', () => {
    fc.assert(
      fc.property(prefix, version, (name, value) => {
        expect(entryPointVersion({ [`${name}_version`]: value }, name)).toBe(value);
      }),
    );
  });

  it("prefers the server's own field, then std_version, then osdi_version (property)", () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom('std', 'osdi'), prefix),
        fc.option(version, { nil: undefined }),
        fc.option(version, { nil: undefined }),
        fc.option(version, { nil: undefined }),
        (name, own, std, osdi) => {
          const entryPoint: Record<string, string> = {};
          // Written in the reverse order, so that insertion order cannot decide.
          if (osdi !== undefined) entryPoint.osdi_version = osdi;
          if (std !== undefined) entryPoint.std_version = std;
          if (own !== undefined) entryPoint[`${name}_version`] = own;
          expect(entryPointVersion(entryPoint, name)).toBe(
            entryPoint[`${name}_version`] ?? entryPoint.std_version ?? entryPoint.osdi_version,
          );
          if (own !== undefined) expect(entryPointVersion(entryPoint, name)).toBe(own);
        },
      ),
    );
  });
});
