// First start: make sure someone can sign in. Runs on every start and does nothing once a user exists.
import { ConflictError } from '@lumibase/shared';
import type { PasswordHasher } from '../security/password-hasher.js';
import { generatePassword } from '../security/session-token.js';
import type { UserStore } from '../store/user.store.js';

export interface BootstrapSuperadminOptions {
  users: UserStore;
  hasher: PasswordHasher;
  email: string;
  /** Unset: a password is generated and printed once. */
  password?: string | undefined;
  /** Where the generated credentials go: stdout, never the JSON log (log pipelines keep lines forever). */
  print?: (line: string) => void;
}

export type BootstrapResult = { created: false } | { created: true; email: string; generatedPassword: boolean };

/**
 * Creates the superadmin when there is no user at all. Existing users, the first admin included,
 * are never changed by these settings. Two processes starting at once on an empty database race
 * on the unique email: the loser finds the winner's account and does nothing.
 */
export async function bootstrapSuperadmin(options: BootstrapSuperadminOptions): Promise<BootstrapResult> {
  const { users, hasher, print = (line) => process.stdout.write(`${line}\n`) } = options;
  if ((await users.count()) > 0) return { created: false };
  const email = options.email.trim().toLowerCase();
  const password = options.password ?? generatePassword();
  try {
    await users.create({ email, name: 'Administrator', passwordHash: await hasher.hash(password), isSuperadmin: true });
  } catch (error) {
    if (error instanceof ConflictError) return { created: false };
    throw error;
  }
  if (options.password === undefined) print(`LumiBase admin: ${email} ${password}`);
  return { created: true, email, generatedPassword: options.password === undefined };
}
