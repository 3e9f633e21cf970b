import { storageKeys } from '@/config/storage-keys';

export const themes = ['light', 'dark', 'system'] as const;
export type Theme = (typeof themes)[number];

/** The stored choice; System when nothing (or something unknown) is stored (part 1 §2), or at build time. */
export function readTheme(storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage): Theme {
  const value = storage?.getItem(storageKeys.theme);
  return (themes as readonly string[]).includes(value ?? '') ? (value as Theme) : 'system';
}

export function resolveTheme(theme: Theme, prefersDark: boolean): 'light' | 'dark' {
  return theme === 'system' ? (prefersDark ? 'dark' : 'light') : theme;
}

export function applyTheme(theme: Theme): void {
  const dark = resolveTheme(theme, window.matchMedia('(prefers-color-scheme: dark)').matches) === 'dark';
  document.documentElement.classList.toggle('dark', dark);
}
