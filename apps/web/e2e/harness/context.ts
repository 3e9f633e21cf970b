/** What the e2e global setup hands every browser test through vitest's `inject()`. */
declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    mailboxUrl: string;
    /** False while the domains service does not answer the quick-check call yet (it is being built). */
  }
}
export {};
