// The one rule for where the session cookie is honoured from: state-changing requests and sockets alike.
import type { IncomingMessage } from 'node:http';
import { BlockList, isIPv4 } from 'node:net';
import type { TLSSocket } from 'node:tls';

/** The proxies whose X-Forwarded-* headers are believed; app.ts gives Express the same setting. */
export const TRUSTED_PROXIES = 'loopback';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

function fromTrustedProxy(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = address.startsWith('::ffff:') ? address.slice('::ffff:'.length) : address;
  return isIPv4(mapped) ? LOOPBACK.check(mapped, 'ipv4') : LOOPBACK.check(address, 'ipv6');
}

/** The origin the client addressed: its scheme (as a trusted proxy reports it) and the Host header. */
export function requestOrigin(request: IncomingMessage): string {
  let scheme = (request.socket as Partial<TLSSocket>).encrypted ? 'https' : 'http';
  const forwarded = request.headers['x-forwarded-proto'];
  if (typeof forwarded === 'string' && forwarded !== '' && fromTrustedProxy(request.socket.remoteAddress)) {
    scheme = forwarded.split(',')[0]!.trim();
  }
  return `${scheme}://${request.headers.host ?? ''}`;
}

/**
 * Browsers attach cookies to cross-site requests and WebSocket handshakes too (SameSite=Lax still
 * sends them from a sibling subdomain or another localhost port). So whatever the cookie alone
 * authenticates must say it comes from the server's own origin or STUDIO_ORIGIN. Bearer tokens are
 * never sent by a browser on its own and need no such check.
 */
export function createTrustedOriginCheck(studioOrigin: string | undefined): (request: IncomingMessage) => boolean {
  const studio = studioOrigin ? new URL(studioOrigin).origin : undefined;
  return (request) => {
    const origin = request.headers.origin;
    if (!origin) return false;
    return origin === requestOrigin(request) || (studio !== undefined && origin === studio);
  };
}
