/**
 * Which webhook URLs the server may POST to: the guard against server-side request
 * forgery. A subscription made through the API names a URL the server will call from
 * inside its own network; without this check any API key could make it call loopback
 * services, the private network or a cloud metadata endpoint (169.254.169.254).
 *
 * The host is resolved and refused when ANY of its addresses is not a public one: a name
 * with one public and one private address could be answered either way at delivery.
 * Checking before each delivery too (the worker does) narrows DNS rebinding to the
 * moment between the check and the connection; the operator's `--webhooks` file, and a
 * server started with `--webhooks-allow-private`, skip the check (`allowPrivate`).
 *
 * Imports nothing of the server: the HTTP layer (subscriptions) and the delivery worker
 * both call it.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** An address a host name resolves to, as `dns.lookup` with `all: true` gives it. */
export interface ResolvedAddress {
  address: string;
  /** 4 or 6. */
  family: number;
}

/** Resolves a host name to all its addresses (throws when it cannot). */
export type HostResolver = (hostname: string) => Promise<readonly ResolvedAddress[]>;

/** Options of {@link refusedAddress}. */
export interface AddressCheckOptions {
  /** How names are resolved. Default: `dns.lookup(host, { all: true })` (the system's resolver, hosts file included). */
  resolve?: HostResolver;
  /** How long a resolution may take before the URL is refused. Default 5000 ms. */
  timeoutMs?: number;
}

/** One range of addresses a webhook may not be delivered to, and what it is called in a refusal. */
interface RefusedRange {
  name: string;
  subnets: readonly (readonly [network: string, prefix: number, family: 'ipv4' | 'ipv6'])[];
}

const REFUSED_RANGES: readonly RefusedRange[] = [
  {
    name: 'a loopback address',
    subnets: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    name: 'an unspecified address',
    subnets: [
      ['0.0.0.0', 8, 'ipv4'],
      ['::', 128, 'ipv6'],
    ],
  },
  {
    name: 'a private address',
    subnets: [
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
    ],
  },
  {
    name: 'a unique local address',
    subnets: [['fc00::', 7, 'ipv6']],
  },
  {
    // 169.254.169.254 is the metadata service of most clouds.
    name: 'a link-local address',
    subnets: [
      ['169.254.0.0', 16, 'ipv4'],
      ['fe80::', 10, 'ipv6'],
    ],
  },
  {
    name: 'a carrier-grade NAT address',
    subnets: [['100.64.0.0', 10, 'ipv4']],
  },
  {
    name: 'a multicast address',
    subnets: [
      ['224.0.0.0', 4, 'ipv4'],
      ['ff00::', 8, 'ipv6'],
    ],
  },
  {
    // IETF protocol assignments, benchmarking, the reserved block and broadcast: none
    // is a public receiver.
    name: 'a reserved address',
    subnets: [
      ['192.0.0.0', 24, 'ipv4'],
      ['198.18.0.0', 15, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
    ],
  },
];

/**
 * Each range as a `BlockList`, which also matches an IPv4 rule against the IPv4-mapped
 * IPv6 spelling of an address (`::ffff:127.0.0.1`).
 */
const REFUSED_LISTS: readonly { name: string; list: BlockList }[] = REFUSED_RANGES.map(
  ({ name, subnets }) => {
    const list = new BlockList();
    for (const [network, prefix, family] of subnets) list.addSubnet(network, prefix, family);
    return { name, list };
  },
);

/** Names that mean this machine whatever DNS says (RFC 6761). */
const LOCALHOST_NAME = /(^|\.)localhost\.?$/i;

const lookupAll: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** What kind of refused address `address` is, or undefined for a public one. */
function refusedRangeOf(address: string): string | undefined {
  const family = isIP(address);
  if (family === 0) return 'not an IP address';
  const type = family === 4 ? 'ipv4' : 'ipv6';
  return REFUSED_LISTS.find(({ list }) => list.check(address, type))?.name;
}

/** `promise`, or a rejection after `ms` milliseconds. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, fail) => {
    timer = setTimeout(() => fail(new Error(`${what} took longer than ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Why the server may not deliver webhooks to `url`, or undefined when it may. Only
 * absolute http and https URLs are taken. Unless `allowPrivate`, the host (a name is
 * resolved, an IP literal taken as it is) must have only public addresses: loopback,
 * private, unique local, link-local (cloud metadata), carrier-grade NAT, unspecified,
 * multicast and reserved addresses are refused, in their IPv4-mapped IPv6 spelling too,
 * and so are `localhost` names and hosts that do not resolve.
 *
 * @example
 * ```ts
 * await refusedAddress('https://hooks.example.org/adis', false); // undefined (if it resolves to public addresses)
 * await refusedAddress('http://169.254.169.254/latest', false);
 * // 'http://169.254.169.254/latest: 169.254.169.254 is a link-local address'
 * await refusedAddress('http://127.0.0.1:9000/hook', true); // undefined
 * ```
 */
export async function refusedAddress(
  url: string,
  allowPrivate: boolean,
  options: AddressCheckOptions = {},
): Promise<string | undefined> {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `${JSON.stringify(url)} is not an absolute URL`;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return `${url}: only http and https URLs can receive webhooks, not ${parsed.protocol.slice(0, -1)}`;
  }
  if (allowPrivate) return undefined;
  // WHATWG URL has normalised IPv4 spellings (0x7f.1, 2130706433) to dotted quads, and
  // keeps IPv6 literals in brackets.
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  if (LOCALHOST_NAME.test(host)) return `${url}: ${host} names this machine (localhost)`;
  let addresses: readonly ResolvedAddress[];
  if (isIP(host) !== 0) {
    addresses = [{ address: host, family: isIP(host) }];
  } else {
    try {
      addresses = await within(
        (options.resolve ?? lookupAll)(host),
        options.timeoutMs ?? 5000,
        `resolving ${host}`,
      );
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      return `${url}: the host ${host} does not resolve (${reason})`;
    }
    if (addresses.length === 0) return `${url}: the host ${host} resolves to no address`;
  }
  for (const { address } of addresses) {
    const range = refusedRangeOf(address);
    if (range === undefined) continue;
    return address === host
      ? `${url}: ${address} is ${range}`
      : `${url}: ${host} resolves to ${address}, ${range}`;
  }
  return undefined;
}
