import { createDb, type Database } from '@sendwell/db';
import { closeRedis, createQueues, createRedis, type Logger, type Queues } from '@sendwell/server-kit';
import type { Redis } from 'ioredis';
import type { Env } from './env.js';
import { createMailer, type Mailer } from '@sendwell/server-kit';
import { LoginAttemptRepository } from './repositories/login-attempt.repository.js';
import { AccountService } from './services/account.service.js';
import { AuthService } from './services/auth.service.js';
import { BackgroundTasks } from './services/background-tasks.js';
import { BillingClient } from './services/billing-client.js';
import { LoginThrottle } from './services/login-throttle.js';
import { PasswordHasher } from './services/password-hasher.js';
import { PasswordResetService } from './services/password-reset.service.js';
import { UserService } from './services/user.service.js';

export interface Deps {
  env: Env;
  logger: Logger;
  db: Database;
  mailer: Mailer;
  /** Producer connection (fails fast) and queues: the sign-up domain's job and the login throttle's counters. */
  redis: Redis;
  queues: Queues;
  /** Work answered before it finished (reset mail); shutdown and tests wait for it with `drain()`. */
  background: BackgroundTasks;
  services: {
    auth: AuthService;
    passwordReset: PasswordResetService;
    users: UserService;
    account: AccountService;
  };
  /** Finishes started background work, then closes the mail transport and the pool. */
  close(): Promise<void>;
}

/** All wiring of the service, in one place. */
export function createDeps(env: Env, logger: Logger): Deps {
  const db = createDb({
    connectionString: env.DATABASE_URL,
    max: env.DATABASE_POOL_MAX,
    applicationName: 'sendwell-auth',
    onConnectionError: (err) => logger.warn({ err }, 'database connection lost; the pool opens another'),
  });
  const mailer = createMailer({ smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: env.MAIL_OUTBOX_DIR, logger: logger.child({ module: 'Mailer' }) });
  const background = new BackgroundTasks(logger.child({ module: 'BackgroundTasks' }));
  const hasher = new PasswordHasher();
  const redis = createRedis(env.REDIS_URL, 'producer');
  redis.on('error', (err) => logger.error({ err }, 'redis (producer) error'));
  const queues = createQueues(redis, env.QUEUE_PREFIX, logger);
  const loginThrottle = new LoginThrottle(
    // Under QUEUE_PREFIX (no queue has this name), so every test, bench and e2e stack has keys of its own.
    new LoginAttemptRepository(redis, `${env.QUEUE_PREFIX}:login-throttle`),
    {
      limit: env.LOGIN_FAILURE_LIMIT,
      // Every network the account never signed in from, together: a guesser spread over many is still slowed.
      unknownNetworksLimit: 4 * env.LOGIN_FAILURE_LIMIT,
      windowMs: env.LOGIN_FAILURE_WINDOW,
      baseDelayMs: 1_000,
      maxDelayMs: env.LOGIN_BACKOFF_MAX,
    },
    env.JWT_SECRET,
    logger.child({ module: 'LoginThrottle' }),
  );

  return {
    env,
    logger,
    db,
    mailer,
    redis,
    queues,
    background,
    services: {
      auth: new AuthService(db, mailer, hasher, logger.child({ module: 'AuthService' }), {
        requireEmailVerification: env.REQUIRE_EMAIL_VERIFICATION,
        sessionTtlMs: env.sessionTtlMs,
        appUrl: env.APP_URL,
      }, queues, loginThrottle),
      passwordReset: new PasswordResetService(db, mailer, hasher, background, logger.child({ module: 'PasswordResetService' }), env.APP_URL),
      users: new UserService(db),
      account: new AccountService(
        db,
        hasher,
        loginThrottle,
        new BillingClient(env.BILLING_URL, logger.child({ module: 'BillingClient' })),
        mailer,
        background,
        logger.child({ module: 'AccountService' }),
        { appUrl: env.APP_URL, adminEmail: env.ADMIN_EMAIL },
      ),
    },
    async close() {
      await background.drain();
      mailer.close();
      await queues.close();
      await closeRedis(redis);
      await db.destroy();
    },
  };
}
