/** Rendered Kubernetes objects: parsing kustomize's output, naming and ordering them. */
import { parseAllDocuments } from 'yaml';

export type K8sObject = {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; [key: string]: unknown };
  [key: string]: unknown;
};

export function objectId(o: Pick<K8sObject, 'apiVersion' | 'kind' | 'metadata'>): string {
  return `${o.apiVersion}/${o.kind}/${o.metadata.namespace ?? '-'}/${o.metadata.name}`;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Every YAML document of a multi-document text, each required to be a Kubernetes object. */
export function parseYamlObjects(text: string, source = '(text)'): K8sObject[] {
  const objects: K8sObject[] = [];
  for (const doc of parseAllDocuments(text)) {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0]?.message}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) continue;
    if (!isObject(value) || typeof value.kind !== 'string' || typeof value.apiVersion !== 'string' || !isObject(value.metadata) || typeof value.metadata.name !== 'string') {
      throw new Error(`${source}: every document must be an object with apiVersion, kind and metadata.name`);
    }
    objects.push(value as unknown as K8sObject);
  }
  return objects;
}

/** Splits `registry:5000/sendwell/gateway:1.0` into its name and tag (a digest stays with the name). */
export function splitImage(image: string): { name: string; tag: string | undefined } {
  if (image.includes('@')) return { name: image, tag: undefined };
  const slash = image.lastIndexOf('/');
  const colon = image.lastIndexOf(':');
  return colon > slash ? { name: image.slice(0, colon), tag: image.slice(colon + 1) } : { name: image, tag: undefined };
}
