/**
 * Sendwell's own rules for its rendered manifests, beyond what the schemas say:
 * - every service has a Deployment and a Service, listens where its settings say, and is probed
 *   there: liveness `/health` on PORT, readiness `/health/ready` where the service serves it
 *   (the gateway's internal listener, everyone else's PORT), startup (if any) `/health`;
 * - the environment a Deployment gives its service passes that service's own settings parser
 *   with NODE_ENV=production (so a missing SMTP_URL or Stripe key fails here, not at 3 a.m.);
 * - no secret value is written anywhere: no Secret object, no secret-named variable with a
 *   literal value, no credentials inside a URL, no Stripe key; secrets are secretKeyRefs to the
 *   documented keys of `sendwell-secrets`;
 * - every container runs as non-root, read-only root filesystem, no privilege escalation, every
 *   capability dropped, with CPU and memory requests and limits; every image names a version (a tag
 *   other than `latest`, or a digest);
 * - ingress is denied by default and each service admits only its callers (network-policies.ts);
 * - the KEDA trigger reads the scan queue's waiting list under the services' QUEUE_PREFIX (the key
 *   as BullMQ names it), from an address the scanner's spec carries, with a TriggerAuthentication
 *   that exists, and its Deployment leaves `replicas` to KEDA;
 * - the gateway, scanner and intake have disruption budgets, the gateway an Ingress, the scanner an egress
 *   policy allowing DNS, SMTP and HTTPS, and the migration Job exists;
 * - a service with an SMTP listener (the intake) listens on the pod's address, and a LoadBalancer
 *   Service publishes it on port 25 with externalTrafficPolicy Local (so the client addresses its
 *   per-client limits count by survive); the files its settings name (STARTTLS PEM files) are on a
 *   mounted Secret volume, read-only; its own Service (the gateway's upstream) stays ClusterIP.
 */
import { QueueName } from '@sendwell/contracts';
import { QueueKeys } from 'bullmq';
import { checkNetworkPolicies } from './network-policies.js';
import { objectId, splitImage, type K8sObject } from './objects.js';
import { FIELD_STAND_INS, SECRET_NAME, SECRET_STAND_INS, SERVICES, SMTP_PUBLIC_PORT, type EnvSource, type ServiceSettings } from './services.js';

export interface Problem {
  object: string;
  message: string;
}

export interface PolicyOptions {
  /** The production overlay: the scanner scaled by KEDA. */
  production: boolean;
}

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered objects are checked field by field below */
type Any = any;

interface Container {
  name: string;
  image?: string;
  ports?: { name?: string; containerPort: number; protocol?: string }[];
  env?: { name: string; value?: string; valueFrom?: Any }[];
  envFrom?: { configMapRef?: { name: string }; secretRef?: { name: string } }[];
  livenessProbe?: Any;
  readinessProbe?: Any;
  startupProbe?: Any;
  resources?: Any;
  securityContext?: Any;
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean; subPath?: string }[];
}

interface PodTemplateOwner {
  object: K8sObject;
  pod: { metadata?: { labels?: Record<string, string> }; spec: { containers: Container[]; initContainers?: Container[]; securityContext?: Any } };
}

const SECRET_NAME_PATTERN = /SECRET|PASSWORD|PASSWD|TOKEN|PRIVATE|CREDENTIAL|_KEY$|^DATABASE_URL$|^REDIS_URL$|^SMTP_URL$/;
/** `user:password@` right after a scheme's `://` (the scheme itself is not needed to see it). */
const CREDENTIALS_IN_URL = /:\/\/[^\s/:@]*:[^\s/@]+@/;
const STRIPE_KEY = /\b[rs]k_(?:live|test)_[\dA-Za-z]|\bwhsec_[\dA-Za-z]/;
/** A Spamhaus Data Query Service zone carries the customer's key in its name. */
const DQS_ZONE = /[\da-z]\.[a-z]+\.dq\.spamhaus\.net/i;

