import { fileURLToPath } from 'node:url';
import tailwindcss from '@tailwindcss/vite';
import react from '@vitejs/plugin-react';
import { reporters } from '@sendwell/vitest-config';
import { compression } from 'vite-plugin-compression2';
import { defineConfig } from 'vitest/config';

/**
 * In development the Vite server (5173) proxies /api to the gateway, so the browser sees one origin
 * and the auth cookie works as it will in production, where the gateway serves `dist/` itself.
 */
const gateway = process.env.GATEWAY_URL ?? 'http://127.0.0.1:3000';

export default defineConfig({
  plugins: [
    react(),
    tailwindcss(),
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
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true, manifest: true },
  test: {
    include: ['src/**/*.test.{ts,tsx}'],
    environment: 'jsdom',
    setupFiles: ['src/testing/setup.ts'],
    // The shared list is typed against another vitest instance (jsdom is a peer here), hence the cast.
    reporters: reporters as string[],
  },
});
