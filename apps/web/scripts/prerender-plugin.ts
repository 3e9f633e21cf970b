/**
 * After the browser build, renders the pages of `src/prerender.tsx` to HTML and writes each as
 * `<outDir>/prerendered/<name>.html` (`/` is `index.html`, `/login` is `login.html`), with the brotli
 * and gzip copies the gateway serves. Each page is the built `index.html` with its `#root` filled,
 * its title set and its modulepreloads removed, so its scripts and styles are the build's own.
 *
 * The renderer is the real route table built for Node by a second, SSR build of this config; its
 * output goes under node_modules (where its externals resolve) and is removed afterwards.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Plugin, type ResolvedConfig } from 'vite';

/** What src/prerender.tsx exports (a type import would pull the app's JSX into this Node config's check). */
interface PrerenderModule {
  PRERENDERED_PATHS: readonly string[];
  prerender(path: string): Promise<{ html: string; title: string | null }>;
}

const ENTRY = 'src/prerender.tsx';
const PRERENDERED_DIR = 'prerendered';
const EMPTY_ROOT = '<div id="root"></div>';
const TITLE = /<title>[^<]*<\/title>/;
// The blanks before each link go with it; (?<!\s) starts the match only at the first of them (linear).
const MODULE_PRELOAD = /(?<!\s)\s*<link rel="modulepreload"[^>]*>/g;

/** `/` → `index.html`, `/login` → `login.html`: the gateway maps them back the same way. */
function prerenderedFileName(path: string): string {
  if (path === '/') return 'index.html';
  if (!/^\/[\w-]+$/.test(path)) throw new Error(`prerender: ${path} is not a one-segment path, which the gateway's mapping expects`);
  return `${path.slice(1)}.html`;
}

export function prerenderPages(): Plugin {
  let config: ResolvedConfig;
  return {
    name: 'sendwell:prerender',
    // The nested SSR build below loads this same config; only the browser build prerenders.
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild,
    configResolved(resolved) {
      config = resolved;
    },
    async closeBundle() {
      const outDir = resolve(config.root, config.build.outDir);
      const cacheDir = join(config.root, 'node_modules', '.cache');
      mkdirSync(cacheDir, { recursive: true });
      const ssrDir = mkdtempSync(join(cacheDir, 'prerender-'));
      try {
        await build({
          configFile: config.configFile,
          root: config.root,
          mode: config.mode,
          logLevel: 'warn',
          build: {
            ssr: ENTRY,
            outDir: ssrDir,
            emptyOutDir: true,
            sourcemap: false,
            manifest: false,
            rollupOptions: { output: { entryFileNames: 'prerender.mjs' } },
          },
        });
        const { prerender, PRERENDERED_PATHS } = (await import(pathToFileURL(join(ssrDir, 'prerender.mjs')).href)) as PrerenderModule;
        // No modulepreloads: on a slow connection the app's code would share the bandwidth with the
        // page's HTML and CSS and delay its first paint. main.tsx fetches the code after that paint.
        const template = readFileSync(join(outDir, 'index.html'), 'utf8').replace(MODULE_PRELOAD, '');
        if (!template.includes(EMPTY_ROOT)) throw new Error(`prerender: index.html has no ${EMPTY_ROOT}`);
        mkdirSync(join(outDir, PRERENDERED_DIR), { recursive: true });
        for (const path of PRERENDERED_PATHS) {
          const page = await prerender(path);
          let html = template.replace(EMPTY_ROOT, () => `<div id="root">${page.html}</div>`);
          if (page.title) html = html.replace(TITLE, () => `<title>${page.title}</title>`);
          writeCompressed(join(outDir, PRERENDERED_DIR, prerenderedFileName(path)), html);
        }
      } finally {
        rmSync(ssrDir, { recursive: true, force: true });
      }
    },
  };
}

function writeCompressed(file: string, text: string): void {
  const bytes = Buffer.from(text);
  writeFileSync(file, bytes);
  writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }));
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}
