/**
 * The start-up decision, kept pure so it can be tested: given which backing servers answer, which
 * URLs the user set, and whether a Docker engine answers, what do we do?
 */

export const COMPOSE_FILE = 'infra/docker-compose.yml';

export type Backing = 'postgres' | 'redis';

export interface BackingState {
  url: string;
  /** The user set the URL (DATABASE_URL / REDIS_URL); we never start a container in its place. */
  explicit: boolean;
  answers: boolean;
}

export interface PreflightInput {
  postgres: BackingState;
  redis: BackingState;
  dockerAnswers: boolean;
}

export type PreflightAction =
  | { kind: 'ready' }
  | { kind: 'start-containers'; services: Backing[]; command: string[] }
  | { kind: 'fail'; message: string };

const LABEL: Record<Backing, { name: string; env: string }> = {
  postgres: { name: 'Postgres', env: 'DATABASE_URL' },
  redis: { name: 'Redis', env: 'REDIS_URL' },
};

/** The Debian way to get each server running, for machines without Docker. */
const DEBIAN: Record<Backing, { pkg: string; start: string }> = {
  postgres: {
    pkg: 'postgresql',
    start: 'pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start   (or: systemctl start postgresql)',
  },
  redis: {
    pkg: 'redis-server',
    start: 'redis-server --daemonize yes --bind 127.0.0.1 --port 6379   (or: systemctl start redis-server)',
  },
};

export function composeUpCommand(services: Backing[]): string[] {
  return ['docker', 'compose', '-f', COMPOSE_FILE, 'up', '-d', '--wait', ...services];
}

export function decidePreflight({ postgres, redis, dockerAnswers }: PreflightInput): PreflightAction {
  const states: [Backing, BackingState][] = [
    ['postgres', postgres],
    ['redis', redis],
  ];
  const missing = states.filter(([, s]) => !s.answers);
  if (missing.length === 0) return { kind: 'ready' };

  const explicitMissing = missing.filter(([, s]) => s.explicit);
  if (explicitMissing.length === 0 && dockerAnswers) {
    const services = missing.map(([b]) => b);
    return { kind: 'start-containers', services, command: composeUpCommand(services) };
  }

  const lines = missing.map(([b, s]) => `  - ${LABEL[b].name} does not answer at ${redactUrl(s.url)}${s.explicit ? ` (from ${LABEL[b].env})` : ''}`);
  const advice: string[] = [];
  for (const [b] of explicitMissing) {
    advice.push(`Start the ${LABEL[b].name} server that ${LABEL[b].env} names, or unset ${LABEL[b].env} to use the local default.`);
  }
  const defaults = missing.filter(([, s]) => !s.explicit).map(([b]) => b);
  if (defaults.length > 0) {
    advice.push(
      'Start it, then run `pnpm start` again:',
      `  with Docker:  ${composeUpCommand(defaults).join(' ')}`,
      `  on Debian:    apt-get install -y ${defaults.map((b) => DEBIAN[b].pkg).join(' ')}`,
      ...defaults.map((b) => `                ${DEBIAN[b].start}`),
    );
    if (!dockerAnswers) advice.push('(No Docker engine answers here, so Sendwell cannot start them for you.)');
  }
  return { kind: 'fail', message: ['Sendwell needs Postgres and Redis:', ...lines, '', ...advice].join('\n') };
}

/** Hides the password of a URL, so messages and logs never print it. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}

export type DockerEndpoint = { socketPath: string } | { host: string; port: number } | null;

/**
 * Where the Docker engine would listen: DOCKER_HOST (unix:// or tcp://) if set, else the usual
 * socket. TLS endpoints (DOCKER_TLS_VERIFY) are out of scope: we only ask /_ping.
 */
export function dockerEndpoint(dockerHost: string | undefined, defaultSocket = '/var/run/docker.sock'): DockerEndpoint {
  if (!dockerHost) return { socketPath: defaultSocket };
  if (dockerHost.startsWith('unix://')) return { socketPath: dockerHost.slice('unix://'.length) };
  if (dockerHost.startsWith('tcp://')) {
    const url = new URL(`http://${dockerHost.slice('tcp://'.length)}`);
    return { host: url.hostname, port: Number(url.port || 2375) };
  }
  return null;
}

/**
 * The same server's maintenance database: on a first start the database in DATABASE_URL does not
 * exist yet (migrate creates it), so "does Postgres answer" must not depend on it.
 */
export function maintenanceUrl(databaseUrl: string): string {
  const url = new URL(databaseUrl);
  url.pathname = '/postgres';
  return url.toString();
}
