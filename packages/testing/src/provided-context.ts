/** What the global setup hands every test file through vitest's `inject()`. */
declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
    redisUrl: string;
  }
}
export {};
