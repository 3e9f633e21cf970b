import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { reporters } from '@sendwell/vitest-config';
import { compression } from 'vite-plugin-compression2';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';
import { chunkPlan, isPlanningBuild } from './scripts/chunk-plan-plugin';
import { prerenderPages } from './scripts/prerender-plugin';
import { pureSchemas } from './scripts/pure-schemas-plugin';

/**
 * In development the Vite server (5173) proxies /api to the gateway, so the browser sees one origin
 * and the auth cookie works as it will in production, where the gateway serves `dist/` itself.
 */
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const CONTRACTS_SRC = /\/packages\/contracts\/src\//;

/**
 * Chunks a first visit needs that the entry does not import statically, so that the browser fetches
 * them alongside it instead of one round trip after another:
 * - the app itself (with the chunks it imports), which main.tsx imports dynamically;
 * - the signed-in shell (with its imports), which the router loads lazily: this `index.html` serves
 *   every route but the prerendered `/` and `/login` (whose pages carry no preloads), and most of
 *   those routes are signed-in screens. The landing and login chunks were preloaded here once, 6 KB
 *   that no signed-in screen used.
 */
const APP_MODULE = 'src/app/start.tsx';
const SHELL_MODULE = 'src/app/routes/app/app-layout.tsx';

/** The signed-in screens' route modules: each loads the shell first (src/app/router.tsx). */
const SIGNED_IN_ROUTES = /\/src\/app\/routes\/app\/[^/]+\.tsx$/;
/**
 * zod and the form library in chunks of their own: merged into a shared chunk they rode along with
 * whatever else it held (a Badge), into screens that validate nothing. React gets its own too, with
 * the CommonJS interop helper it uses (or React's chunk would import it from the app's).
 */
function ownChunk(id: string): string | undefined {
  if (id.startsWith('\0commonjsHelpers')) return 'react';
  const pkg = /\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)\//.exec(id)?.[1];
  if (pkg === 'zod') return 'zod';
  if (pkg === 'react-hook-form' || pkg === '@hookform/resolvers') return 'forms';
  if (pkg === 'react' || pkg === 'react-dom' || pkg === 'scheduler') return 'react';
  return undefined;
}

// Fewer files for every first load (scripts/chunk-plan-plugin.ts): /dashboard 13 instead of ~50, / 6
// instead of 24. With these thresholds no screen's bytes went up (merged files compress better).
const chunks = chunkPlan({
  appModule: APP_MODULE,
  shellModule: SHELL_MODULE,
  signedInRoutes: SIGNED_IN_ROUTES,
  ownChunk,
  keepApart: CONTRACTS_SRC,
  signedInSmall: 1200,
  sharedSmall: 1200,
  publicTiny: 400,
});

function preloadFirstVisitChunks(): Plugin {
  return {
    name: 'sendwell:preload-first-visit-chunks',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle, chunk: entry }) {
        const chunks = new Map(Object.values(bundle ?? {}).flatMap((c) => (c.type === 'chunk' ? [[c.fileName, c] as const] : [])));
        // By module, not facade: Rollup may merge a module into a shared chunk.
        const chunkOf = (module: string) => {
          const found = [...chunks.values()].find((c) => c.moduleIds.some((id) => id.endsWith(`/${module}`)));
          if (!found) throw new Error(`preload: no chunk holds ${module}`);
          return found.fileName;
        };
        const files = new Set<string>();
        const withImports = (fileName: string) => {
          if (files.has(fileName)) return;
          files.add(fileName);
          for (const imported of chunks.get(fileName)?.imports ?? []) withImports(imported);
        };
        withImports(chunkOf(APP_MODULE));
        withImports(chunkOf(SHELL_MODULE));
        // The entry and its static imports have theirs already.
        for (const loaded of [entry?.fileName, ...(entry?.imports ?? [])]) files.delete(loaded ?? '');
        return [...files].map((file) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${file}` }, injectTo: 'head' as const }));
      },
    },
  };
}

export default defineConfig({
  plugins: [
    pureSchemas(CONTRACTS_SRC),
    react(),
    tailwindcss(),
    preloadFirstVisitChunks(),
    chunks.plugin,
    // Brotli and gzip files beside every text asset, made once at build time: the gateway serves them
    // (@fastify/static `preCompressed`) instead of compressing each response on the fly.
    {
      ...compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.map$/, /manifest\.json$/], logLevel: 'silent' }),
      apply: (_config, env) => env.command === 'build' && !env.isSsrBuild && !isPlanningBuild(),
    },
    prerenderPages(),
  ],
  // The footer's year is the build's: prerendered HTML and the hydrating app must print the same one.
  define: { __BUILD_YEAR__: JSON.stringify(new Date().getFullYear()) },
  resolve: { alias: { '@': fileURLToPath(new URL('./src', import.meta.url)) } },
  server: {
    port: 5173,
    strictPort: true,
    proxy: { '/api': { target: gateway, changeOrigin: false } },
  },
  preview: { port: 4173, strictPort: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: true,
    manifest: true,
    rollupOptions: {
      // No `experimentalMinChunkSize`: merging chunks under 4 KB into an importer put a shared icon
      // into the history's list chunk, and /dashboard fetched @tanstack/virtual-core (12.7 KB) for
      // it; without it / loads 138 KB in 23 files (147 KB in 25 with it), and /dashboard 14 KB less.
      output: {
        manualChunks: (id) => ownChunk(id) ?? chunks.chunkOf(id),
        // Only the modules named above: the rest are chunked as Rollup chunks them (chunk-plan-plugin.ts).
        onlyExplicitManualChunks: true,
        // Rollup names a shared chunk after one of its modules; the app's own would be `alert-….js`.
        chunkFileNames: (chunk) => (chunk.moduleIds.some((id) => id.endsWith(`/${APP_MODULE}`)) ? 'assets/app-[hash].js' : 'assets/[name]-[hash].js'),
      },
      treeshake: {
        // The contracts' modules only declare schemas and rules; its `zod.ts` sets zod's messages (a
        // real side effect, kept, and taken only with a schema). Saying so lets a screen take the few
        // schemas and rules it uses instead of every module the barrel re-exports.
        moduleSideEffects: (id) => !CONTRACTS_SRC.test(id) || id.endsWith('/zod.ts'),
      },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/testing/setup.ts'],
    // jsdom renders slowly on two busy cores (CI runs the browser tests beside these); 5 s was overrun.
    testTimeout: 20_000,
    // The shared list is typed against another vitest instance (jsdom is a peer here), hence the cast.
    reporters: reporters as string[],
  },
});