/** The pod template of each workload (Deployment, DaemonSet, StatefulSet, Job, CronJob). */
export function podTemplates(objects: K8sObject[]): PodTemplateOwner[] {
  return objects.flatMap((object) => {
    const spec = object.spec as Any;
    if (['Deployment', 'DaemonSet', 'StatefulSet', 'Job'].includes(object.kind)) return [{ object, pod: spec.template }];
    if (object.kind === 'CronJob') return [{ object, pod: spec.jobTemplate.spec.template }];
    return [];
  });
}

const find = (objects: K8sObject[], kind: string, name: string) => objects.find((o) => o.kind === kind && o.metadata.name === name);

const selects = (selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) =>
  !!selector && Object.keys(selector).length > 0 && Object.entries(selector).every(([k, v]) => labels?.[k] === v);

/**
 * The environment a container starts with, as the kubelet builds it: envFrom ConfigMaps, then env
 * (later wins), `$(VAR)` expanded; Secret keys and downward-API fields as stand-ins. Optional
 * Secret keys are given too: their values are the ones that must parse.
 */
export function containerEnv(objects: K8sObject[], container: Container, problems: Problem[], where: string): EnvSource {
  const env: EnvSource = {};
  const configMap = (name: string) => find(objects, 'ConfigMap', name) as (K8sObject & { data?: Record<string, string> }) | undefined;
  for (const from of container.envFrom ?? []) {
    if (from.secretRef) problems.push({ object: where, message: `envFrom secretRef ${from.secretRef.name}: name each secret key with secretKeyRef instead` });
    if (!from.configMapRef) continue;
    const cm = configMap(from.configMapRef.name);
    if (!cm) problems.push({ object: where, message: `envFrom names ConfigMap ${from.configMapRef.name}, which is not in the manifests` });
    Object.assign(env, cm?.data ?? {});
  }
  for (const entry of container.env ?? []) {
    if (entry.value !== undefined) {
      env[entry.name] = entry.value.replace(/\$\(([a-z_]\w*)\)/gi, (whole, name: string) => env[name] ?? whole);
      continue;
    }
    const from = entry.valueFrom ?? {};
    if (from.secretKeyRef) {
      const { name, key } = from.secretKeyRef;
      if (name !== SECRET_NAME) problems.push({ object: where, message: `${entry.name}: secretKeyRef names Secret ${name}; every secret is a key of ${SECRET_NAME}` });
      if (!(key in SECRET_STAND_INS)) problems.push({ object: where, message: `${entry.name}: ${SECRET_NAME} has no documented key ${key} (lib/services.ts SECRET_STAND_INS)` });
      env[entry.name] = SECRET_STAND_INS[key];
    } else if (from.configMapKeyRef) {
      const value = configMap(from.configMapKeyRef.name)?.data?.[from.configMapKeyRef.key];
      if (value === undefined && !from.configMapKeyRef.optional) problems.push({ object: where, message: `${entry.name}: ConfigMap ${from.configMapKeyRef.name} has no key ${from.configMapKeyRef.key}` });
      env[entry.name] = value;
    } else if (from.fieldRef) {
      env[entry.name] = FIELD_STAND_INS[from.fieldRef.fieldPath] ?? 'field';
    } else if (from.resourceFieldRef) {
      env[entry.name] = '1';
    }
  }
  return env;
}

/** A probe's or Service's port: a number, or a name of one of the container's ports. */
function portNumber(container: Container, port: number | string | undefined): number | undefined {
  if (typeof port === 'number') return port;
  if (typeof port === 'string' && /^\d+$/.test(port)) return Number(port);
  return container.ports?.find((p) => p.name === port)?.containerPort;
}

