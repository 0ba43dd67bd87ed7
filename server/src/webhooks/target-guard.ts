// SSRF protection: a webhook may only target public addresses, checked after DNS resolution (WEBHOOK_ALLOW_PRIVATE lifts it),
// and delivered to the very address that was checked (a name that answers differently the second time gains nothing).
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ValidationError } from '@lumibase/shared';

const BLOCKED = new BlockList();
for (const [network, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv4');
}
for (const [network, prefix] of [
  // IPv4-compatible (::a.b.c.d, so [::127.0.0.1]), unspecified and loopback alike.
  ['::', 96],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  // NAT64, 6to4 and Teredo carry an IPv4 address a gateway may reach on the inside.
  ['64:ff9b::', 96],
  ['64:ff9b:1::', 48],
  ['2002::', 16],
  ['2001::', 32],
] as const) {
  BLOCKED.addSubnet(network, prefix, 'ipv6');
}

/** Loopback, private, link-local, CGNAT, multicast, unspecified — IPv4-mapped IPv6 judged as its IPv4 address. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return BLOCKED.check(mapped, 'ipv4');
  const family = isIP(address);
  if (family === 4) return BLOCKED.check(address, 'ipv4');
  if (family === 6) return BLOCKED.check(address, 'ipv6');
  return true;
}

export type Lookup = (hostname: string) => Promise<{ address: string }[]>;

const systemLookup: Lookup = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/** The error code of a delivery refused at connect time. */
export const PRIVATE_TARGET = 'EPRIVATETARGET';

/** The refusal of a target that is (or now resolves to) a loopback or private address. */
export class PrivateTargetError extends ValidationError {
  constructor() {
    super({
      message: 'Webhook URLs must not point at loopback or private addresses',
      details: [{ path: 'url', message: 'Resolves to a loopback or private address' }],
    });
  }
}

/**
 * Refuses (400) a URL any of whose addresses is not public. Every address counts: a name that
 * resolves to one public and one private address would otherwise be a coin toss away from the inside.
 */
export async function assertPublicTarget(url: string, { allowPrivate, lookup = systemLookup }: { allowPrivate: boolean; lookup?: Lookup }) {
  if (allowPrivate) return;
  const hostname = new URL(url).hostname.replace(/^\[|\]$/g, '');
  let addresses: string[];
  try {
    addresses = isIP(hostname) ? [hostname] : (await lookup(hostname)).map((entry) => entry.address);
  } catch {
    throw new ValidationError({ message: 'The webhook URL does not resolve', details: [{ path: 'url', message: 'Does not resolve' }] });
  }
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) throw new PrivateTargetError();
}

/**
 * A `lookup` for the socket that delivers (net.connect calls it for a host name, never for an IP
 * literal): it resolves once, refuses the connection when any address is private, and hands the
 * socket exactly the addresses it checked. Checking in one lookup and connecting after another is
 * the DNS-rebinding hole.
 */
export function guardedLookup(lookup: Lookup = systemLookup): LookupFunction {
  return (hostname, options, callback) => {
    const family = options.family === 'IPv4' ? 4 : options.family === 'IPv6' ? 6 : (options.family ?? 0);
    lookup(hostname).then(
      (entries) => {
        const addresses = entries
          .map((entry) => ({ address: entry.address, family: isIP(entry.address) }))
          .filter((entry) => family === 0 || entry.family === family);
        if (addresses.length === 0 || addresses.some((entry) => isPrivateAddress(entry.address))) {
          callback(Object.assign(new PrivateTargetError(), { code: PRIVATE_TARGET }), '');
        } else if (options.all) {
          callback(null, addresses);
        } else {
          callback(null, addresses[0]!.address, addresses[0]!.family);
        }
      },
      (error: NodeJS.ErrnoException) => callback(error, ''),
    );
  };
}
