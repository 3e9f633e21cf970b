import { randomBytes } from 'node:crypto';
import { missing } from './errors.js';

/** A Stripe API object as it goes over the wire. */
export type StripeObject = { id: string; object: string } & Record<string, unknown>;

export const now = (): number => Math.floor(Date.now() / 1000);

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/** Every object by id (ids are unique across kinds thanks to their prefixes). */
export class Store {
  private readonly objects = new Map<string, StripeObject>();

  put<T extends StripeObject>(object: T): T {
    this.objects.set(object.id, object);
    return object;
  }

  find(id: string): StripeObject | undefined {
    return this.objects.get(id);
  }

  get(id: string, kind: string, param = 'id'): StripeObject {
    const found = this.objects.get(id);
    if (!found || found.object !== kind) throw missing(id, param);
    return found;
  }

  all(kind: string): StripeObject[] {
    return [...this.objects.values()].filter((o) => o.object === kind);
  }

  /** A copy with the `expand[]` paths (`latest_invoice.payment_intent`, `data.customer`) replaced by objects. */
  expand(value: StripeObject, paths: string[]): StripeObject {
    const copy = structuredClone(value);
    for (const path of paths) this.expandPath(copy, path.split('.'));
    return copy;
  }

  private expandPath(node: Record<string, unknown>, [head, ...rest]: string[]): void {
    if (head === undefined) return;
    if (head === 'data' && Array.isArray(node.data)) {
      for (const item of node.data as Record<string, unknown>[]) this.expandPath(item, rest);
      return;
    }
    let field = node[head];
    if (typeof field === 'string' && this.objects.has(field)) {
      field = structuredClone(this.objects.get(field));
      node[head] = field;
    }
    if (field && typeof field === 'object') this.expandPath(field as Record<string, unknown>, rest);
  }
}
