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
 * Why the addresses are read as numbers here rather than by `net.BlockList`: an IPv6
 * address can carry an IPv4 one in several ways (`::127.0.0.1`, `64:ff9b::a9fe:a9fe`,
 * `2002:7f00:1::`), and each must be judged as the IPv4 address it reaches; BlockList
 * knows only the IPv4-mapped form.
 *
 * Imports nothing of the server: the HTTP layer (subscriptions) and the delivery worker
 * both call it.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

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

/**
 * The addresses that are not public receivers: IANA's IPv4 and IPv6 special-purpose
 * address registries (RFC 6890 and their later entries), multicast, and the deprecated
 * site-local block. Where an entry is globally reachable but only a network service's
 * (anycast relays, DNS sinks), it is here too: no webhook receiver lives there.
 *
 * The IPv6 forms that embed an IPv4 address (IPv4-mapped, IPv4-compatible, NAT64, 6to4,
 * Teredo) are not here: they are judged as the IPv4 address they reach
 * ({@link EMBEDDING_FORMS}). Nor is the rest of IPv6 outside 2000::/3, refused whole
 * after them ({@link GLOBAL_UNICAST}).
 */
const REFUSED_RANGES: readonly RefusedRange[] = [
  {
    name: 'a loopback address',
    subnets: [
      ['127.0.0.0', 8, 'ipv4'],
      ['::1', 128, 'ipv6'],
    ],
  },
  {
    // 0.0.0.0/8 is "this network": a connection to 0.0.0.0 reaches this machine.
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
    // Deprecated (RFC 3879), but a network that still routes it keeps it inside.
    name: 'a site-local address',
    subnets: [['fec0::', 10, 'ipv6']],
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
    // TEST-NET-1, -2 and -3 (RFC 5737) and IPv6's two documentation prefixes (RFC 3849,
    // RFC 9637): examples, never a real receiver. A network may route them inside.
    name: 'a documentation address',
    subnets: [
      ['192.0.2.0', 24, 'ipv4'],
      ['198.51.100.0', 24, 'ipv4'],
      ['203.0.113.0', 24, 'ipv4'],
      ['2001:db8::', 32, 'ipv6'],
      ['3fff::', 20, 'ipv6'],
    ],
  },
  {
    // RFC 2544 and RFC 5180: for testing devices in a lab.
    name: 'a benchmarking address',
    subnets: [
      ['198.18.0.0', 15, 'ipv4'],
      ['2001:2::', 48, 'ipv6'],
    ],
  },
  {
    // Anycast addresses of network services, globally reachable but no receiver's: the
    // 6to4 and 6a44 relays (deprecated, RFC 7526), AMT relays (RFC 7450) and the AS112
    // DNS sinks (RFC 7534, RFC 7535).
    name: 'an anycast address of a network service',
    subnets: [
      ['192.88.99.0', 24, 'ipv4'],
      ['192.52.193.0', 24, 'ipv4'],
      ['192.31.196.0', 24, 'ipv4'],
      ['192.175.48.0', 24, 'ipv4'],
      ['2620:4f:8000::', 48, 'ipv6'],
    ],
  },
  {
    // 100::/64 drops what is sent to it (RFC 6666); 100:0:0:1::/64 is the dummy prefix
    // (RFC 9780), a source only.
    name: 'a discard-only address',
    subnets: [
      ['100::', 64, 'ipv6'],
      ['100:0:0:1::', 64, 'ipv6'],
    ],
  },
  {
    // 64:ff9b:1::/48 is for NAT64 inside one network (RFC 8215), with a prefix length
    // the network chooses (/48 to /96), and RFC 6052 puts the IPv4 address at another
    // place for each length: which IPv4 address a translator reaches cannot be read
    // from the address alone, so the whole block is refused (a DNS64 network using it
    // for public receivers needs --webhooks-allow-private). The well-known 64:ff9b::/96
    // has one place, and is judged as its IPv4 address (EMBEDDING_FORMS).
    name: 'a local-use NAT64 address',
    subnets: [['64:ff9b:1::', 48, 'ipv6']],
  },
  {
    // IETF protocol assignments (192.0.0.0/24, RFC 6890), the reserved block and
    // broadcast (240.0.0.0/4), segment routing SIDs (5f00::/16, RFC 9602), and
    // 2001::/23 (RFC 2928) but for Teredo's 2001::/32, judged as the IPv4 addresses it
    // embeds: PCP and TURN anycast, AMT, AS112, the ORCHIDs (identifiers, not
    // locators), drone entity tags and the unassigned rest. None is a public receiver.
    name: 'a reserved address',
    subnets: [
      ['192.0.0.0', 24, 'ipv4'],
      ['240.0.0.0', 4, 'ipv4'],
      ['5f00::', 16, 'ipv6'],
      // 2001::/23 without 2001::/32: the rest of its second group, 0x0001 to 0x01ff.
      ['2001:1::', 32, 'ipv6'],
      ['2001:2::', 31, 'ipv6'],
      ['2001:4::', 30, 'ipv6'],
      ['2001:8::', 29, 'ipv6'],
      ['2001:10::', 28, 'ipv6'],
      ['2001:20::', 27, 'ipv6'],
      ['2001:40::', 26, 'ipv6'],
      ['2001:80::', 25, 'ipv6'],
      ['2001:100::', 24, 'ipv6'],
    ],
  },
];

