/**
 * The SSRF check against every IPv6 form that carries an IPv4 address (IPv4-compatible,
 * IPv4-mapped, IPv4-translated, NAT64, 6to4, Teredo) and the rest of IANA's
 * special-purpose registries: each form judged as the IPv4 address it reaches (property
 * tests over random addresses), the blocks that are no public receiver refused, both
 * when subscribing through the API and at delivery. The TEST-NET address the helper
 * benchmark subscribes to is now refused at delivery, so nothing leaves the machine.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type HostResolver, refusedAddress } from '../src/webhooks/address-check.js';
import { startWebhookDelivery } from '../src/webhooks/delivery-worker.js';
import { errorOf, harness, OTHER } from './helpers.js';

const noDns: HostResolver = async (hostname) => {
  throw new Error(`the test resolver was asked for ${hostname}`);
};

/** The verdict on an IP literal, without DNS. */
function verdict(address: string): Promise<string | undefined> {
  const host = address.includes(':') ? `[${address}]` : address;
  return refusedAddress(`http://${host}/hook`, false, { resolve: noDns });
}

/** What kind of address a refusal says it is (`a loopback address`), or undefined. */
async function rangeOf(address: string): Promise<string | undefined> {
  const reason = await verdict(address);
  // `http://[…]/hook: <address> is <range>`, maybe with why in parentheses after it.
  return reason === undefined ? undefined : / is (.+?)(?: \(.*\))?$/.exec(reason)?.[1];
}

/** An IPv4 address as a 32-bit number, and back. */
const v4 = (text: string): number =>
  text.split('.').reduce((value, part) => value * 256 + Number(part), 0);
const v4Text = (value: number): string =>
  [24, 16, 8, 0].map((shift) => String(Math.floor(value / 2 ** shift) % 256)).join('.');

/** A 128-bit number as eight full groups (no `::`): a spelling every parser reads. */
function v6Text(value: bigint): string {
  return Array.from({ length: 8 }, (_, n) =>
    ((value >> BigInt(112 - 16 * n)) & 0xffffn).toString(16),
  ).join(':');
}
const v6 = (high: bigint, ipv4: number, low = 0n): string => v6Text(high | (BigInt(ipv4) << low));

/** The 32 bits of `ipv4` inverted, as Teredo writes its client's address. */
const inverted = (ipv4: number): number => (ipv4 ^ 0xffff_ffff) >>> 0;

/** Each form, building the IPv6 address that carries `ipv4`. */
const FORMS: readonly { name: string; of: (ipv4: number) => string }[] = [
  { name: 'IPv4-compatible', of: (ipv4) => v6(0n, ipv4) },
  { name: 'IPv4-mapped', of: (ipv4) => v6(0xffffn << 32n, ipv4) },
  { name: 'IPv4-translated', of: (ipv4) => v6(0xffffn << 48n, ipv4) },
  { name: 'NAT64', of: (ipv4) => v6(0x64ff9bn << 96n, ipv4) },
  // The IPv4 address in bits 16 to 48; the subnet and host after it are free.
  { name: '6to4', of: (ipv4) => v6((0x2002n << 112n) | 0xbeefn, ipv4, 80n) },
  // Teredo: a public server (8.8.8.8) in bits 32 to 64, the client's address inverted
  // in the last 32 bits.
  {
    name: 'Teredo',
    of: (ipv4) => v6((0x20010000n << 96n) | (BigInt(v4('8.8.8.8')) << 64n), inverted(ipv4)),
  },
];

/**
 * IPv4 blocks the check refuses, written here from IANA's IPv4 special-purpose registry
 * (and multicast), with the kind of address each refusal names.
 */
const REFUSED_V4: readonly [network: string, prefix: number, range: string][] = [
  ['0.0.0.0', 8, 'an unspecified address'],
  ['10.0.0.0', 8, 'a private address'],
  ['100.64.0.0', 10, 'a carrier-grade NAT address'],
  ['127.0.0.0', 8, 'a loopback address'],
  ['169.254.0.0', 16, 'a link-local address'],
  ['172.16.0.0', 12, 'a private address'],
  ['192.0.0.0', 24, 'a reserved address'],
  ['192.0.2.0', 24, 'a documentation address'],
  ['192.31.196.0', 24, 'an anycast address of a network service'],
  ['192.52.193.0', 24, 'an anycast address of a network service'],
  ['192.88.99.0', 24, 'an anycast address of a network service'],
  ['192.168.0.0', 16, 'a private address'],
  ['192.175.48.0', 24, 'an anycast address of a network service'],
  ['198.18.0.0', 15, 'a benchmarking address'],
  ['198.51.100.0', 24, 'a documentation address'],
  ['203.0.113.0', 24, 'a documentation address'],
  ['224.0.0.0', 4, 'a multicast address'],
  ['240.0.0.0', 4, 'a reserved address'],
];

/** A random address in one of {@link REFUSED_V4}'s blocks, with the range it is in. */
const refusedV4 = fc
  .constantFrom(...REFUSED_V4)
  .chain(([network, prefix, range]) =>
    fc
      .integer({ min: 0, max: 2 ** (32 - prefix) - 1 })
      .map((host) => ({ ipv4: v4(network) + host, range })),
  );

