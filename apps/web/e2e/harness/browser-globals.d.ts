/**
 * `page.evaluate` callbacks run in the browser. The e2e program is checked without the DOM library
 * (it would clash with Node's webcrypto types in @sendwell/testing), so the few browser globals the
 * tests touch are declared here.
 */
declare const document: { documentElement: { classList: { contains(name: string): boolean } }; getElementById(id: string): { scrollIntoView(): void } | null };
declare const window: { scrollTo(x: number, y: number): void };
declare const localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
declare function getComputedStyle(element: unknown): { opacity: string };
declare const navigator: { clipboard: { readText(): Promise<string> } };
