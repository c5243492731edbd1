import { describe, expect, it } from 'vitest';
import { SERVER_PRESETS } from '../../src/presets/index.js';
import {
  declaredPlural,
  declaredPlurals,
  PRESET_KIND_NAMES,
  SPEC_KIND_NAMES,
} from '../../src/schema/kind-names.js';
import { KINDS } from '../../src/schema/kinds/index.js';

// The table is the names of the kinds, kept apart from their schemas so that a bundle
// can carry it alone: these tests keep the two from drifting apart.

describe('the table of declared kinds', () => {
  it("holds the specification's kinds: KINDS' names, in KINDS' order", () => {
    expect(Object.entries(SPEC_KIND_NAMES)).toEqual(
      KINDS.map((kind) => [kind.singular, kind.plural]),
    );
  });

  it("holds the presets' own kinds, apart from the specification's", () => {
    const presetKinds = Object.values(SERVER_PRESETS)
      .flatMap((preset) => preset.kinds ?? [])
      .filter((kind) => !Object.hasOwn(SPEC_KIND_NAMES, kind.singular));
    expect(Object.entries(PRESET_KIND_NAMES)).toEqual(
      presetKinds.map((kind) => [kind.singular, kind.plural]),
    );
    expect(Object.keys(PRESET_KIND_NAMES)).toEqual([
      'event_campaign',
      'campaign',
      'unique_id_list',
      'custom_field',
      'embed',
    ]);
  });

  it('answers a plural for a declared name only, never a guess', () => {
    expect(declaredPlural('outreach')).toBe('outreaches');
    expect(declaredPlural('person')).toBe('people');
    expect(declaredPlural('event_campaign')).toBe('event_campaigns');
    expect(declaredPlural('review')).toBeUndefined();
    // Names of the object's prototype are no kinds.
    expect(declaredPlural('toString')).toBeUndefined();
    expect(declaredPlural('__proto__')).toBeUndefined();
    expect(declaredPlurals()).toHaveLength(28);
    expect(declaredPlurals()).toContain('unique_id_lists');
  });
});