const anyV4 = fc.integer({ min: 0, max: 2 ** 32 - 1 });

/** An IPv6 address written with `::` (no dotted quad) as a 128-bit number. */
function v6Bits(text: string): bigint {
  const [head = '', tail = ''] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const before = groups(head);
  const after = groups(tail);
  const all = [...before, ...Array(8 - before.length - after.length).fill('0'), ...after];
  return all.reduce((value: bigint, group: string) => (value << 16n) | BigInt(`0x${group}`), 0n);
}

/** A random IPv6 address inside `network/prefix`. */
function inBlock(network: string, prefix: number): fc.Arbitrary<string> {
  return fc
    .bigInt({ min: 0n, max: (1n << BigInt(128 - prefix)) - 1n })
    .map((host) => v6Text(v6Bits(network) | host));
}

describe('IPv6 forms that embed an IPv4 address', () => {
  it.each([
    ['http://[::127.0.0.1]/', 'a loopback address (the IPv4-compatible form of 127.0.0.1)'],
    ['http://[64:ff9b::a9fe:a9fe]/', 'a link-local address (the NAT64 form of 169.254.169.254)'],
    ['http://[2002:7f00:1::]/', 'a loopback address (the 6to4 form of 127.0.0.1)'],
    ['http://[fec0::1]/', 'a site-local address'],
    ['http://[::ffff:0:a00:1]/', 'a private address (the IPv4-translated form of 10.0.0.1)'],
    [
      'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
      'a documentation address (the Teredo form of client 192.0.2.45)',
    ],
    ['http://[2001:0:a00:1::]/', 'a private address (the Teredo form of server 10.0.0.1)'],
    ['http://[64:ff9b:1::5db8:d822]/', 'a local-use NAT64 address'],
  ])('refuses %s: %s', async (url, why) => {
    const reason = await refusedAddress(url, false, { resolve: noDns });
    expect(reason).toContain(url);
    expect(reason).toContain(`is ${why}`);
  });

  it('refuses every form of an IPv4 address that is refused, for the same reason', async () => {
    await fc.assert(
      fc.asyncProperty(refusedV4, fc.constantFrom(...FORMS), async ({ ipv4, range }, form) => {
        expect(await rangeOf(v4Text(ipv4))).toBe(range);
        // In the compatible form 0.0.0.0 and 0.0.0.1 are :: and ::1, refused as themselves.
        if (form.name === 'IPv4-compatible' && ipv4 <= 1) return;
        const reason = await verdict(form.of(ipv4));
        expect(reason).toContain(`is ${range} (the ${form.name} form of `);
        expect(reason).toContain(v4Text(ipv4));
      }),
      { numRuns: 500 },
    );
  });

  it('judges any IPv4 address in the mapped, compatible, NAT64 and 6to4 forms as the address itself', async () => {
    const judgedAsIs = FORMS.filter((form) => form.name !== 'Teredo');
    await fc.assert(
      fc.asyncProperty(anyV4, fc.constantFrom(...judgedAsIs), async (ipv4, form) => {
        const alone = await rangeOf(v4Text(ipv4));
        // 0.0.0.0 and 0.0.0.1 in the compatible form are :: and ::1, refused as themselves.
        if (form.name === 'IPv4-compatible' && ipv4 <= 1) return;
        expect(await rangeOf(form.of(ipv4))).toBe(alone);
      }),
      { numRuns: 2000 },
    );
  });

  it('takes public IPv4 addresses in every form: DNS64 answers NAT64 addresses for them', async () => {
    for (const ipv4 of ['93.184.216.34', '8.8.4.4', '1.1.1.1']) {
      for (const form of FORMS) expect(await verdict(form.of(v4(ipv4)))).toBeUndefined();
    }
    expect(await verdict('64:ff9b::5db8:d822')).toBeUndefined();
  });

  it('refuses a Teredo address whose server is not public, whatever its client', async () => {
    await fc.assert(
      fc.asyncProperty(refusedV4, anyV4, async ({ ipv4: server, range }, client) => {
        const address = v6Text(
          (0x20010000n << 96n) | (BigInt(server) << 64n) | BigInt(inverted(client)),
        );
        expect(await verdict(address)).toContain(`is ${range} (the Teredo form of server `);
      }),
    );
  });

  it('refuses a name that resolves to an embedding form of a refused address', async () => {
    const resolve: HostResolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '64:ff9b::169.254.169.254', family: 6 },
    ];
    expect(await refusedAddress('https://hooks.example.org/', false, { resolve })).toBe(
      'https://hooks.example.org/: hooks.example.org resolves to 64:ff9b::169.254.169.254, a link-local address (the NAT64 form of 169.254.169.254)',
    );
  });
});

