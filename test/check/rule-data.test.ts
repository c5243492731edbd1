/**
 * The checker's facts as data, held to themselves and to the docs: docs/check.md's
 * tables give every rule the level `RULE_REQUIREMENTS` gives it (the data is the
 * source, the tables its reader's copy), and every departure of a known server is
 * scoped and cites a page of that server's docs, as a departure excused everywhere
 * would hide what the page never said.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  ACTION_NETWORK,
  KNOWN_SERVERS,
  REQUIREMENTS,
  RULE_REQUIREMENTS,
} from '../../src/check/index.js';

const DOCS = readFileSync(new URL('../../docs/check.md', import.meta.url), 'utf8');

/** The level docs/check.md's tables give each rule named in a row with a level column. */
function documentedLevels(): Map<string, string> {
  const levels = new Map<string, string>();
  const known = new Set(Object.keys(REQUIREMENTS));
  for (const line of DOCS.split('\n')) {
    if (!line.startsWith('|')) continue;
    const cells = line.split('|').map((cell) => cell.trim());
    const level = cells.find((cell) => known.has(cell));
    if (!level) continue;
    // The rules are the backticked names of the cell before the level.
    const ruleCell = cells[cells.indexOf(level) - 1] ?? '';
    for (const match of ruleCell.matchAll(/`([a-z0-9.-]+)`/g))
      levels.set(match[1] as string, level);
  }
  return levels;
}

describe('requirement levels', () => {
  it('are the same in docs/check.md as in RULE_REQUIREMENTS, for every rule', () => {
    expect(Object.fromEntries(documentedLevels())).toEqual(RULE_REQUIREMENTS);
  });
});

describe("known servers' departures", () => {
  const departures = KNOWN_SERVERS.flatMap((server) =>
    server.departures.map((departure) => ({ server, departure })),
  );

  it.each(departures)(
    '$departure.rule is scoped and cites a page of $server.name',
    ({ server, departure }) => {
      const { collection, members, method, header } = departure.scope;
      expect(
        collection ?? members ?? method ?? header,
        'a scope naming what the page speaks of',
      ).toBeDefined();
      expect(departure.page.startsWith(server.docs)).toBe(true);
      expect(departure.does).not.toBe('');
      expect(Object.keys(RULE_REQUIREMENTS)).toContain(departure.rule);
    },
  );

  it('takes the POST to the collections whose page says they are read only as Action Network documents them', () => {
    const readOnly = ACTION_NETWORK.departures
      .filter((departure) => departure.rule === 'writes.create')
      .map((departure) => [
        departure.scope.collection,
        departure.scope.method,
        departure.scope.status,
      ]);
    expect(readOnly).toEqual([
      ['lists', 'POST', 405],
      ['items', 'POST', 405],
      ['queries', 'POST', 405],
      ['wrappers', 'POST', 405],
      ['campaigns', 'POST', 405],
    ]);
  });
});
