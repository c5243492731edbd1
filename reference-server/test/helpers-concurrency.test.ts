import { describe, expect, it } from 'vitest';
import { OTHER } from './helpers.js';
import { callHelper, count, create, helperHarness, helperOf, person } from './helpers-setup.js';

describe('concurrent helper calls', () => {
  it('50 signings at once by 25 people keep one signature each and match people once', async () => {
    const h = helperHarness();
    const petition = await create(h, 'petitions', { title: 'Save Elm Park' });
    const href = helperOf(petition, 'record_signature_helper');
    // 25 distinct signers, each signing twice (once with a key, once without): the
    // second call of each must find the person and the signature the first one created.
    const calls = Array.from({ length: 50 }, (_, index) =>
      callHelper(
        h,
        href,
        { person: person(`Signer ${index % 25}`, `signer${index % 25}@example.org`) },
        index % 2 === 0 ? undefined : null,
      ),
    );
    const results = await Promise.all(calls);
    // Without a key: always 200 {}. With one: 201 when it came first, 200 when second.
    const keyed = results.filter((_, index) => index % 2 === 0).map((r) => r.status);
    expect(results.filter((_, index) => index % 2 === 1).map((r) => r.status)).toEqual(
      Array<number>(25).fill(200),
    );
    expect(keyed.every((status) => status === 200 || status === 201)).toBe(true);
    expect((await h.json('GET', petition._links.self.href)).body.total_signatures).toBe(25);
    expect(await count(h, petition._links['std:signatures'].href)).toBe(25);
    expect(await count(h, 'people')).toBe(25);
    // Another tenant's petition counts its own signatures only.
    const other = await create(h, 'petitions', { title: 'Elsewhere' }, OTHER);
    await Promise.all(
      Array.from({ length: 10 }, () =>
        callHelper(h, helperOf(other, 'record_signature_helper'), { person: person('Z') }, null),
      ),
    );
    expect(
      (await h.json('GET', other._links.self.href, { key: OTHER })).body.total_signatures,
    ).toBe(10);
    expect((await h.json('GET', petition._links.self.href)).body.total_signatures).toBe(25);
  });
});
