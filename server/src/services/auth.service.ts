// Sign-in, sessions and sign-out: the only code that issues or revokes a session.
import { type SiteAccess, UnauthenticatedError, type UserView } from '@lumibase/shared';
import type { LoginLimiter } from '../security/login-limiter.js';
import type { PasswordHasher } from '../security/password-hasher.js';
import { generateSessionToken, hashSessionToken } from '../security/session-token.js';
import type { Stores } from '../store/stores.js';
import type { DomainEvents } from './domain-events.js';
import { LearnedUnderEpoch } from '../store/learned-under-epoch.js';
import type { SiteAccessService } from './site-access.service.js';

export interface AuthServiceOptions {
  stores: Pick<Stores, 'users' | 'sessions' | 'accessEpochs'>;
  access: SiteAccessService;
  hasher: PasswordHasher;
  limiter: LoginLimiter;
  events: DomainEvents;
  sessionTtlHours: number;
  now?: () => Date;
}

export interface LoginResult {
  token: string;
  expiresAt: string;
  user: UserView;
  sites: SiteAccess[];
}

export interface Authenticated {
  user: UserView;
  sessionId: string;
  expiresAt: Date;
  /** The access epoch this was checked under: what else the request resolves (its site) is trusted under it too. */
  epoch: string;
}

export class AuthService {
  private readonly now: () => Date;
  /** Sessions and their users by token hash, as last read (a request under the same epoch needs no other read). */
  private readonly learned = new LearnedUnderEpoch<Omit<Authenticated, 'epoch'>>();

  constructor(private readonly options: AuthServiceOptions) {
    this.now = options.now ?? (() => new Date());
  }

  /**
   * `address` is the client's IP: attempts are limited per email and per address, reserved before the
   * password is hashed (so concurrent guesses cannot all pass the check) and given back on success.
   */
  async login({ email, password, address }: { email: string; password: string; address: string }): Promise<LoginResult> {
    const { stores, hasher, limiter } = this.options;
    const reserved = await limiter.reserve({ email, address });

    let credentials: Awaited<ReturnType<typeof stores.users.findCredentials>>;
    let valid: boolean;
    try {
      credentials = await stores.users.findCredentials(email);
      // An unknown email costs the same hashing time as a wrong password: timing tells nothing.
      if (!credentials) await hasher.burn(password);
      valid = credentials ? await hasher.verify(password, credentials.passwordHash) : false;
    } catch (error) {
      // Never checked (too many hashes at once, the database away): the attempt does not count.
      await reserved.release();
      throw error;
    }
    if (!credentials || !valid) throw new UnauthenticatedError({ message: 'Invalid email or password' });
    await reserved.release();

    const token = generateSessionToken();
    const expiresAt = new Date(this.now().getTime() + this.options.sessionTtlHours * 3_600_000);
    await stores.sessions.create({ tokenHash: hashSessionToken(token), userId: credentials.user.id, expiresAt });
    const sites = await this.options.access.sitesOf(credentials.user);
    return { token, expiresAt: expiresAt.toISOString(), user: credentials.user, sites };
  }

  /** The session and user a token stands for; UnauthenticatedError when it is unknown, expired or its user is gone. */
  async authenticate(token: string): Promise<Authenticated> {
    const { stores } = this.options;
    if (!token) throw new UnauthenticatedError({ message: 'Invalid or expired session' });
    const tokenHash = hashSessionToken(token);
    // Read first: the session and user below are read after it, so a revocation between them moves it.
    const epoch = await stores.accessEpochs.current();
    const now = this.now();
    const known = this.learned.get(tokenHash, epoch);
    if (known && known.expiresAt > now) return { ...known, epoch };
    const session = await stores.sessions.findActive(tokenHash, now);
    const user = session ? await stores.users.findById(session.userId) : null;
    if (!session || !user) throw new UnauthenticatedError({ message: 'Invalid or expired session' });
    const authenticated = { user, sessionId: session.id, expiresAt: session.expiresAt };
    this.learned.set(tokenHash, epoch, authenticated);
    return { ...authenticated, epoch };
  }

  async logout({ sessionId, userId }: { sessionId: string; userId: string }): Promise<void> {
    await this.options.stores.sessions.delete(sessionId);
    this.options.events.emit('session-revoked', { sessionId, userId });
  }

  async me(user: UserView): Promise<{ user: UserView; sites: SiteAccess[] }> {
    return { user, sites: await this.options.access.sitesOf(user) };
  }
}
