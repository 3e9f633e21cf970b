/**
 * What the manifests are checked against, taken from the code rather than restated: each service's
 * own settings schema (`src/env.ts`, the one place a service reads its environment) decides its
 * port, where its health routes answer, and whether the environment a Deployment gives it would
 * let it start with NODE_ENV=production. Imported by path, as bench/ does (the scanner's package
 * exports only its testing entry); package.json lists the services so turbo orders and re-runs this
 * package's tasks when they change.
 */
import { loadEnv as loadAuthEnv } from '../../../services/auth/src/env.js';
import { loadEnv as loadBillingEnv } from '../../../services/billing/src/env.js';
import { loadEnv as loadDomainsEnv } from '../../../services/domains/src/env.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv as loadGatewayEnv } from '../../../services/gateway/src/env.js';
import { loadEnv as loadIntakeEnv } from '../../../services/intake/src/env.js';
import { loadEnv as loadReportsEnv } from '../../../services/reports/src/env.js';
import { loadEnv as loadScannerEnv } from '../../../services/scanner/src/env.js';

export type EnvSource = Record<string, string | undefined>;

/** The settings the checks need from a parsed environment. */
export interface ServiceSettings {
  HOST: string;
  PORT: number;
  QUEUE_PREFIX: string;
  NODE_ENV: string;
  /** Where `/health/ready` answers: the gateway's internal listener, every other service's PORT. */
  readyPort: number;
  /** The address `/health/ready` listens on. */
  readyHost: string;
  /** A second, non-HTTP listener (the intake's SMTP): reached from outside through a load balancer. */
  smtp?: { host: string; port: number };
  /** Files the service reads at start (the intake's STARTTLS PEM files): they must be mounted. */
  files?: { setting: string; path: string }[];
}

export interface ServiceSpec {
  name: string;
  /**
   * The Deployments that open connections to this service's PORT, the only pods its NetworkPolicy may
   * admit (network-policies.ts). The gateway's callers are the Ingress controller's, outside the namespace.
   */
  callers: string[];
  /** Parses an environment the way the service does at start (throws naming a bad setting). */
  settings(env: EnvSource): ServiceSettings;
}

const plain = (load: (env: EnvSource) => { HOST: string; PORT: number; QUEUE_PREFIX: string; NODE_ENV: string }) => (env: EnvSource): ServiceSettings => {
  const parsed = load(env);
  return { HOST: parsed.HOST, PORT: parsed.PORT, QUEUE_PREFIX: parsed.QUEUE_PREFIX, NODE_ENV: parsed.NODE_ENV, readyPort: parsed.PORT, readyHost: parsed.HOST };
};

/**
 * Settings naming files the service reads while parsing its environment: the paths the manifests give
 * exist only in the pod (a mounted Secret), so the parser is handed a stand-in file in their place and
 * the real paths are returned for the mount check (policy.ts).
 */
const FILE_SETTINGS = ['INTAKE_TLS_CERT_FILE', 'INTAKE_TLS_KEY_FILE'];
let standInFile: string | undefined;
function withStandInFiles(env: EnvSource): { env: EnvSource; files: { setting: string; path: string }[] } {
  const files = FILE_SETTINGS.filter((setting) => env[setting]).map((setting) => ({ setting, path: env[setting]! }));
  if (files.length === 0) return { env, files };
  if (!standInFile) {
    standInFile = join(mkdtempSync(join(tmpdir(), 'sendwell-k8s-files-')), 'stand-in.pem');
    writeFileSync(standInFile, '-----BEGIN STAND-IN-----\n-----END STAND-IN-----\n');
  }
  return { env: { ...env, ...Object.fromEntries(files.map((f) => [f.setting, standInFile])) }, files };
}

/** Every service of the README's table; each must have a Deployment and a Service of its name. */
export const SERVICES: ServiceSpec[] = [
  {
    name: 'gateway',
    callers: [],
    settings(env) {
      const parsed = loadGatewayEnv(env);
      return { HOST: parsed.HOST, PORT: parsed.PORT, QUEUE_PREFIX: parsed.QUEUE_PREFIX, NODE_ENV: parsed.NODE_ENV, readyPort: parsed.INTERNAL_PORT, readyHost: parsed.INTERNAL_HOST };
    },
  },
  { name: 'auth', callers: ['gateway'], settings: plain(loadAuthEnv) },
  { name: 'domains', callers: ['gateway'], settings: plain(loadDomainsEnv) },
  // Auth ends an account's billing before deleting it (BILLING_URL).
  { name: 'billing', callers: ['gateway', 'auth'], settings: plain(loadBillingEnv) },
  { name: 'reports', callers: ['gateway'], settings: plain(loadReportsEnv) },
  // The gateway reads the block lists' self-tests for the statistics page.
  { name: 'scanner', callers: ['gateway'], settings: plain(loadScannerEnv) },
  // The gateway forwards the report-address, mail-flow and TLS-RPT calls; SMTP (its second listener)
  // comes from the Internet through the `intake-smtp` load balancer.
  {
    name: 'intake',
    callers: ['gateway'],
    settings(env) {
      const { env: parsable, files } = withStandInFiles(env);
      const parsed = loadIntakeEnv(parsable);
      return {
        HOST: parsed.HOST,
        PORT: parsed.PORT,
        QUEUE_PREFIX: parsed.QUEUE_PREFIX,
        NODE_ENV: parsed.NODE_ENV,
        readyPort: parsed.PORT,
        readyHost: parsed.HOST,
        smtp: { host: parsed.INTAKE_SMTP_HOST, port: parsed.INTAKE_SMTP_PORT },
        files,
      };
    },
  },
];

/** The port the intake's SMTP load balancer listens on (the MX's port: senders connect to 25). */
export const SMTP_PUBLIC_PORT = 25;

/**
 * The keys of the Secret `sendwell-secrets`, which is created outside this repository
 * (infra/k8s/README.md), with a well-formed stand-in for each: the checks start each service's
 * settings parser with them. A secretKeyRef to a key not listed here is an error, so this list is
 * the Secret's documentation as well.
 */
export const SECRET_NAME = 'sendwell-secrets';
export const SECRET_STAND_INS: Record<string, string> = {
  JWT_SECRET: 'stand-in-secret-of-at-least-thirty-two-characters',
  DATABASE_URL: 'postgres://sendwell:stand-in@postgres.internal.example:5432/sendwell',
  REDIS_URL: 'redis://:stand-in@redis.internal.example:6379',
  REDIS_ADDRESS: 'redis.internal.example:6379',
  REDIS_PASSWORD: 'stand-in',
  SMTP_URL: 'smtp://sendwell:stand-in@smtp.internal.example:587',
  STRIPE_SECRET_KEY: 'sk_live_standin',
  STRIPE_WEBHOOK_SECRET: 'whsec_standin',
  STRIPE_PUBLISHABLE_KEY: 'pk_live_standin',
  INTEGRATIONS_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
  DNSBL_IP_ZONES: 'standinkey.zen.dq.spamhaus.net',
  DNSBL_DOMAIN_ZONES: 'standinkey.dbl.dq.spamhaus.net',
};

/** What the downward API gives a pod (fieldRef), as stand-ins. */
export const FIELD_STAND_INS: Record<string, string> = {
  'status.hostIP': '10.0.0.10',
  'status.podIP': '10.1.0.10',
  'metadata.name': 'pod-0',
  'metadata.namespace': 'sendwell',
  'spec.nodeName': 'node-0',
};