describe("the rest of IANA's special-purpose blocks", () => {
  const blocks: readonly [network: string, prefix: number, range: string][] = [
    ['fec0::', 10, 'a site-local address'],
    ['2001:db8::', 32, 'a documentation address'],
    ['3fff::', 20, 'a documentation address'],
    ['100::', 64, 'a discard-only address'],
    ['100:0:0:1::', 64, 'a discard-only address'],
    ['2001:2::', 48, 'a benchmarking address'],
    // ORCHID (deprecated) and ORCHIDv2, PCP and TURN anycast, AMT, AS112, drone entity
    // tags, and the unassigned rest of 2001::/23.
    ['2001:10::', 28, 'a reserved address'],
    ['2001:20::', 28, 'a reserved address'],
    ['2001:1::', 32, 'a reserved address'],
    ['2001:3::', 32, 'a reserved address'],
    ['2001:4:112::', 48, 'a reserved address'],
    ['2001:30::', 28, 'a reserved address'],
    ['2001:100::', 24, 'a reserved address'],
    ['64:ff9b:1::', 48, 'a local-use NAT64 address'],
    ['5f00::', 16, 'a reserved address'],
    ['2620:4f:8000::', 48, 'an anycast address of a network service'],
    ['fc00::', 7, 'a unique local address'],
    ['fe80::', 10, 'a link-local address'],
    ['ff00::', 8, 'a multicast address'],
    // Outside 2000::/3 and not an embedding form: nothing is allocated there.
    ['4000::', 3, 'a reserved address'],
    ['e000::', 4, 'a reserved address'],
    ['1::', 16, 'a reserved address'],
  ];

  it.each(blocks)('refuses every address of %s/%i as %s', async (network, prefix, range) => {
    await fc.assert(
      fc.asyncProperty(inBlock(network, prefix), async (address) => {
        expect(await rangeOf(address)).toBe(range);
      }),
      { numRuns: 50 },
    );
  });

  it.each([
    ['http://192.0.2.1/bench-webhook', 'a documentation address'],
    ['http://198.51.100.7/', 'a documentation address'],
    ['http://203.0.113.9/', 'a documentation address'],
    ['http://192.88.99.1/', 'an anycast address of a network service'],
    ['http://[2001:db8::1]/', 'a documentation address'],
    ['http://[3fff::1]/', 'a documentation address'],
    ['http://[100::1]/', 'a discard-only address'],
    ['http://[2001:20::1]/', 'a reserved address'],
  ])('refuses %s (%s)', async (url, range) => {
    expect(await refusedAddress(url, false, { resolve: noDns })).toContain(`is ${range}`);
  });

  it('still takes public addresses of both families', async () => {
    for (const address of ['93.184.216.34', '8.8.8.8', '2606:4700::1111', '2a00:1450::1']) {
      expect(await verdict(address)).toBeUndefined();
    }
  });
});

/** The four URLs of the issue: accepted before, by both checks. */
const ISSUE_URLS = [
  'http://[::127.0.0.1]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[2002:7f00:1::]/',
  'http://[fec0::1]/',
];

describe('the check where subscriptions are made and delivered', () => {
  it.each(ISSUE_URLS)('refuses a subscription to %s through the API with a 400', async (url) => {
    const h = harness();
    const { status, body } = await h.json('POST', '/api/v1/webhooks', { body: { url } });
    expect(status).toBe(400);
    const [error] = errorOf(body);
    expect(error?.error_code).toBe('INVALID_PROPERTY');
    expect(error?.properties).toEqual(['url']);
    expect(error?.description).toContain(url);
    // Taken when the operator allows private addresses.
    const allowing = harness({ webhooksAllowPrivate: true });
    expect((await allowing.json('POST', '/api/v1/webhooks', { body: { url } })).status).toBe(201);
  });

  it('refuses them at delivery too, POSTing nothing, when the subscription is already stored', async () => {
    const h = harness({ anonymousRateLimit: false });
    const tenant = await h.storage.tenants.ensure('other');
    const ids: string[] = [];
    for (const [n, url] of [...ISSUE_URLS, 'http://192.0.2.1/bench-webhook'].entries()) {
      const id = `sub-embedded-${n}`;
      ids.push(id);
      // As an older server accepted it: stored as the API would have.
      await h.storage.webhooks.addSubscription({
        id,
        tenantId: tenant.id,
        url,
        secret: 'whsec_embedded_form',
        triggers: ['*'],
        source: 'api',
        createdMs: Date.now(),
      });
    }
    const created = await h.json('POST', '/api/v1/people', {
      body: { given_name: 'Ana' },
      key: OTHER,
    });
    expect(created.status).toBe(201);
    const posted: string[] = [];
    const worker = startWebhookDelivery({
      app: h.app,
      rootUrl: 'http://adis.test',
      background: false,
      log: () => undefined,
      fetch: async (input) => {
        posted.push(String(input));
        return new Response(null, { status: 204 });
      },
    });
    try {
      await worker.idle();
    } finally {
      await worker.stop(1000);
    }
    expect(posted).toEqual([]);
    for (const id of ids) {
      const [attempt] = await h.storage.webhooks.listAttempts(id, 1);
      expect(attempt?.outcome).toBe('failed');
      expect(attempt?.error).toMatch(/^address refused: /);
    }
  });
});
