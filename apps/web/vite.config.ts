import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { reporters } from '@sendwell/vitest-config';
import { compression } from 'vite-plugin-compression2';
import type { Plugin } from 'vite';
import { defineConfig } from 'vitest/config';

/**
 * In development the Vite server (5173) proxies /api to the gateway, so the browser sees one origin
 * and the auth cookie works as it will in production, where the gateway serves `dist/` itself.
 */
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';
const CONTRACTS_SRC = /\/packages\/contracts\/src\//;

/**
 * The route modules of the pages visitors arrive on. Their chunks are lazy (router.tsx), so without a
 * hint the browser only asks for one after the entry has downloaded and run: a second round trip
 * before the first paint. A modulepreload in index.html fetches them alongside the entry; each page
 * then downloads the other's small chunk (a few KB) unused.
 */
const LANDING_ROUTES = ['src/app/routes/landing.tsx', 'src/app/routes/login.tsx'];

function preloadLandingRoutes(): Plugin {
  return {
    name: 'sendwell:preload-landing-routes',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(_html, { bundle }) {
        const chunks = Object.values(bundle ?? {}).filter(
          // By module, not facade: Rollup may merge a route module into a shared chunk.
          (c) => c.type === 'chunk' && LANDING_ROUTES.some((route) => c.moduleIds.some((id) => id.endsWith(`/${route}`))),
        );
        if (chunks.length !== LANDING_ROUTES.length) throw new Error(`preload: found ${chunks.length} of the chunks of ${LANDING_ROUTES.join(', ')}`);
        return chunks.map((c) => ({ tag: 'link', attrs: { rel: 'modulepreload', crossorigin: true, href: `/${c.fileName}` }, injectTo: 'head' as const }));
      },
    },
  };
}

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
    preloadLandingRoutes(),
    // Brotli and gzip files beside every text asset, made once at build time: the gateway serves them
    // (@fastify/static `preCompressed`) instead of compressing each response on the fly.
    compression({ algorithms: ['brotliCompress', 'gzip'], exclude: [/\.map$/, /manifest\.json$/], logLevel: 'silent' }),
  ],
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
      // Merge chunks under 4 KB (mostly single lucide icons shared by screens) into their importers:
      // /, for one, asked for ten 300-byte files, each a request on a slow phone connection.
      output: { experimentalMinChunkSize: 4096 },
      treeshake: {
        // The contracts' modules only declare schemas and rules; its index also sets zod's messages
        // (a real side effect, kept). Saying so lets a screen take the few schemas it uses instead of
        // every module the barrel re-exports (the whole package on /login).
        moduleSideEffects: (id) => !CONTRACTS_SRC.test(id) || id.endsWith('/index.ts'),
      },
    },
  },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/testing/setup.ts'],
    // The shared list is typed against another vitest instance (jsdom is a peer here), hence the cast.
    reporters: reporters as string[],
  },
});
