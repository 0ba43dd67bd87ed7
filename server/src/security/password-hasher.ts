// scrypt password hashes with a per-user salt, in a self-describing string so parameters can change later.
import { randomBytes, type ScryptOptions, scrypt, timingSafeEqual } from 'node:crypto';
import { RateLimitedError } from '@lumibase/shared';
import { BoundedConcurrency } from './bounded-concurrency.js';

const PREFIX = 'scrypt';
const KEY_LENGTH = 64;
const SALT_BYTES = 16;
/** N=2^15, r=8, p=1: OWASP's minimum for scrypt; about 50 ms and 32 MiB per hash. */
const DEFAULT_PARAMETERS = { N: 2 ** 15, r: 8, p: 1 } as const;

function derive(password: string, salt: Buffer, parameters: { N: number; r: number; p: number }): Promise<Buffer> {
  const options: ScryptOptions = { ...parameters, maxmem: 128 * parameters.N * parameters.r * 2 };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** Parameters scrypt accepts and this process can afford (N a power of two up to 2^20). */
function readableParameters({ N, r, p }: { N: number; r: number; p: number }): boolean {
  const small = (value: number) => Number.isInteger(value) && value >= 1 && value <= 16;
  return Number.isInteger(N) && N >= 2 && N <= 2 ** 20 && (N & (N - 1)) === 0 && small(r) && small(p);
}

/**
 * scrypt runs on libuv's thread pool (4 threads), which the embedded MongoDB's journal and every
 * file read share: 40 sign-ins at once filled it and slowed unrelated writes from 0.1 to 1.9 s.
 * Two hashes run at once, a few more wait, and beyond that a request is refused with a Retry-After.
 */
const HASHES_RUNNING = 2;
const HASHES_WAITING = 16;

export class PasswordHasher {
  private readonly slots = new BoundedConcurrency({
    running: HASHES_RUNNING,
    waiting: HASHES_WAITING,
    refusal: () => new RateLimitedError({ message: 'Too many sign-ins at once; try again shortly', retryAfterSeconds: 1 }),
  });

  constructor(private readonly parameters: { N: number; r: number; p: number } = DEFAULT_PARAMETERS) {}

  private derive(password: string, salt: Buffer, parameters: { N: number; r: number; p: number }): Promise<Buffer> {
    return this.slots.run(() => derive(password, salt, parameters));
  }

  /** `scrypt$N$r$p$<salt base64>$<key base64>` */
  async hash(password: string): Promise<string> {
    const salt = randomBytes(SALT_BYTES);
    const key = await this.derive(password, salt, this.parameters);
    const { N, r, p } = this.parameters;
    return [PREFIX, N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  /** Constant-time comparison; false (never an exception) for a hash it cannot read. */
  async verify(password: string, stored: string): Promise<boolean> {
    const [prefix, n, r, p, salt, key] = stored.split('$');
    const parameters = { N: Number(n), r: Number(r), p: Number(p) };
    if (prefix !== PREFIX || !salt || !key || !readableParameters(parameters)) return false;
    const expected = Buffer.from(key, 'base64');
    if (expected.length !== KEY_LENGTH) return false;
    const actual = await this.derive(password, Buffer.from(salt, 'base64'), parameters);
    return timingSafeEqual(actual, expected);
  }

  /**
   * Spends the time of one verification: a login for an unknown email does this, so response time
   * does not tell which emails have accounts.
   */
  async burn(password: string): Promise<void> {
    await this.derive(password, randomBytes(SALT_BYTES), this.parameters);
  }
}
