import type { Database } from '@sendwell/db';
import { UserRepository } from '../src/repositories/user.repository.js';
import { PasswordHasher } from '../src/services/password-hasher.js';

const hasher = new PasswordHasher();
let counter = 0;

/** Rows made through the real repositories, for arranging a test without going through the API. */
export function factory(db: Database) {
  return {
    async user(overrides: { email?: string; username?: string; password?: string } = {}) {
      counter += 1;
      const id = `${Date.now().toString(36)}f${counter}`;
      const password = overrides.password ?? 'factory-pass';
      const row = await new UserRepository(db).create({
        username: overrides.username ?? `made_${id}`,
        email: (overrides.email ?? `made${id}@example.com`).toLowerCase(),
        passwordHash: await hasher.hash(password),
        firstName: null,
        lastName: null,
        signupSource: 'direct',
        quickCheckDomain: null,
        showUpgradeNotification: false,
        emailVerificationToken: null,
        emailVerificationExpires: null,
      });
      return { ...row, password };
    },
  };
}
