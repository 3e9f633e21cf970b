/**
 * Gzip size of the JavaScript a first visit to a route loads in the production build: the entry chunk
 * with its static imports, plus the route module's chunk with its static imports (Vite's manifest).
 * Usage: tsx scripts/bundle-size.ts [landing | src/app/routes/login.tsx …]   (after `vite build`)
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

interface ManifestChunk {
  file: string;
  imports?: string[];
  isEntry?: boolean;
}

const dist = join(import.meta.dirname, '..', 'dist');
const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;

function closure(key: string, seen = new Set<string>()): Set<string> {
  if (seen.has(key)) return seen;
  seen.add(key);
  for (const dep of manifest[key]?.imports ?? []) closure(dep, seen);
  return seen;
}

export function routeJsGzipBytes(routeModules: string[]): { files: string[]; bytes: number } {
  const keys = new Set<string>();
  for (const key of Object.keys(manifest).filter((k) => manifest[k]!.isEntry)) closure(key, keys);
  for (const mod of routeModules) {
    // A route module may be merged into a shared chunk; then its key is that chunk's (`_landing-….js`).
    const key = manifest[mod] ? mod : Object.keys(manifest).find((k) => manifest[k]!.file.startsWith(`assets/${mod}-`));
    if (!key) throw new Error(`No chunk for ${mod} in the manifest`);
    closure(key, keys);
  }
  const files = [...keys].map((k) => manifest[k]!.file).filter((f) => f.endsWith('.js'));
  const bytes = files.reduce((sum, f) => sum + gzipSync(readFileSync(join(dist, f))).length, 0);
  return { files, bytes };
}

const routes = process.argv.slice(2);
const { files, bytes } = routeJsGzipBytes(routes.length ? routes : ['landing']);
process.stdout.write(`${files.length} JS files, ${(bytes / 1024).toFixed(1)} KB gzip\n${files.map((f) => `  ${f}`).join('\n')}\n`);