export function checkPolicy(objects: K8sObject[], options: PolicyOptions): Problem[] {
  const problems: Problem[] = [];
  const add = (object: string, message: string) => problems.push({ object, message });
  const settingsOf = new Map<string, ServiceSettings>();

  // Services: Deployment, Service, settings, probes.
  for (const service of SERVICES) {
    const deployment = find(objects, 'Deployment', service.name);
    if (!deployment) {
      add(`Deployment/${service.name}`, 'missing: every service of the README has a Deployment');
      continue;
    }
    const where = objectId(deployment);
    const pod = (deployment.spec as Any).template;
    const container: Container | undefined = pod.spec.containers.find((c: Container) => c.name === service.name);
    if (!container) {
      add(where, `no container named ${service.name}`);
      continue;
    }
    const env = containerEnv(objects, container, problems, where);
    let settings: ServiceSettings;
    try {
      settings = service.settings(env);
    } catch (error) {
      add(where, `the service would not start with this environment: ${(error as Error).message}`);
      continue;
    }
    settingsOf.set(service.name, settings);
    if (settings.NODE_ENV !== 'production') add(where, `NODE_ENV is ${settings.NODE_ENV}, not production`);
    if (!['0.0.0.0', '::'].includes(settings.HOST)) add(where, `HOST is ${settings.HOST}: the pod's address would not answer (0.0.0.0)`);
    if (!['0.0.0.0', '::'].includes(settings.readyHost)) add(where, `/health/ready listens on ${settings.readyHost}, which the kubelet cannot reach (INTERNAL_HOST=0.0.0.0)`);
    if (!container.ports?.some((p) => p.containerPort === settings.PORT)) add(where, `no container port ${settings.PORT} (the service's PORT)`);

    const probe = (kind: 'livenessProbe' | 'readinessProbe' | 'startupProbe', path: string, port: number, required: boolean) => {
      const p = container[kind];
      if (!p) {
        if (required) add(where, `${kind} missing (${path} on ${port})`);
        return;
      }
      if (!p.httpGet) return add(where, `${kind} must be an HTTP GET of ${path} on ${port}`);
      if (p.httpGet.path !== path) add(where, `${kind} path ${p.httpGet.path}, expected ${path}`);
      const actual = portNumber(container, p.httpGet.port);
      if (actual !== port) add(where, `${kind} port ${String(p.httpGet.port)} (${actual ?? 'no such port'}), expected ${port}`);
    };
    probe('livenessProbe', '/health', settings.PORT, true);
    probe('readinessProbe', '/health/ready', settings.readyPort, true);
    probe('startupProbe', '/health', settings.PORT, false);

    const svc = find(objects, 'Service', service.name);
    if (!svc) add(`Service/${service.name}`, 'missing: every service has a Service of its name');
    else {
      const spec = svc.spec as Any;
      if (!selects(spec.selector, pod.metadata?.labels)) add(objectId(svc), `selector does not match the ${service.name} pods`);
      if (!spec.ports?.some((p: Any) => portNumber(container, p.targetPort ?? p.port) === settings.PORT)) add(objectId(svc), `no port reaching the container's PORT ${settings.PORT}`);
      if ((spec.type ?? 'ClusterIP') !== 'ClusterIP') add(objectId(svc), `type ${spec.type}: the service's HTTP port is for the gateway alone (ClusterIP)`);
    }

    if (settings.smtp) {
      const { host, port } = settings.smtp;
      if (!['0.0.0.0', '::'].includes(host)) add(where, `SMTP listens on ${host}: the load balancer would not reach it (INTAKE_SMTP_HOST=0.0.0.0)`);
      if (!container.ports?.some((p) => p.containerPort === port)) add(where, `no container port ${port} (the service's SMTP port)`);
      const balancers = objects.filter(
        (o) =>
          o.kind === 'Service' &&
          (o.spec as Any)?.type === 'LoadBalancer' &&
          selects((o.spec as Any).selector, pod.metadata?.labels) &&
          ((o.spec as Any).ports ?? []).some((p: Any) => p.port === SMTP_PUBLIC_PORT && portNumber(container, p.targetPort ?? p.port) === port),
      );
      if (balancers.length === 0) add(`Service/${service.name}-smtp`, `missing: no LoadBalancer Service publishes ${service.name}'s SMTP port ${port} on ${SMTP_PUBLIC_PORT}`);
      for (const lb of balancers) {
        const spec = lb.spec as Any;
        if (spec.externalTrafficPolicy !== 'Local') add(objectId(lb), `externalTrafficPolicy ${spec.externalTrafficPolicy ?? 'Cluster'}: the nodes' SNAT would hide the client addresses the per-client limits count by (Local)`);
        for (const p of spec.ports ?? []) if ((p.protocol ?? 'TCP') !== 'TCP') add(objectId(lb), `port ${p.port} is ${p.protocol}: SMTP is TCP`);
      }
    }

    // Files the settings name must be in the pod: on a mounted Secret, read-only.
    const volumes = (pod.spec.volumes ?? []) as Any[];
    for (const { setting, path } of settings.files ?? []) {
      const mount = (container.volumeMounts ?? []).find((m) => path.startsWith(m.mountPath.endsWith('/') ? m.mountPath : `${m.mountPath}/`));
      const volume = mount && volumes.find((v) => v.name === mount.name);
      if (!mount || !volume) add(where, `${setting}=${path} is on no mounted volume: mount the Secret holding it`);
      else if (!volume.secret) add(where, `${setting}=${path} is on volume ${volume.name}, which is not a Secret (keys and certificates are)`);
      else if (mount.readOnly !== true) add(where, `${setting}: mount ${mount.name} read-only`);
    }
  }

  const prefixes = new Set([...settingsOf.values()].map((s) => s.QUEUE_PREFIX));
  if (prefixes.size > 1) add('ConfigMap/sendwell-config', `services disagree on QUEUE_PREFIX (${[...prefixes].join(', ')}): they share the queues`);

  // The gateway's upstream URLs name Services and ports that exist.
  const gateway = find(objects, 'Deployment', 'gateway');
  const gatewayContainer = (gateway?.spec as Any)?.template.spec.containers.find((c: Container) => c.name === 'gateway') as Container | undefined;
  if (gateway && gatewayContainer) {
    const env = containerEnv(objects, gatewayContainer, [], '');
    for (const key of ['AUTH_URL', 'DOMAINS_URL', 'BILLING_URL', 'REPORTS_URL', 'SCANNER_URL', 'INTAKE_URL']) {
      const url = env[key] ? new URL(env[key]!) : undefined;
      const svc = url && find(objects, 'Service', url.hostname.split('.')[0]!);
      if (!url || !svc || !(svc.spec as Any).ports?.some((p: Any) => p.port === Number(url.port || 80))) add(objectId(gateway), `${key}=${env[key] ?? '(unset)'} names no Service port of the manifests`);
    }
  }

  // Secrets: references only.
  for (const o of objects) {
    if (o.kind === 'Secret') add(objectId(o), 'a Secret in the manifests would hold values: create it outside them and reference its keys');
    if (o.kind === 'ConfigMap') {
      for (const key of Object.keys((o as Any).data ?? {})) if (SECRET_NAME_PATTERN.test(key)) add(objectId(o), `${key} looks secret: move it to ${SECRET_NAME} and use a secretKeyRef`);
    }
    walkStrings(o, '', (path, value) => {
      if (CREDENTIALS_IN_URL.test(value)) add(objectId(o), `${path}: a URL with credentials; put it in ${SECRET_NAME}`);
      if (STRIPE_KEY.test(value)) add(objectId(o), `${path}: a Stripe secret; put it in ${SECRET_NAME}`);
      if (DQS_ZONE.test(value)) add(objectId(o), `${path}: a Spamhaus DQS zone holds its key; put DNSBL_*_ZONES in ${SECRET_NAME}`);
    });
    if (o.kind === 'TriggerAuthentication') {
      for (const ref of ((o.spec as Any)?.secretTargetRef ?? []) as { name: string; key: string }[]) {
        if (ref.name !== SECRET_NAME || !(ref.key in SECRET_STAND_INS)) add(objectId(o), `secretTargetRef ${ref.name}/${ref.key} is not a documented key of ${SECRET_NAME}`);
      }
    }
  }

  // Every container of every workload.
  for (const { object, pod } of podTemplates(objects)) {
    const where = objectId(object);
    const podSecurity = pod.spec.securityContext ?? {};
    for (const c of [...(pod.spec.initContainers ?? []), ...pod.spec.containers]) {
      const s = c.securityContext ?? {};
      const name = `container ${c.name}`;
      for (const e of c.env ?? []) {
        if (e.value !== undefined && SECRET_NAME_PATTERN.test(e.name)) add(where, `${name}: ${e.name} is a secret written as a value; use a secretKeyRef to ${SECRET_NAME}`);
      }
      if ((s.runAsNonRoot ?? podSecurity.runAsNonRoot) !== true) add(where, `${name}: runAsNonRoot is not set`);
      if ((s.runAsUser ?? podSecurity.runAsUser) === 0) add(where, `${name}: runs as root (runAsUser 0)`);
      if (s.allowPrivilegeEscalation !== false) add(where, `${name}: allowPrivilegeEscalation must be false`);
      if (s.readOnlyRootFilesystem !== true) add(where, `${name}: readOnlyRootFilesystem must be true`);
      if (s.privileged === true) add(where, `${name}: privileged`);
      if (!(s.capabilities?.drop ?? []).includes('ALL')) add(where, `${name}: capabilities must drop ALL`);
      for (const kind of ['requests', 'limits']) {
        for (const resource of ['cpu', 'memory']) if (c.resources?.[kind]?.[resource] === undefined) add(where, `${name}: no ${resource} ${kind.slice(0, -1)}`);
      }
      if (!c.image) add(where, `${name}: no image`);
      else {
        const { tag } = splitImage(c.image);
        if (!c.image.includes('@') && (tag === undefined || tag === 'latest')) add(where, `${name}: image ${c.image} names no version (set newTag in base/kustomization.yaml images)`);
      }
    }
  }

  // KEDA.
  const scaledObjects = objects.filter((o) => o.kind === 'ScaledObject');
  if (options.production && !scaledObjects.some((o) => (o.spec as Any)?.scaleTargetRef?.name === 'scanner')) add('ScaledObject/scanner', 'missing: production scales the scanner with KEDA');
  for (const so of scaledObjects) {
    const where = objectId(so);
    const spec = so.spec as Any;
    const target = find(objects, spec.scaleTargetRef?.kind ?? 'Deployment', spec.scaleTargetRef?.name);
    if (!target) {
      add(where, `scaleTargetRef names ${spec.scaleTargetRef?.name}, which is not in the manifests`);
      continue;
    }
    if ((target.spec as Any).replicas !== undefined) add(objectId(target), 'has replicas while a ScaledObject owns its count: every apply would reset it');
    const container: Container | undefined = (target.spec as Any).template?.spec.containers[0];
    const env = container ? containerEnv(objects, container, [], '') : {};
    const settings = settingsOf.get(target.metadata.name);
    for (const trigger of spec.triggers ?? []) {
      if (trigger.authenticationRef && !find(objects, 'TriggerAuthentication', trigger.authenticationRef.name)) add(where, `authenticationRef ${trigger.authenticationRef.name} is not in the manifests`);
      if (trigger.type !== 'redis') continue;
      const m = trigger.metadata ?? {};
      const prefix = settings?.QUEUE_PREFIX ?? env.QUEUE_PREFIX ?? 'sendwell';
      const expected = new QueueKeys(prefix).toKey(QueueName.Scan, 'wait');
      if (m.listName !== expected) add(where, `listName ${m.listName}: BullMQ keeps the scan queue's waiting jobs in ${expected} (QUEUE_PREFIX ${prefix})`);
      if (!(Number(m.listLength) > 0)) add(where, `listLength ${m.listLength} is not a positive number`);
      if (m.addressFromEnv && env[m.addressFromEnv] === undefined) add(where, `addressFromEnv ${m.addressFromEnv}: the ${target.metadata.name} container has no such variable`);
      if (!m.addressFromEnv && !m.address && !(m.host && m.port)) add(where, 'the redis trigger has no address');
      if (m.address && !/^[^:/\s]+:\d+$/.test(m.address)) add(where, `address ${m.address}: KEDA wants host:port, not a URL`);
      if (m.addressFromEnv && env[m.addressFromEnv] !== undefined && !/^[^:/\s]+:\d+$/.test(env[m.addressFromEnv]!)) add(where, `${m.addressFromEnv} must be host:port for KEDA`);
    }
  }

  // Disruption budgets, Ingress, egress, migration.
  for (const name of ['gateway', 'scanner', 'intake']) {
    const labels = ((find(objects, 'Deployment', name)?.spec as Any)?.template.metadata.labels ?? {}) as Record<string, string>;
    if (!objects.some((o) => o.kind === 'PodDisruptionBudget' && selects((o.spec as Any)?.selector?.matchLabels, labels))) add(`PodDisruptionBudget/${name}`, `missing: no budget selects the ${name} pods`);
  }
  const ingressToGateway = objects.some(
    (o) => o.kind === 'Ingress' && ((o.spec as Any)?.rules ?? []).some((r: Any) => (r.http?.paths ?? []).some((p: Any) => p.backend?.service?.name === 'gateway')),
  );
  if (!ingressToGateway) add('Ingress/gateway', 'missing: no Ingress routes to the gateway Service');
  const scannerLabels = ((find(objects, 'Deployment', 'scanner')?.spec as Any)?.template.metadata.labels ?? {}) as Record<string, string>;
  const egress = objects.filter((o) => o.kind === 'NetworkPolicy' && selects((o.spec as Any)?.podSelector?.matchLabels, scannerLabels));
  const allows = (protocol: string, port: number) =>
    egress.some((o) => ((o.spec as Any).egress ?? []).some((rule: Any) => (rule.ports ?? []).some((p: Any) => (p.protocol ?? 'TCP') === protocol && p.port === port)));
  for (const [protocol, port] of [['UDP', 53], ['TCP', 53], ['TCP', 25], ['TCP', 443]] as const) {
    if (!allows(protocol, port)) add('NetworkPolicy/scanner-egress', `the scanner's egress does not allow ${protocol} ${port}`);
  }
  problems.push(...checkNetworkPolicies(objects, settingsOf));
  const migrate = objects.find((o) => o.kind === 'Job' && o.metadata.labels?.['app.kubernetes.io/component'] === 'migration');
  if (!migrate) add('Job/migrate', 'missing: the migration Job (component=migration)');
  else {
    const c = ((migrate.spec as Any).template.spec.containers as Container[])[0];
    if (!c?.env?.some((e) => e.name === 'DATABASE_URL' && e.valueFrom?.secretKeyRef)) add(objectId(migrate), 'DATABASE_URL must come from the Secret');
  }

  return problems;
}

function walkStrings(value: unknown, path: string, visit: (path: string, value: string) => void): void {
  if (typeof value === 'string') visit(path, value);
  else if (Array.isArray(value)) value.forEach((v, i) => walkStrings(v, `${path}/${i}`, visit));
  else if (typeof value === 'object' && value !== null) for (const [k, v] of Object.entries(value)) walkStrings(v, `${path}/${k}`, visit);
}
