import { execFile } from 'node:child_process';
import { createCipheriv, randomBytes } from 'node:crypto';
import { promisify } from 'node:util';
import { createTestDb, testRedisUrl, type TestDb } from '@sendwell/testing';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ChannelTargets } from '../src/notify/channel-targets.js';
import { resealSecrets } from '../src/notify/reseal-secrets.js';
import { sealedFor, SecretBox } from '../src/notify/secret-box.js';
import type { SealingKey } from '../src/notify/sealing-keys.js';
import { IntegrationRepository } from '../src/integrations/integration.repository.js';
import { WebhookEndpointRepository } from '../src/integrations/webhook-endpoint.repository.js';
import { factory, type Factory } from './factory.js';

const run = promisify(execFile);
const newKey = (id: string): SealingKey => ({ id, key: randomBytes(32) });
const setting = (keys: SealingKey[]) => keys.map((k) => `${k.id}:${k.key.toString('base64')}`).join(',');

/** A value as the first format sealed it (`v1.<iv>.<tag>.<ciphertext>`, no key id, no binding). */
function sealV1(key: Buffer, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
  return ['v1', iv, cipher.getAuthTag(), data].map((p) => (typeof p === 'string' ? p : p.toString('base64url'))).join('.');
}

let testDb: TestDb;
let f: Factory;
beforeAll(async () => {
  testDb = await createTestDb();
  f = factory(testDb.db);
});
afterAll(() => testDb.close());
beforeEach(async () => {
  await testDb.db.deleteFrom('integrations').execute();
  await testDb.db.deleteFrom('webhookEndpoints').execute();
});

const k0 = newKey('k0');
const k1 = newKey('k1');
const k2 = newKey('k2');

/** Two users with a Slack config and a webhook each under k1, and one legacy v1 Teams config under k0. */
async function arrange() {
  const old = new SecretBox([k1, k0]);
  const integrations = new IntegrationRepository(testDb.db);
  const webhooks = new WebhookEndpointRepository(testDb.db);
  const users = [await f.user('advanced'), await f.user('advanced')];
  for (const user of users) {
    const config = { botToken: `xoxb-${user.id}`, channelId: 'C1' };
    await integrations.save(user.id, 'slack', old.sealJson(config, sealedFor.integration(user.id, 'slack')), new Date());
    await webhooks.create(user.id, { url: 'https://hooks.example.test/a', description: null, sealedSecret: old.seal(`whsec_${user.id}`, sealedFor.webhookSecret(user.id)) }, new Date());
  }
  await integrations.save(users[0]!.id, 'teams', sealV1(k0.key, JSON.stringify({ webhookUrl: 'https://teams.example.test/webhook/1' })), new Date());
  return users;
}

const sealedValues = async () => [
  ...(await testDb.db.selectFrom('integrations').select('config').orderBy('id').execute()).map((r) => (r.config as { sealed: string }).sealed),
  ...(await testDb.db.selectFrom('webhookEndpoints').select('sealedSecret').orderBy('id').execute()).map((r) => r.sealedSecret),
];

describe('secrets:reseal', () => {
  it('moves every value, legacy ones included, to the newest key; afterwards the old keys can go and everything opens', async () => {
    const users = await arrange();
    const rotated = new SecretBox([k2, k1, k0]);

    expect(await resealSecrets(testDb.db, rotated, 2)).toEqual({
      integrations: { scanned: 3, resealed: 3, current: 0, unreadable: [] },
      webhooks: { scanned: 2, resealed: 2, current: 0, unreadable: [] },
    });
    for (const sealed of await sealedValues()) expect(sealed).toMatch(/^v2\.k2\./);

    const targets = new ChannelTargets(testDb.db, new SecretBox([k2]));
    for (const user of users) {
      expect(await targets.resolve(user.id, 'x@example.test', 'slack')).toEqual({ kind: 'integration', service: 'slack', config: { botToken: `xoxb-${user.id}`, channelId: 'C1' } });
      const [webhook] = await new WebhookEndpointRepository(testDb.db).list(user.id);
      expect(await targets.resolve(user.id, 'x@example.test', `webhook:${webhook!.id}`)).toMatchObject({ kind: 'webhook', secret: `whsec_${user.id}` });
    }
    expect(await targets.resolve(users[0]!.id, 'x@example.test', 'teams')).toMatchObject({ kind: 'integration', config: { webhookUrl: 'https://teams.example.test/webhook/1' } });
  });

  it('is idempotent: a second run opens every value and changes none', async () => {
    await arrange();
    const rotated = new SecretBox([k2, k1, k0]);
    await resealSecrets(testDb.db, rotated);
    const before = await sealedValues();
    expect(await resealSecrets(testDb.db, rotated)).toEqual({
      integrations: { scanned: 3, resealed: 0, current: 3, unreadable: [] },
      webhooks: { scanned: 2, resealed: 0, current: 2, unreadable: [] },
    });
    expect(await sealedValues()).toEqual(before);
  });

  it("names rows no key opens, such as a value copied into another user's row, and reseals the rest", async () => {
    const [a, b] = await arrange();
    const stolen = (await new IntegrationRepository(testDb.db).find(a!.id, 'slack'))!.sealed;
    await new IntegrationRepository(testDb.db).save(b!.id, 'slack', stolen, new Date());
    const copied = await testDb.db.selectFrom('integrations').select('id').where('userId', '=', b!.id).where('service', '=', 'slack').executeTakeFirstOrThrow();

    const result = await resealSecrets(testDb.db, new SecretBox([k2, k1, k0]));
    expect(result.integrations).toEqual({ scanned: 3, resealed: 2, current: 0, unreadable: [copied.id] });
    await expect(new ChannelTargets(testDb.db, new SecretBox([k2, k1])).resolve(b!.id, 'x@example.test', 'slack')).rejects.toThrow();
  });

  it('runs as a command that prints its counts and needs no secret in its output', async () => {
    await arrange();
    const keys = setting([k2, k1, k0]);
    const { stdout } = await run('pnpm', ['exec', 'tsx', 'src/reseal-secrets-cli.ts'], {
      cwd: new URL('..', import.meta.url),
      env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', DATABASE_URL: testDb.url, REDIS_URL: testRedisUrl(), INTEGRATIONS_ENCRYPTION_KEYS: keys },
    });
    const line = JSON.parse(stdout.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(line).toMatchObject({ keyId: 'k2', integrations: { scanned: 3, resealed: 3, unreadable: [] }, webhooks: { scanned: 2, resealed: 2, unreadable: [] } });
    expect(stdout).not.toContain(k2.key.toString('base64'));
    for (const sealed of await sealedValues()) expect(sealed).toMatch(/^v2\.k2\./);
  });
});
