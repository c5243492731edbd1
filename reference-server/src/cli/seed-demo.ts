/**
 * `--seed <n>`: demo people, and on a new database demo activity, in the `demo` tenant.
 */
import { defaultRegistry } from '../http/app.js';
import type { ServingPreset } from '../presets/index.js';
import { seedPeople } from '../seed.js';
import { describeActivity, seedActivity } from '../seed-activity.js';
import type { Storage } from '../storage/storage.js';
import { count } from './count.js';
import { integerOption } from './number-options.js';

/**
 * How many demo people `--seed` asks for: by default 300 in a new database and none in
 * one that has data, which is why it is read once the database is open.
 */
export function seedCountOption(raw: string | undefined, databaseIsNew: boolean): number {
  return integerOption('seed', raw, databaseIsNew ? 300 : 0, 10_000_000);
}

/**
 * Adds `people` demo people to the `demo` tenant; in a new database also demo activity
 * (petitions, signatures, events, donations, tags, …) and the preset's own demo data,
 * written with the preset's kinds so its rules (derived members, read-only kinds) apply.
 * Prints a line per step with its time, then refreshes the planner's statistics.
 */
export async function seedDemo(
  storage: Storage,
  options: { people: number; preset: ServingPreset },
): Promise<void> {
  const { people, preset } = options;
  const seed = Date.now() & 0x7fffffff;
  let started = performance.now();
  await seedPeople(storage, { tenant: 'demo', count: people, seed });
  console.log(
    `Seeded ${count(people, 'demo person', 'demo people')} in ${Math.round(performance.now() - started)} ms`,
  );
  // Activity only in a new database: a later `--seed n` adds people, not a second copy
  // of the demo petitions and events.
  if (storage.created) {
    started = performance.now();
    const registry = defaultRegistry(preset);
    const counts = await seedActivity(storage, { tenant: 'demo', seed, registry });
    console.log(
      `Seeded demo activity in ${Math.round(performance.now() - started)} ms: ${describeActivity(counts)}`,
    );
    if (preset.seed) {
      const own = await preset.seed(storage, { tenant: 'demo', seed, registry });
      console.log(`Seeded ${preset.name} data: ${describeActivity(own)}`);
    }
  }
  await storage.analyze();
}
