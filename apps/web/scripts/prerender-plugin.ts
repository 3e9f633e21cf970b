/**
 * After the browser build, renders the pages of `src/prerender.tsx` to HTML and writes each as
 * `<outDir>/prerendered/<name>.html` (`/` is `index.html`, `/login` is `login.html`), with the brotli
 * and gzip copies the gateway serves. Each page is the built `index.html` with its `#root` filled,
 * its title set and its modulepreloads removed, so its scripts and styles are the build's own.
 * The signed-in screens' pages (the shell's frame) keep the modulepreloads and add their route's
 * chunks: that frame waits for the app, which should arrive as early as it can.
 *
 * The renderer is the real route table built for Node by a second, SSR build of this config; its
 * output goes under node_modules (where its externals resolve) and is removed afterwards.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { build, type Plugin, type ResolvedConfig } from 'vite';
import { isPlanningBuild } from './chunk-plan-plugin';

/** What src/prerender.tsx exports (a type import would pull the app's JSX into this Node config's check). */
interface PrerenderModule {
  PRERENDERED_PATHS: readonly string[];
  SIGNED_IN_SHELL_PAGES: Readonly<Record<string, string>>;
  prerender(path: string): Promise<{ html: string; title: string | null }>;
}

/** The part of Vite's build manifest (`build.manifest`) read here. */
type Manifest = Record<string, { file: string; imports?: string[] }>;

const ENTRY = 'src/prerender.tsx';
const PRERENDERED_DIR = 'prerendered';
const EMPTY_ROOT = '<div id="root"></div>';
const TITLE = /<title>[^<]*<\/title>/;
// The blanks before each link go with it; (?<!\s) starts the match only at the first of them (linear).
const MODULE_PRELOAD = /(?<!\s)\s*<link rel="modulepreload"[^>]*>/g;
const MODULE_PRELOAD_TAG = /<link rel="modulepreload"/g;

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
    // The chunk plan's first build (scripts/chunk-plan-plugin.ts) only looks at the chunks.
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild && !isPlanningBuild(),
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
        const { prerender, PRERENDERED_PATHS, SIGNED_IN_SHELL_PAGES } = (await import(pathToFileURL(join(ssrDir, 'prerender.mjs')).href)) as PrerenderModule;
        const indexHtml = readFileSync(join(outDir, 'index.html'), 'utf8');
        if (!indexHtml.includes(EMPTY_ROOT)) throw new Error(`prerender: index.html has no ${EMPTY_ROOT}`);
        const manifest = JSON.parse(readFileSync(join(outDir, config.build.manifest === true ? '.vite/manifest.json' : String(config.build.manifest)), 'utf8')) as Manifest;
        mkdirSync(join(outDir, PRERENDERED_DIR), { recursive: true });
        const write = async (path: string, template: string) => {
          const page = await prerender(path);
          let html = template.replace(EMPTY_ROOT, () => `<div id="root">${page.html}</div>`);
          if (page.title) html = html.replace(TITLE, () => `<title>${page.title}</title>`);
          writeCompressed(join(outDir, PRERENDERED_DIR, prerenderedFileName(path)), html);
        };
        // No modulepreloads: on a slow connection the app's code would share the bandwidth with the
        // page's HTML and CSS and delay its first paint. main.tsx fetches the code after that paint.
        for (const path of PRERENDERED_PATHS) await write(path, indexHtml.replace(MODULE_PRELOAD, ''));
        // The frame is no screen yet: the app's code (index.html's preloads) and the route's chunks are
        // fetched with the page, as index.html does for the rest.
        for (const [path, module] of Object.entries(SIGNED_IN_SHELL_PAGES)) await write(path, withRoutePreloads(indexHtml, manifest, module));
      } finally {
        rmSync(ssrDir, { recursive: true, force: true });
      }
    },
  };
}

/** `html` with a modulepreload for each chunk of `module` and of its static imports that it does not load already. */
function withRoutePreloads(html: string, manifest: Manifest, module: string): string {
  if (!manifest[module]) throw new Error(`prerender: the build manifest has no ${module}`);
  const files: string[] = [];
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const entry = manifest[key];
    if (!entry) throw new Error(`prerender: the build manifest has no ${key}`);
    files.push(entry.file);
    for (const imported of entry.imports ?? []) visit(imported);
  };
  visit(module);
  const links = files
    .filter((file) => !html.includes(`"/${file}"`))
    .map((file) => `    <link rel="modulepreload" crossorigin href="/${file}">\n`)
    .join('');
  if (!html.includes('</head>')) throw new Error('prerender: index.html has no </head>');
  // At low priority: the frame's stylesheet and scripts come first, so it paints as soon as it would
  // without them (the code follows on the same connections straight after).
  return html.replace('</head>', () => `${links}  </head>`).replace(MODULE_PRELOAD_TAG, '<link rel="modulepreload" fetchpriority="low"');
}

function writeCompressed(file: string, text: string): void {
  const bytes = Buffer.from(text);
  writeFileSync(file, bytes);
  writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY } }));
  writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
}
