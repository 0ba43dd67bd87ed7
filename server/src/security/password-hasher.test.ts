// scrypt hashing: per-user salt, verification, and refusal of anything it cannot read.
import { describe, expect, it } from 'vitest';
import { PasswordHasher } from './password-hasher.js';

describe('PasswordHasher', () => {
  const hasher = new PasswordHasher();

  it('verifies the password it hashed, at the production cost, and no other', async () => {
    const stored = await hasher.hash('correct horse');
    expect(stored).toMatch(/^scrypt\$32768\$8\$1\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(stored).not.toContain('correct horse');
    await expect(hasher.verify('correct horse', stored)).resolves.toBe(true);
    await expect(hasher.verify('correct horse ', stored)).resolves.toBe(false);
  });

  it('salts each hash, so equal passwords give different hashes', async () => {
    const cheap = new PasswordHasher({ N: 1024, r: 8, p: 1 });
    const [first, second] = await Promise.all([cheap.hash('same'), cheap.hash('same')]);
    expect(first).not.toBe(second);
    await expect(cheap.verify('same', second)).resolves.toBe(true);
  });

  it('verifies hashes made with other parameters (they travel in the hash)', async () => {
    const stored = await new PasswordHasher({ N: 2048, r: 8, p: 1 }).hash('moved');
    await expect(new PasswordHasher({ N: 1024, r: 8, p: 1 }).verify('moved', stored)).resolves.toBe(true);
  });

  it('answers false, never throws, for a stored value it cannot read', async () => {
    const key = Buffer.alloc(64).toString('base64');
    for (const stored of [
      '',
      'plain',
      'bcrypt$x',
      'scrypt$1024$8$1$c2FsdA==$c2hvcnQ=',
      `scrypt$x$8$1$c2FsdA==$${key}`,
      `scrypt$1000$8$1$c2FsdA==$${key}`,
      `scrypt$1024$8$99$c2FsdA==$${key}`,
    ]) {
      await expect(hasher.verify('x', stored)).resolves.toBe(false);
    }
  });
});
