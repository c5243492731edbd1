import { describe, expect, it } from 'vitest';
import { type HostResolver, refusedAddress } from '../src/webhooks/address-check.js';

/** A resolver answering from a table, as DNS would; unknown names fail like ENOTFOUND. */
function resolverOf(table: Record<string, string[]>): HostResolver {
  return async (hostname) => {
    const addresses = table[hostname];
    if (!addresses) throw new Error(`getaddrinfo ENOTFOUND ${hostname}`);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
}

const noDns: HostResolver = async (hostname) => {
  throw new Error(`the test resolver was asked for ${hostname}`);
};

describe('refusedAddress', () => {
  it.each([
    ['http://127.0.0.1/hook', 'a loopback address'],
    ['http://127.9.9.9:9000/hook', 'a loopback address'],
    ['http://[::1]/hook', 'a loopback address'],
    ['http://10.1.2.3/hook', 'a private address'],
    ['http://172.16.0.1/hook', 'a private address'],
    ['http://172.31.255.255/hook', 'a private address'],
    ['http://192.168.1.1/hook', 'a private address'],
    ['http://169.254.169.254/latest/meta-data', 'a link-local address'],
    ['http://[fe80::1]/hook', 'a link-local address'],
    ['http://100.64.0.1/hook', 'a carrier-grade NAT address'],
    ['http://100.127.255.254/hook', 'a carrier-grade NAT address'],
    ['http://0.0.0.0/hook', 'an unspecified address'],
    ['http://[::]/hook', 'an unspecified address'],
    ['http://[fc00::1]/hook', 'a unique local address'],
    ['http://[fd12:3456::1]/hook', 'a unique local address'],
    ['http://224.0.0.1/hook', 'a multicast address'],
    ['http://[ff02::1]/hook', 'a multicast address'],
    ['http://255.255.255.255/hook', 'a reserved address'],
    ['http://[::ffff:127.0.0.1]/hook', 'a loopback address'],
    ['http://[::ffff:169.254.169.254]/hook', 'a link-local address'],
    ['http://[::ffff:10.0.0.1]/hook', 'a private address'],
    // Other IPv4 spellings, which URL parsing turns into 127.0.0.1.
    ['http://2130706433/hook', 'a loopback address'],
    ['http://0x7f.1/hook', 'a loopback address'],
  ])('refuses the IP literal in %s (%s) without resolving anything', async (url, range) => {
    const reason = await refusedAddress(url, false, { resolve: noDns });
    expect(reason).toContain(range);
    expect(reason).toContain(url);
  });

  it.each([
    'http://93.184.216.34/hook',
    'https://8.8.8.8:8443/hook',
    'http://172.32.0.1/hook',
    'http://100.128.0.1/hook',
    'http://[2606:4700::1111]/hook',
  ])('takes the public IP literal in %s', async (url) => {
    expect(await refusedAddress(url, false, { resolve: noDns })).toBeUndefined();
  });

  it('refuses localhost names before any resolution', async () => {
    for (const url of ['http://localhost:9000/', 'http://LOCALHOST./x', 'http://api.localhost/x']) {
      expect(await refusedAddress(url, false, { resolve: noDns })).toMatch(/names this machine/);
    }
  });

  it('refuses a name when any of its addresses is not public', async () => {
    const resolve = resolverOf({
      'hooks.example.org': ['93.184.216.34', '2606:2800:220:1::1'],
      'split.example.org': ['93.184.216.34', '10.0.0.7'],
      'metadata.example.org': ['169.254.169.254'],
      'mapped.example.org': ['::ffff:127.0.0.1'],
    });
    expect(await refusedAddress('https://hooks.example.org/in', false, { resolve })).toBe(
      undefined,
    );
    expect(await refusedAddress('https://split.example.org/in', false, { resolve })).toBe(
      'https://split.example.org/in: split.example.org resolves to 10.0.0.7, a private address',
    );
    expect(await refusedAddress('http://metadata.example.org/', false, { resolve })).toContain(
      'resolves to 169.254.169.254, a link-local address',
    );
    expect(await refusedAddress('http://mapped.example.org/', false, { resolve })).toContain(
      'resolves to ::ffff:127.0.0.1, a loopback address',
    );
  });

  it('refuses a host that does not resolve, saying why', async () => {
    const resolve = resolverOf({ 'empty.example.org': [] });
    expect(await refusedAddress('https://nowhere.invalid/in', false, { resolve })).toBe(
      'https://nowhere.invalid/in: the host nowhere.invalid does not resolve (getaddrinfo ENOTFOUND nowhere.invalid)',
    );
    expect(await refusedAddress('https://empty.example.org/in', false, { resolve })).toContain(
      'resolves to no address',
    );
  });

  it('refuses a resolution that takes too long', async () => {
    const never: HostResolver = () => new Promise(() => {});
    const reason = await refusedAddress('https://slow.example.org/', false, {
      resolve: never,
      timeoutMs: 20,
    });
    expect(reason).toContain('resolving slow.example.org took longer than 20 ms');
  });

  it('takes only absolute http and https URLs, even when private addresses are allowed', async () => {
    for (const allowPrivate of [false, true]) {
      expect(await refusedAddress('ftp://93.184.216.34/x', allowPrivate)).toContain(
        'only http and https URLs can receive webhooks, not ftp',
      );
      expect(await refusedAddress('file:///etc/passwd', allowPrivate)).toContain('not file');
      expect(await refusedAddress('/relative/hook', allowPrivate)).toBe(
        '"/relative/hook" is not an absolute URL',
      );
    }
  });

  it('takes private and loopback addresses when allowed, resolving nothing', async () => {
    for (const url of [
      'http://127.0.0.1:9000/hook',
      'http://localhost:9000/hook',
      'http://169.254.169.254/',
      'http://unresolvable.invalid/',
    ]) {
      expect(await refusedAddress(url, true, { resolve: noDns })).toBeUndefined();
    }
  });
});