/** An address as a number: 32 bits for IPv4, 128 for IPv6. */
interface Bits {
  family: 'ipv4' | 'ipv6';
  value: bigint;
}

/** A dotted quad (already checked by `isIP`) as a 32-bit number. */
function ipv4Bits(address: string): bigint {
  return address.split('.').reduce((value, part) => (value << 8n) | BigInt(Number(part)), 0n);
}

/** An IPv4 address written as a dotted quad. */
function ipv4Text(value: bigint): string {
  return [24n, 16n, 8n, 0n].map((shift) => String((value >> shift) & 0xffn)).join('.');
}

/**
 * An IPv6 address (already checked by `isIP`) as a 128-bit number: `::` expanded, a
 * trailing dotted quad (`::ffff:127.0.0.1`) read as the last 32 bits, a zone (`%eth0`)
 * dropped.
 */
function ipv6Bits(address: string): bigint {
  let text = address.replace(/%.*$/, '');
  const quad = /(\d+\.\d+\.\d+\.\d+)$/.exec(text)?.[1];
  if (quad !== undefined) {
    const low = ipv4Bits(quad);
    text = `${text.slice(0, -quad.length)}${(low >> 16n).toString(16)}:${(low & 0xffffn).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const before = groups(head);
  const after = tail === undefined ? [] : groups(tail);
  const zeros = Array<string>(8 - before.length - after.length).fill('0');
  return [...before, ...zeros, ...after].reduce(
    (value, group) => (value << 16n) | BigInt(Number.parseInt(group, 16)),
    0n,
  );
}

/** `address` as {@link Bits}, or undefined when it is not an IP address. */
function bitsOf(address: string): Bits | undefined {
  const family = isIP(address);
  if (family === 4) return { family: 'ipv4', value: ipv4Bits(address) };
  if (family === 6) return { family: 'ipv6', value: ipv6Bits(address) };
  return undefined;
}

/** A subnet as numbers: its network and its prefix length. */
interface Subnet {
  family: 'ipv4' | 'ipv6';
  network: bigint;
  prefix: number;
}

function subnetOf(network: string, prefix: number, family: 'ipv4' | 'ipv6'): Subnet {
  return { family, network: family === 'ipv4' ? ipv4Bits(network) : ipv6Bits(network), prefix };
}

/** Whether `bits` is inside `subnet`. */
function inSubnet(bits: Bits, subnet: Subnet): boolean {
  if (bits.family !== subnet.family) return false;
  const shift = BigInt((bits.family === 'ipv4' ? 32 : 128) - subnet.prefix);
  return bits.value >> shift === subnet.network >> shift;
}

const REFUSED_SUBNETS: readonly { name: string; subnets: readonly Subnet[] }[] = REFUSED_RANGES.map(
  ({ name, subnets }) => ({
    name,
    subnets: subnets.map(([network, prefix, family]) => subnetOf(network, prefix, family)),
  }),
);

/** An IPv4 address an IPv6 form embeds, and its role in the form (`client` of Teredo). */
interface Embedded {
  ipv4: bigint;
  role?: string;
}

/**
 * An IPv6 form that carries an IPv4 address: a packet to it reaches (or is tunnelled
 * to) that IPv4 address, so it is judged as that address, public or refused.
 */
interface EmbeddingForm {
  /** What the form is called in a refusal: `… (the 6to4 form of 127.0.0.1)`. */
  name: string;
  subnet: Subnet;
  /** The IPv4 addresses a packet to the IPv6 address `value` may reach. */
  embedded: (value: bigint) => readonly Embedded[];
}

const LOW_32 = (value: bigint): bigint => value & 0xffff_ffffn;

/**
 * The forms that embed an IPv4 address, judged as that address. Each is sound to judge
 * so, since the address is where a packet to the form goes:
 *
 * - IPv4-mapped `::ffff:0:0/96`: a dual-stack socket connects to the IPv4 address.
 * - IPv4-translated `::ffff:0:0:0/96` (SIIT, RFC 7915): a stateless translator does.
 * - IPv4-compatible `::/96` (deprecated, RFC 4291; `::` and `::1` are refused above as
 *   themselves): old stacks tunnel it to the IPv4 address.
 * - NAT64 `64:ff9b::/96` (RFC 6052): the translator connects to the IPv4 address in its
 *   last 32 bits. A public one is taken: it is what DNS64 answers for every IPv4-only
 *   host on an IPv6-only network, and refusing the block would refuse every receiver
 *   there. RFC 6052 forbids the prefix for non-global IPv4 addresses, but a translator
 *   that forwards them anyway would reach 169.254.169.254: refused as that address.
 * - 6to4 `2002::/16` (RFC 3056): tunnelled to the IPv4 address in bits 16 to 48.
 * - Teredo `2001::/32` (RFC 4380): tunnelled through the Teredo server (bits 32 to 64)
 *   to the client's address (the last 32 bits, inverted); refused when either is.
 *
 * What no check of the address can see: a NAT64 prefix a network chose for itself (a
 * network-specific prefix, RFC 6052), which looks like any global address. On such a
 * network, the translator's own rules must keep it from private IPv4 destinations.
 */
const EMBEDDING_FORMS: readonly EmbeddingForm[] = [
  {
    name: 'IPv4-mapped',
    subnet: subnetOf('::ffff:0:0', 96, 'ipv6'),
    embedded: (value) => [{ ipv4: LOW_32(value) }],
  },
  {
    name: 'IPv4-translated',
    subnet: subnetOf('::ffff:0:0:0', 96, 'ipv6'),
    embedded: (value) => [{ ipv4: LOW_32(value) }],
  },
  {
    name: 'IPv4-compatible',
    subnet: subnetOf('::', 96, 'ipv6'),
    embedded: (value) => [{ ipv4: LOW_32(value) }],
  },
  {
    name: 'NAT64',
    subnet: subnetOf('64:ff9b::', 96, 'ipv6'),
    embedded: (value) => [{ ipv4: LOW_32(value) }],
  },
  {
    name: '6to4',
    subnet: subnetOf('2002::', 16, 'ipv6'),
    embedded: (value) => [{ ipv4: LOW_32(value >> 80n) }],
  },
  {
    name: 'Teredo',
    subnet: subnetOf('2001::', 32, 'ipv6'),
    embedded: (value) => [
      { ipv4: LOW_32(value >> 64n), role: 'server' },
      { ipv4: LOW_32(value) ^ 0xffff_ffffn, role: 'client' },
    ],
  },
];

/**
 * IPv6's global unicast space (RFC 4291): IANA allocates nothing outside 2000::/3 for
 * unicast, so every other address not named above (the rest of `::/8`, `100::/8`,
 * `4000::/3`, …) is reserved.
 */
const GLOBAL_UNICAST = subnetOf('2000::', 3, 'ipv6');

/** Names that mean this machine whatever DNS says (RFC 6761). */
const LOCALHOST_NAME = /(^|\.)localhost\.?$/i;

const lookupAll: HostResolver = (hostname) => lookup(hostname, { all: true, verbatim: true });

/** The name of the refused range `bits` is in, or undefined (the embedded forms aside). */
function refusedRangeOfBits(bits: Bits): string | undefined {
  return REFUSED_SUBNETS.find(({ subnets }) => subnets.some((subnet) => inSubnet(bits, subnet)))
    ?.name;
}

/**
 * What kind of refused address `address` is, or undefined for a public one. In this
 * order: the named ranges (so that `::` and `::1` are themselves, not IPv4-compatible
 * forms), then the embedding forms, then whatever IPv6 is left outside 2000::/3.
 */
function refusedRangeOf(address: string): string | undefined {
  const bits = bitsOf(address);
  if (bits === undefined) return 'not an IP address';
  const range = refusedRangeOfBits(bits);
  if (range !== undefined || bits.family === 'ipv4') return range;
  const form = EMBEDDING_FORMS.find(({ subnet }) => inSubnet(bits, subnet));
  if (form) {
    for (const { ipv4, role } of form.embedded(bits.value)) {
      const refused = refusedRangeOfBits({ family: 'ipv4', value: ipv4 });
      const of = `${role === undefined ? '' : `${role} `}${ipv4Text(ipv4)}`;
      if (refused !== undefined) return `${refused} (the ${form.name} form of ${of})`;
    }
    return undefined;
  }
  if (!inSubnet(bits, GLOBAL_UNICAST)) {
    return 'a reserved address (outside 2000::/3, the only IPv6 unicast space in use)';
  }
  return undefined;
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
 * private, unique local, site-local, link-local (cloud metadata), carrier-grade NAT,
 * unspecified, multicast, documentation, benchmarking, discard, reserved and network
 * service anycast addresses (IANA's special-purpose registries) are refused, and so
 * are `localhost` names and hosts that do not resolve. An IPv6 address embedding an
 * IPv4 one (IPv4-mapped, IPv4-compatible, NAT64, 6to4, Teredo) is judged as that IPv4
 * address; a local-use NAT64 address (`64:ff9b:1::/48`) is refused whole.
 *
 * @example
 * ```ts
 * import { refusedAddress } from './address-check.js';
 *
 * await refusedAddress('https://hooks.example.org/adis', false); // undefined (if it resolves to public addresses)
 * await refusedAddress('http://169.254.169.254/latest', false);
 * // 'http://169.254.169.254/latest: 169.254.169.254 is a link-local address'
 * await refusedAddress('http://[64:ff9b::a9fe:a9fe]/', false);
 * // 'http://[64:ff9b::a9fe:a9fe]/: 64:ff9b::a9fe:a9fe is a link-local address (the NAT64 form of 169.254.169.254)'
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
