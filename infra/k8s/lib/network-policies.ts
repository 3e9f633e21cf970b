/**
 * The namespace's NetworkPolicies, checked against who actually talks to whom:
 * - one policy denies ingress to every pod by default;
 * - every service's pods are selected by a policy admitting its PORT alone (never the gateway's
 *   internal listener, never every port);
 * - a service admits only the Deployments that call it (`callers` in services.ts), by podSelector in
 *   the namespace: no namespaceSelector, no ipBlock, no selector matching every pod;
 * - the gateway admits only peers outside the namespace that are named: the Ingress controller by
 *   namespace labels, or a load balancer's addresses, never every address;
 * - a service with an SMTP listener (the intake) is admitted from anywhere on that port alone (mail
 *   comes from the Internet through its load balancer), in rules naming no other port.
 */
import { objectId, type K8sObject } from './objects.js';
import type { Problem } from './policy.js';
import { SERVICES, type ServiceSettings } from './services.js';

/* eslint-disable @typescript-eslint/no-explicit-any -- rendered objects are checked field by field below */
type Any = any;
type Labels = Record<string, string>;

interface Selector {
  matchLabels?: Labels;
  matchExpressions?: unknown[];
}

const isEmpty = (selector: Selector | undefined) => Object.keys(selector?.matchLabels ?? {}).length === 0 && (selector?.matchExpressions ?? []).length === 0;

/** matchLabels only: the manifests use no expressions, and a policy with them is reported rather than guessed at. */
const selectsPod = (selector: Selector | undefined, labels: Labels) =>
  isEmpty(selector) || Object.entries(selector?.matchLabels ?? {}).every(([k, v]) => labels[k] === v);

const policyTypes = (spec: Any): string[] => spec.policyTypes ?? (spec.egress ? ['Ingress', 'Egress'] : ['Ingress']);

/** 0.0.0.0/0, ::/0: a prefix of length zero. */
const everyAddress = (cidr: string) => cidr.trim().endsWith('/0');

export function checkNetworkPolicies(objects: K8sObject[], settingsOf: Map<string, ServiceSettings>): Problem[] {
  const problems: Problem[] = [];
  const add = (object: string, message: string) => problems.push({ object, message });
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const podLabels = new Map<string, Labels>(
    objects.filter((o) => o.kind === 'Deployment').map((o) => [o.metadata.name, ((o.spec as Any).template?.metadata?.labels ?? {}) as Labels]),
  );

  for (const p of policies) {
    const spec = p.spec as Any;
    if ((spec.podSelector?.matchExpressions ?? []).length > 0) add(objectId(p), 'podSelector uses matchExpressions, which this check does not read: use matchLabels');
  }

  const defaultDeny = policies.some((p) => {
    const spec = p.spec as Any;
    return isEmpty(spec.podSelector) && policyTypes(spec).includes('Ingress') && (spec.ingress ?? []).length === 0;
  });
  if (!defaultDeny) add('NetworkPolicy/default-deny-ingress', 'missing: no policy denies ingress to every pod of the namespace by default');

  for (const service of SERVICES) {
    const labels = podLabels.get(service.name);
    const settings = settingsOf.get(service.name);
    if (!labels || !settings) continue; // reported by the Deployment checks
    const admitting = policies.filter((p) => {
      const spec = p.spec as Any;
      return selectsPod(spec.podSelector, labels) && policyTypes(spec).includes('Ingress') && (spec.ingress ?? []).length > 0;
    });
    const rules = admitting.flatMap((p) => (p.spec as Any).ingress as Any[]);
    const smtpPort = settings.smtp?.port;
    const isSmtpRule = (rule: Any) => smtpPort !== undefined && (rule.ports ?? []).length > 0 && (rule.ports as Any[]).every((p) => p.port === smtpPort);
    if (smtpPort !== undefined && !rules.some((rule) => isSmtpRule(rule) && (rule.from ?? []).length === 0)) {
      add(`NetworkPolicy/${service.name}-smtp`, `missing: no policy admits SMTP from anywhere to ${service.name}'s port ${smtpPort} alone`);
    }
    if (!rules.some((rule) => !isSmtpRule(rule))) {
      add(`NetworkPolicy/${service.name}-ingress`, `missing: no policy admits ${service.name}'s callers to its port ${settings.PORT}`);
      continue;
    }
    for (const policy of admitting) {
      const where = objectId(policy);
      for (const rule of (policy.spec as Any).ingress as Any[]) {
        // SMTP comes from the Internet: any source, on that port alone.
        if (isSmtpRule(rule)) continue;
        const ports = (rule.ports ?? []) as { port?: number | string }[];
        if (ports.length === 0) add(where, `admits every port of ${service.name}: name its PORT ${settings.PORT} alone`);
        for (const { port } of ports) {
          if (port !== settings.PORT) {
            const what = port === settings.readyPort ? ' (its internal listener)' : port === smtpPort ? ' (its SMTP port: admit that in a rule of its own)' : '';
            add(where, `admits port ${String(port)} of ${service.name}, whose PORT is ${settings.PORT}${what}`);
          }
        }
        const peers = (rule.from ?? []) as Any[];
        if (peers.length === 0) add(where, `admits every source to ${service.name}`);
        for (const peer of peers) {
          for (const problem of service.name === 'gateway' ? gatewayPeerProblems(peer) : servicePeerProblems(peer, service.callers, podLabels)) add(where, `${service.name}: ${problem}`);
        }
      }
    }
  }
  return problems;
}

/** A service's peer: Deployments of this namespace that call it, and nothing else. */
function servicePeerProblems(peer: Any, callers: string[], podLabels: Map<string, Labels>): string[] {
  if (peer.ipBlock || peer.namespaceSelector) return ['admits peers outside the namespace (ipBlock or namespaceSelector): only its callers in the namespace may reach it'];
  if (isEmpty(peer.podSelector)) return ['admits every pod of the namespace'];
  const selected = [...podLabels].filter(([, labels]) => selectsPod(peer.podSelector, labels)).map(([name]) => name);
  const strangers = selected.filter((name) => !callers.includes(name));
  if (strangers.length > 0) return [`admits ${strangers.join(', ')}, which never call${strangers.length === 1 ? 's' : ''} it (callers: ${callers.join(', ')})`];
  return [];
}

/** The gateway's peer: the Ingress controller's namespace by label, or a load balancer's addresses. */
function gatewayPeerProblems(peer: Any): string[] {
  if (peer.ipBlock) return everyAddress(peer.ipBlock.cidr) ? [`admits every address (${peer.ipBlock.cidr}): name the load balancer's`] : [];
  if (!peer.namespaceSelector || isEmpty(peer.namespaceSelector)) return ["admits pods that are not the Ingress controller's: name its namespace with namespaceSelector labels"];
  return [];
}
