import { useSyncExternalStore } from 'react';

/** Toasts of part 1 §9: one visible at a time, 5000 ms, variants default and destructive. */
export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;

export interface ToastAction {
  label: string;
  onClick: () => void;
}
export interface ToastInput {
  title: string;
  description?: string;
  variant?: 'default' | 'destructive';
  action?: ToastAction;
}
export interface ToastItem extends ToastInput {
  id: number;
  open: boolean;
}

let items: ToastItem[] = [];
let nextId = 1;
const listeners = new Set<() => void>();
const emit = () => listeners.forEach((l) => l());

/** Shows a toast from anywhere (components, the session, mutation callbacks). */
export function toast(input: ToastInput): number {
  const id = nextId++;
  items = [{ ...input, id, open: true }, ...items].slice(0, TOAST_LIMIT);
  everShown = true;
  emit();
  return id;
}

export function dismissToast(id: number): void {
  items = items.map((t) => (t.id === id ? { ...t, open: false } : t));
  emit();
  // Radix animates the close; drop the item afterwards.
  setTimeout(() => {
    items = items.filter((t) => t.id !== id);
    emit();
  }, 300);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

let everShown = false;
/** True once any toast was requested: the Radix toaster is only loaded from then on. */
export function useToasterNeeded(): boolean {
  return useSyncExternalStore(subscribe, () => everShown || items.length > 0, () => false);
}

export function useToasts(): ToastItem[] {
  return useSyncExternalStore(subscribe, () => items, () => items);
}

/** For tests: the toasts currently held. */
export function currentToasts(): readonly ToastItem[] {
  return items;
}
