/** Stripe's request bodies and queries: form fields in bracket notation (`items[0][price]`, `expand[]`). */
export type FormValue = string | FormValue[] | { [key: string]: FormValue };
export type Form = Record<string, FormValue>;

export function parseForm(text: string): Form {
  const root: Form = {};
  for (const [name, value] of new URLSearchParams(text)) {
    const keys = name.split('[').map((part, i) => (i === 0 ? part : part.replace(/\]$/, '')));
    let node: Record<string, FormValue> | FormValue[] = root;
    keys.forEach((key, i) => {
      const last = i === keys.length - 1;
      const container = node as Record<string, FormValue>;
      const slot = key === '' && Array.isArray(node) ? String(node.length) : key;
      if (last) {
        container[slot] = value;
        return;
      }
      const nextIsList = keys[i + 1] === '' || /^\d+$/.test(keys[i + 1] ?? '');
      container[slot] ??= nextIsList ? [] : {};
      node = container[slot] as Record<string, FormValue> | FormValue[];
    });
  }
  return root;
}

export function str(form: Form | undefined, key: string): string | undefined {
  const v = form?.[key];
  return typeof v === 'string' ? v : undefined;
}

export function list(form: Form | undefined, key: string): FormValue[] {
  const v = form?.[key];
  if (Array.isArray(v)) return v;
  if (v && typeof v === 'object') return Object.values(v);
  return v === undefined ? [] : [v];
}

export function obj(value: FormValue | undefined): Form | undefined {
  return value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
}
