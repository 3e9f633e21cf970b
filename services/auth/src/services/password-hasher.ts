import { hash, verify } from '@node-rs/argon2';

/**
 * argon2id (the library's default algorithm) with its defaults of 19 MiB, two passes and one lane,
 * the OWASP minimum for argon2id.
 */
export class PasswordHasher {
  private dummy: Promise<string> | undefined;

  hash(password: string): Promise<string> {
    return hash(password);
  }

  async verify(passwordHash: string, password: string): Promise<boolean> {
    try {
      return await verify(passwordHash, password);
    } catch {
      // A malformed stored hash never matches.
      return false;
    }
  }

  /**
   * Spends the time of one verification when there is no user to check, so an unknown email and a
   * wrong password take about as long and the answer does not tell which it was.
   */
  async verifyNobody(password: string): Promise<false> {
    this.dummy ??= hash('sendwell-dummy-password-for-timing');
    await this.verify(await this.dummy, password);
    return false;
  }
}
