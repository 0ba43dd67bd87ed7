// Whether a listen address is reachable only from this machine (the CLI's guard against exposing an unauthenticated server).
import { isIP } from 'node:net';

/** Loopback only: 127.0.0.0/8, ::1 (also as ::ffff:127.x.y.z) and the name localhost. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.startsWith('[') && host.endsWith(']') ? host.slice(1, -1) : host;
  if (bare.toLowerCase() === 'localhost') return true;
  if (isIP(bare) === 4) return bare.startsWith('127.');
  if (isIP(bare) === 6) {
    const lower = bare.toLowerCase();
    return lower === '::1' || lower === '0:0:0:0:0:0:0:1' || (lower.startsWith('::ffff:127.') && isIP(lower.slice(7)) === 4);
  }
  return false;
}
