/**
 * Schema validation of rendered objects with the Kubernetes OpenAPI schemas that `kubernetes-models`
 * ships compiled (and KEDA's CRD schemas from `@kubernetes-models/keda`): types, required fields,
 * enums and formats, as the API server would check them.
 *
 * Those schemas allow unknown fields (Kubernetes' OpenAPI has no `additionalProperties: false`),
 * so a misspelt `readinesProbe` would pass. Strict mode (kubeconform's `-strict`) is added here:
 * the compiled validator reads every property its schema knows, so the object is handed to it
 * behind a Proxy that records each property read, and any property it never read is one the
 * schema does not have. Free-form maps (labels, data, KEDA's trigger metadata) are read whole by
 * their validators and so never reported.
 */
import { Namespace, ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import { Deployment, DaemonSet, StatefulSet } from 'kubernetes-models/apps/v1';
import { Job, CronJob } from 'kubernetes-models/batch/v1';
import { Ingress, NetworkPolicy } from 'kubernetes-models/networking.k8s.io/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { ScaledObject, TriggerAuthentication } from '@kubernetes-models/keda/keda.sh/v1alpha1';
import { objectId, type K8sObject } from './objects.js';

interface ModelClass {
  apiVersion: string;
  kind: string;
  new (data: never): { validate(): void; toJSON(): unknown };
}

/** The kinds the manifests may use; any other kind is an error rather than an unchecked object. */
const MODELS: ModelClass[] = [
  Namespace, ConfigMap, Secret, Service, Deployment, DaemonSet, StatefulSet, Job, CronJob, Ingress, NetworkPolicy,
  PodDisruptionBudget, HorizontalPodAutoscaler, ScaledObject, TriggerAuthentication,
] as unknown as ModelClass[];

const byType = new Map(MODELS.map((m) => [`${m.apiVersion}/${m.kind}`, m]));

export interface SchemaProblem {
  object: string;
  message: string;
}

/** Schema and unknown-field problems of one object (none when it is valid). */
export function validateSchema(object: K8sObject): SchemaProblem[] {
  const id = objectId(object);
  const Model = byType.get(`${object.apiVersion}/${object.kind}`);
  if (!Model) return [{ object: id, message: `no schema for ${object.apiVersion} ${object.kind} (add its model to lib/schema.ts)` }];

  const model = new Model(structuredClone(object) as never);
  const problems: SchemaProblem[] = [];
  try {
    model.validate();
  } catch (error) {
    problems.push({ object: id, message: (error as Error).message });
  }
  // Strict: the same validator, run again over a copy that records what it reads.
  const plain = JSON.parse(JSON.stringify(model)) as unknown;
  const read = new Set<string>();
  try {
    model.validate.call(tracked(plain, '', read));
  } catch {
    // Reported above.
  }
  for (const path of unreadPaths(plain, '', read)) problems.push({ object: id, message: `${path}: unknown field (not in the ${object.kind} schema)` });
  return problems;
}

function tracked(value: unknown, path: string, read: Set<string>): unknown {
  if (typeof value !== 'object' || value === null) return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const child = Reflect.get(target, key, receiver) as unknown;
      if (typeof key !== 'string') return child;
      if (Object.prototype.hasOwnProperty.call(target, key)) read.add(`${path}/${key}`);
      return tracked(child, `${path}/${key}`, read);
    },
    ownKeys(target) {
      const keys = Reflect.ownKeys(target);
      for (const key of keys) if (typeof key === 'string') read.add(`${path}/${key}`);
      return keys;
    },
  });
}

function unreadPaths(value: unknown, path: string, read: Set<string>): string[] {
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, child]) => {
    const at = `${path}/${key}`;
    return read.has(at) ? unreadPaths(child, at, read) : [at];
  });
}
