/**
 * `page.evaluate` callbacks run in the browser. The e2e program is checked without the DOM library
 * (it would clash with Node's webcrypto types in @sendwell/testing), so the few browser globals the
 * tests touch are declared here.
 */
interface BrowserElement {
  tagName: string;
  textContent: string | null;
  children: ArrayLike<BrowserElement> & Iterable<BrowserElement>;
  getAttribute(name: string): string | null;
  getBoundingClientRect(): { right: number };
  parentElement: BrowserElement | null;
  style: { display: string };
}
interface BrowserAnimation {
  effect: { getComputedTiming(): { iterations?: number } } | null;
  finished: Promise<unknown>;
}
declare const document: {
  documentElement: { classList: { contains(name: string): boolean }; clientWidth: number; scrollWidth: number };
  getAnimations(): BrowserAnimation[];
  getElementById(id: string): { scrollIntoView(): void } | null;
  querySelectorAll(selector: string): Iterable<BrowserElement>;
  body: BrowserElement;
};
declare const window: { scrollTo(x: number, y: number): void };
declare const localStorage: { getItem(key: string): string | null; setItem(key: string, value: string): void };
declare function getComputedStyle(element: unknown): { opacity: string; overflowX: string };
declare const navigator: { clipboard: { readText(): Promise<string> } };
