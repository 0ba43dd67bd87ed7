// SSRF protection: a webhook may only target public addresses, checked after DNS resolution (WEBHOOK_ALLOW_PRIVATE lifts it).
import { lookup as dnsLookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
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
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
  ['64:ff9b::', 96],
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
  if (addresses.length === 0 || addresses.some(isPrivateAddress)) {
    throw new ValidationError({
      message: 'Webhook URLs must not point at loopback or private addresses',
      details: [{ path: 'url', message: 'Resolves to a loopback or private address' }],
    });
  }
}
