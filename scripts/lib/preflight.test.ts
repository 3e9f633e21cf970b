import { describe, expect, it } from 'vitest';
import { decidePreflight, dockerEndpoint, maintenanceUrl, redactUrl, type BackingState } from './preflight.js';

const PG = 'postgres://postgres@127.0.0.1:5432/sendwell';
const REDIS = 'redis://127.0.0.1:6379';
const state = (url: string, answers: boolean, explicit = false): BackingState => ({ url, answers, explicit });

describe('decidePreflight', () => {
  it('is ready when both answer, whatever Docker does', () => {
    expect(decidePreflight({ postgres: state(PG, true), redis: state(REDIS, true), dockerAnswers: false })).toEqual({ kind: 'ready' });
    expect(decidePreflight({ postgres: state(PG, true, true), redis: state(REDIS, true, true), dockerAnswers: true })).toEqual({ kind: 'ready' });
  });

  it('starts only the missing default servers as containers when Docker answers', () => {
    expect(decidePreflight({ postgres: state(PG, false), redis: state(REDIS, true), dockerAnswers: true })).toEqual({
      kind: 'start-containers',
      services: ['postgres'],
      command: ['docker', 'compose', '-f', 'infra/docker-compose.yml', 'up', '-d', '--wait', 'postgres'],
    });
    const both = decidePreflight({ postgres: state(PG, false), redis: state(REDIS, false), dockerAnswers: true });
    expect(both).toMatchObject({ kind: 'start-containers', services: ['postgres', 'redis'] });
  });

  it('never replaces a server the user named with a container', () => {
    const action = decidePreflight({
      postgres: state('postgres://app:hunter2@db.internal:5999/x', false, true),
      redis: state(REDIS, true),
      dockerAnswers: true,
    });
    expect(action.kind).toBe('fail');
    if (action.kind !== 'fail') return;
    expect(action.message).toContain('Postgres does not answer at postgres://app:***@db.internal:5999/x (from DATABASE_URL)');
    expect(action.message).toContain('or unset DATABASE_URL to use the local default');
    expect(action.message).not.toContain('hunter2');
    expect(action.message).not.toContain('docker compose');
  });

  it('names the compose command and the Debian packages when nothing can start them', () => {
    const action = decidePreflight({ postgres: state(PG, false), redis: state(REDIS, false), dockerAnswers: false });
    expect(action.kind).toBe('fail');
    if (action.kind !== 'fail') return;
    expect(action.message).toContain(`Postgres does not answer at ${PG}`);
    expect(action.message).toContain('Redis does not answer at redis://127.0.0.1:6379');
    expect(action.message).toContain('docker compose -f infra/docker-compose.yml up -d --wait postgres redis');
    expect(action.message).toContain('apt-get install -y postgresql redis-server');
    expect(action.message).toContain('pg_ctlcluster');
    expect(action.message).toContain('redis-server --daemonize yes');
    expect(action.message).toContain('No Docker engine answers here');
  });

  it('gives both kinds of advice when one URL was named and the other is a missing default', () => {
    const action = decidePreflight({ postgres: state(PG, false), redis: state('redis://cache:6380', false, true), dockerAnswers: true });
    expect(action.kind).toBe('fail');
    if (action.kind !== 'fail') return;
    expect(action.message).toContain('unset REDIS_URL');
    expect(action.message).toContain('up -d --wait postgres');
    expect(action.message).toContain('apt-get install -y postgresql\n');
    expect(action.message).not.toContain('No Docker engine');
  });
});

describe('dockerEndpoint', () => {
  it('uses the usual socket without DOCKER_HOST', () => {
    expect(dockerEndpoint(undefined)).toEqual({ socketPath: '/var/run/docker.sock' });
    expect(dockerEndpoint('')).toEqual({ socketPath: '/var/run/docker.sock' });
  });
  it('reads unix:// and tcp:// hosts', () => {
    expect(dockerEndpoint('unix:///run/user/1000/docker.sock')).toEqual({ socketPath: '/run/user/1000/docker.sock' });
    expect(dockerEndpoint('tcp://10.0.0.5:2376')).toEqual({ host: '10.0.0.5', port: 2376 });
    expect(dockerEndpoint('tcp://docker')).toEqual({ host: 'docker', port: 2375 });
  });
  it('gives up on schemes it cannot ping', () => {
    expect(dockerEndpoint('ssh://me@host')).toBeNull();
  });
});

describe('urls', () => {
  it('pings the maintenance database, which exists before the first migration', () => {
    expect(maintenanceUrl('postgres://u:p@h:5433/sendwell?sslmode=require')).toBe('postgres://u:p@h:5433/postgres?sslmode=require');
  });
  it('hides passwords and leaves other URLs alone', () => {
    expect(redactUrl('redis://:secret@127.0.0.1:6379')).toBe('redis://:***@127.0.0.1:6379');
    expect(redactUrl(PG)).toBe(PG);
    expect(redactUrl('not a url')).toBe('not a url');
  });
});
