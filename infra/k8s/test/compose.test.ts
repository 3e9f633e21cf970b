import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { interpolate, MissingVariableError, readCompose, requiredVariables, serviceEnvironment } from '../lib/compose.js';
import { SECRET_STAND_INS, SERVICES } from '../lib/services.js';

/**
 * `docker compose` in production: infra/docker-compose.yml plus infra/docker-compose.production.yml.
 * No Docker engine runs in CI, so the files are read with a YAML parser and Compose's interpolation
 * (lib/compose.ts), and each service's own settings parser decides what production requires.
 */
const path = (name: string) => fileURLToPath(new URL(`../../${name}`, import.meta.url));
const base = readCompose(path('docker-compose.yml'));
const production = readCompose(path('docker-compose.production.yml'));
const environment = (service: string) => serviceEnvironment([base, production], service);

/** The settings a service refuses to start without in production, from its own parser's complaint. */
function requiredInProduction(service: (typeof SERVICES)[number]): string[] {
  try {
    service.settings({ NODE_ENV: 'production' });
    return [];
  } catch (error) {
    return [...(error as Error).message.matchAll(/(?:: |; )([A-Z][A-Z0-9_]*): /g)].map((m) => m[1]!);
  }
}

/** The development key's complaint names the single-key setting; compose requires the rotating list instead. */
const REQUIRED_AS: Record<string, string> = { INTEGRATIONS_ENCRYPTION_KEY: 'INTEGRATIONS_ENCRYPTION_KEYS' };
const SECRET_NAME = /SECRET|PASSWORD|KEY|_URL$/;

/** A value for every variable the production file requires, as an operator's env file would give them. */
const GIVEN: Record<string, string> = {
  JWT_SECRET: SECRET_STAND_INS.JWT_SECRET!,
  SMTP_URL: SECRET_STAND_INS.SMTP_URL!,
  STRIPE_SECRET_KEY: SECRET_STAND_INS.STRIPE_SECRET_KEY!,
  STRIPE_WEBHOOK_SECRET: SECRET_STAND_INS.STRIPE_WEBHOOK_SECRET!,
  STRIPE_PUBLISHABLE_KEY: SECRET_STAND_INS.STRIPE_PUBLISHABLE_KEY!,
  INTEGRATIONS_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 9).toString('base64')}`,
  POSTGRES_PASSWORD: 'c0ffee',
  REDIS_PASSWORD: 'beef',
  GATEWAY_TRUSTED_PROXIES: '192.0.2.10',
  APP_URL: 'https://sendwell.example.com',
  SCAN_HELO_NAME: 'scanner.sendwell.example.com',
  INTAKE_DOMAIN: 'reports.sendwell.example.com',
};

const allRequired = [...new Set(Object.values(production.services ?? {}).flatMap((s) => Object.values(s.environment ?? {}).flatMap((v) => requiredVariables(String(v)))).map((r) => r.variable))];

describe('docker compose in production', () => {
  it('requires, with :?, every setting each service refuses to start without, and writes no secret', () => {
    for (const service of SERVICES) {
      const env = environment(service.name);
      const required = requiredInProduction(service).map((name) => REQUIRED_AS[name] ?? name);
      expect(required, service.name).toContain('JWT_SECRET');
      for (const name of required) {
        const value = env[name];
        expect(value, `${service.name}: ${name}`).toBeDefined();
        if (SECRET_NAME.test(name) || value!.includes('$')) {
          expect(value, `${service.name}: ${name} must be \${${name}:?…}`).toMatch(/^\$\{\w+:\?[^}]+\}$/);
        }
      }
    }
  });

  it('names each required variable and says what it is', () => {
    expect(allRequired.sort()).toEqual(Object.keys(GIVEN).sort());
    for (const service of Object.values(production.services ?? {})) {
      for (const value of Object.values(service.environment ?? {})) {
        for (const { variable, message } of requiredVariables(String(value))) expect(message).toMatch(new RegExp(`^${variable} is required: \\S.{10,}`));
      }
    }
  });

  it('starts every service once each is given: its settings parser accepts the environment compose builds', () => {
    for (const service of SERVICES) {
      const env = Object.fromEntries(Object.entries(environment(service.name)).map(([k, v]) => [k, interpolate(v, GIVEN)]));
      expect(() => service.settings(env), service.name).not.toThrow();
      expect(env.DATABASE_URL).toBe('postgres://postgres:c0ffee@postgres:5432/sendwell');
    }
    expect(interpolate(environment('migrate').DATABASE_URL!, GIVEN)).toBe('postgres://postgres:c0ffee@postgres:5432/sendwell');
  });

  it('refuses to start without any one of them, naming it', () => {
    const everyValue = [...SERVICES.map((s) => s.name), 'postgres', 'redis', 'migrate'].flatMap((s) => Object.values(environment(s)));
    for (const missing of allRequired) {
      const without = { ...GIVEN, [missing]: '' };
      const refusals = everyValue.flatMap((value) => {
        try {
          interpolate(value, without);
          return [];
        } catch (error) {
          return error instanceof MissingVariableError ? [error.message] : [];
        }
      });
      expect(refusals.length, missing).toBeGreaterThan(0);
      for (const refusal of refusals) expect(refusal).toMatch(new RegExp(`^required variable ${missing} is missing a value: ${missing} is required: `));
    }
  });

  it('runs the intake from its image target, SMTP published, and routes the gateway to it', () => {
    type Full = { services: Record<string, { build?: { target?: string }; ports?: string[]; depends_on?: Record<string, unknown> }> };
    const full = base as unknown as Full;
    expect(full.services.intake?.build?.target).toBe('intake');
    expect(full.services.intake?.ports).toEqual(['${INTAKE_SMTP_PORT:-2500}:2500']);
    expect(interpolate(full.services.intake!.ports![0]!, { INTAKE_SMTP_PORT: '25' })).toBe('25:2500');
    expect(Object.keys(full.services.gateway?.depends_on ?? {})).toContain('intake');
    expect(environment('gateway').INTAKE_URL).toBe('http://intake:3006');
    const intake = Object.fromEntries(Object.entries(environment('intake')).map(([k, v]) => [k, interpolate(v, GIVEN)]));
    const settings = SERVICES.find((s) => s.name === 'intake')!.settings(intake);
    expect(settings.PORT).toBe(3006);
    expect(settings.smtp).toEqual({ host: '0.0.0.0', port: 2500 });
    expect(intake.INTAKE_PUBLIC_URL).toBe(GIVEN.APP_URL);
    // The scanner recommends addresses at the same report domain the intake receives for.
    expect(interpolate(environment('scanner').INTAKE_DOMAIN!, GIVEN)).toBe(intake.INTAKE_DOMAIN);
  });

  it('leaves the base file free of :? so `pnpm start` can run its Postgres and Redis with no secrets', () => {
    expect(readFileSync(path('docker-compose.yml'), 'utf8')).not.toContain(':?');
  });

  it('reads Compose interpolation as Compose does', () => {
    expect(interpolate('a-${X:-dflt}-$${Y}-${Z}', { X: '', Z: 'z' })).toBe('a-dflt-${Y}-z');
    expect(() => interpolate('${X:?X is required: a thing}', {})).toThrowError('required variable X is missing a value: X is required: a thing');
  });
});
