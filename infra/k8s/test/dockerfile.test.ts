import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { checkDockerfile, parseDockerfile } from '../lib/dockerfile.js';

/** No Docker engine runs in CI: the Dockerfiles' rules are read from their text (lib/dockerfile.ts). */
const read = (path: string) => readFileSync(fileURLToPath(new URL(path, import.meta.url)), 'utf8');
const app = read('../../Dockerfile');
const resolver = read('../node-resolver/Dockerfile');
const TARGETS = ['migrate', 'auth', 'domains', 'billing', 'reports', 'scanner', 'intake', 'gateway'];

describe('infra/Dockerfile', () => {
  it('passes: several stages, each target a deployed package on a fixed base, as a user that is not root', () => {
    expect(checkDockerfile(app, { requireDeploy: true })).toEqual([]);
    const { stages } = parseDockerfile(app);
    expect(stages.length).toBeGreaterThan(2);
    for (const name of TARGETS) {
      const target = stages.find((s) => s.name === name);
      expect(target?.from, name).toBe('runtime');
      expect(target?.instructions.find((i) => i.keyword === 'COPY')?.args, name).toBe(`--from=build /prod/${name} /app`);
    }
    expect(stages.find((s) => s.name === 'runtime')?.from).toMatch(/^node:\d+\.\d+\.\d+-bookworm-slim$/);
  });

  it('builds the intake: deployed like the others, SMTP on the unprivileged 2500 of every address', () => {
    const { stages } = parseDockerfile(app);
    const deploy = stages.find((s) => s.name === 'build')!.instructions.find((i) => i.keyword === 'RUN' && i.args.includes('deploy --prod'))!.args;
    expect(deploy).toMatch(/for service in [\w ]*\bintake\b/);
    const intake = stages.find((s) => s.name === 'intake')!.instructions;
    const env = intake.filter((i) => i.keyword === 'ENV').map((i) => i.args).join(' ');
    expect(env).toMatch(/\bPORT=3006\b/);
    expect(env).toMatch(/\bINTAKE_SMTP_PORT=2500\b/);
    expect(env).toMatch(/\bINTAKE_SMTP_HOST=0\.0\.0\.0\b/);
    expect(intake.find((i) => i.keyword === 'EXPOSE')?.args.split(/\s+/).sort()).toEqual(['2500', '3006']);
    expect(intake.find((i) => i.keyword === 'CMD')?.args).toBe('["node", "dist/main.js"]');
    // A plain `docker build` still gives the gateway.
    expect(stages.at(-1)?.name).toBe('gateway');
  });

  it('fails on a floating or missing base tag', () => {
    expect(checkDockerfile(app.replace('ARG NODE_VERSION=20.20.2', 'ARG NODE_VERSION=20'), { requireDeploy: true })).toEqual([
      'FROM node:20-bookworm-slim: name a fixed version (such as node:20.20.2-bookworm-slim) or a digest',
      'FROM node:20-bookworm-slim: name a fixed version (such as node:20.20.2-bookworm-slim) or a digest',
    ]);
    expect(checkDockerfile('FROM node:latest AS a\nUSER node\nCMD ["x"]\n', { requireDeploy: false })).toEqual([
      'FROM node:latest: name a fixed version (such as node:20.20.2-bookworm-slim) or a digest',
    ]);
    expect(checkDockerfile(`FROM node@sha256:${'a'.repeat(64)}\nUSER node\n`, { requireDeploy: false })).toEqual([]);
  });

  it('fails when the runtime runs as root', () => {
    const problems = checkDockerfile(app.replace('USER node', 'USER root'), { requireDeploy: true });
    expect(problems).toEqual(TARGETS.map((t) => `${t}: runs as root (give it a USER that is not root)`));
    expect(checkDockerfile(app.replace('USER node', ''), { requireDeploy: true })).toHaveLength(TARGETS.length);
  });

  it('fails when the targets ship the build stage, or copy anything but the deploy output', () => {
    const onBuild = checkDockerfile(app.replace(/^FROM node:\$\{NODE_VERSION\}-bookworm-slim AS runtime$/m, 'FROM build AS runtime'), { requireDeploy: true });
    expect(onBuild).toContain('gateway: built on build, so it ships its sources and dev dependencies');
    const wholeRepo = checkDockerfile(app.replace('COPY --from=build /prod/scanner /app', 'COPY --from=build /app /app'), { requireDeploy: true });
    expect(wholeRepo).toEqual(['scanner: copies no `pnpm deploy --prod` output']);
    const withDevDependencies = checkDockerfile(app.replaceAll(' deploy --prod ', ' deploy '), { requireDeploy: true });
    expect(withDevDependencies).toContain('no stage runs `pnpm deploy --prod`');
    expect(checkDockerfile('FROM node:20.20.2\nUSER node\nCMD ["node", "main.js"]\n', { requireDeploy: true })).toEqual([
      'a single stage: the build tools would ship in the image',
      'no stage runs `pnpm deploy --prod`',
      'stage 1: copies no `pnpm deploy --prod` output',
    ]);
  });
});

describe('infra/k8s/node-resolver/Dockerfile', () => {
  it('names a fixed Debian release and runs unbound as a user that is not root', () => {
    expect(checkDockerfile(resolver, { requireDeploy: false })).toEqual([]);
    expect(checkDockerfile(resolver.replace('debian:12.11-slim', 'debian:bookworm-slim'), { requireDeploy: false })).toEqual([
      'FROM debian:bookworm-slim: name a fixed version (such as node:20.20.2-bookworm-slim) or a digest',
    ]);
  });
});
