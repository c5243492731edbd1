import { it } from 'vitest';
import { ACTION_NETWORK_PRESET } from '../reference-server/src/presets/index.js';
import { createTestServer } from '../reference-server/src/testing.js';
it('peek', async () => {
  for (const app of [{}, { preset: ACTION_NETWORK_PRESET }]) {
    const kit = createTestServer({ seed: { people: 3 }, app });
    const h = { [(app as {preset?: unknown}).preset ? 'OSDI-API-Token' : 'STD-API-Token']: kit.keys.write, 'content-type': 'application/json' };
    const base = kit.entryPoint;
    for (const [m, p] of [['POST', 'people/person_signup_helper'], ['GET', 'people/person_signup_helper'], ['POST', 'people/nope'], ['POST', 'person_signup_helper'], ['GET', 'person_signup_helper']] as const) {
      const r = await kit.fetch(base + p, { method: m, headers: h, body: m === 'POST' ? '{"person":{"email_addresses":[{"address":"a@example.org"}]}}' : undefined });
      console.log(m, p, r.status, r.headers.get('allow'), (await r.text()).slice(0, 160));
    }
    await kit.close();
  }
});
