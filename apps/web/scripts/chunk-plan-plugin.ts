/**
 * Fewer, larger chunks for the signed-in screens, planned from the chunks Rollup makes by itself.
 *
 * Rollup splits the app by which entries load each module: the signed-in dashboard's first load was
 * ~45 files, most of them a few hundred bytes (an icon, an API hook, a small component shared by two
 * screens). Over HTTP/1.1 a phone fetches six files at a time, one round trip each: those files cost
 * seven round trips of a slow connection before the screen could draw (Lighthouse's largest paint on
 * /dashboard went from 3.2 s to 2.4 s with this plan), and each small file pays its own gzip overhead.
 *
 * So the build runs twice: a first build (not written, ~10 s) gives Rollup's own chunks, with what
 * each really holds after tree-shaking and what each imports; then in the real build (`manualChunks`)
 * - the shared chunks the signed-in shell always loads, and that no page outside it loads, join the
 *   shell's chunk, as do small shared chunks loaded only by signed-in screens (every screen loads the
 *   shell first, so they cost each screen a little and save it round trips);
 * - small shared chunks that public pages load too join the app's chunk, which every page loads;
 * - every other module is left to Rollup, which chunks it as before (`onlyExplicitManualChunks`:
 *   otherwise Rollup moves whatever a named module imports, through barrels, into its chunk).
 * A chunk joins only when what it imports is loaded with its new chunk anyway: a few hundred bytes
 * that import zod must not bring zod along.
 */
import { gzipSync } from 'node:zlib';
import { build, type Plugin, type ResolvedConfig, type Rollup } from 'vite';

const PLANNING_ENV = 'SENDWELL_CHUNK_PLANNING';

/** True inside the first, planning build (plugins that only matter for the real one skip it). */
export const isPlanningBuild = (): boolean => process.env[PLANNING_ENV] === '1';

export interface ChunkPlanOptions {
  /** The module whose chunk every page loads (the app), relative to the app's root. */
  appModule: string;
  /** The signed-in shell's route module. */
  shellModule: string;
  /** Route modules of the signed-in screens, which always load the shell first. */
  signedInRoutes: RegExp;
  /** The chunk the config names for a module itself (react, zod, forms): those are left as they are. */
  ownChunk: (id: string) => string | undefined;
  /** Modules whose chunks never join another (the contracts'). */
  keepApart: RegExp;
  /** Gzip bytes under which a chunk loaded only by signed-in screens joins the shell. */
  signedInSmall: number;
  /** Gzip bytes under which a chunk the shell and public pages both load joins the app. */
  sharedSmall: number;
  /** Gzip bytes under which any chunk a public page loads joins the app. */
  publicTiny: number;
}

export interface ChunkPlan {
  plugin: Plugin;
  /** The planned chunk of a module; undefined before planning, in the planning build and for entry chunks. */
  chunkOf(id: string): string | undefined;
}

export function chunkPlan(options: ChunkPlanOptions): ChunkPlan {
  let config: ResolvedConfig;
  let plan = new Map<string, string>();
  const plugin: Plugin = {
    name: 'sendwell:chunk-plan',
    apply: (_config, env) => env.command === 'build' && !env.isSsrBuild && !isPlanningBuild(),
    configResolved(resolved) {
      config = resolved;
    },
    async buildStart() {
      process.env[PLANNING_ENV] = '1';
      let result: Awaited<ReturnType<typeof build>>;
      try {
        result = await build({
          configFile: config.configFile,
          root: config.root,
          mode: config.mode,
          logLevel: 'silent',
          build: { write: false, sourcemap: false, manifest: false, emptyOutDir: false },
        });
      } finally {
        delete process.env[PLANNING_ENV];
      }
      const outputs = (Array.isArray(result) ? result : [result]) as Rollup.RollupOutput[];
      const chunks = outputs.flatMap((o) => o.output).filter((c): c is Rollup.OutputChunk => c.type === 'chunk');
      plan = planChunks(chunks, options);
    },
  };
  return { plugin, chunkOf: (id) => plan.get(id) };
}

export function planChunks(chunks: Rollup.OutputChunk[], options: ChunkPlanOptions): Map<string, string> {
  const byFile = new Map(chunks.map((c) => [c.fileName, c]));
  const holding = (module: string) => chunks.find((c) => c.moduleIds.some((id) => id.endsWith(`/${module}`)));
  const app = holding(options.appModule);
  const shell = holding(options.shellModule);
  if (!app || !shell) throw new Error(`chunk plan: no chunk holds ${app ? options.shellModule : options.appModule}`);
  const signedInRoute = (c: Rollup.OutputChunk) => c.isDynamicEntry && c.facadeModuleId !== null && options.signedInRoutes.test(c.facadeModuleId);

  /** Chunks reachable from `from` by static imports, and by dynamic ones too when `dynamic` says so. */
  const reach = (from: Rollup.OutputChunk[], dynamic: (c: Rollup.OutputChunk) => boolean) => {
    const seen = new Set<Rollup.OutputChunk>();
    const stack = [...from];
    while (stack.length) {
      const chunk = stack.pop()!;
      if (seen.has(chunk)) continue;
      seen.add(chunk);
      for (const file of chunk.imports) stack.push(byFile.get(file)!);
      for (const file of chunk.dynamicImports) {
        const next = byFile.get(file);
        if (next && dynamic(next)) stack.push(next);
      }
    }
    return seen;
  };
  // What a page outside the shell may load: from the entry, through every dynamic import but the
  // signed-in screens' (the app's route table imports them all).
  const loadedByPublicPages = reach(
    chunks.filter((c) => c.isEntry),
    (c) => !signedInRoute(c),
  );
  const loadedWithShell = reach([shell], () => false);
  // Entry chunks that another chunk also imports statically hold shared code: they may join too.
  const importedStatically = new Set(chunks.flatMap((c) => c.imports));

  const own = (chunk: Rollup.OutputChunk) => chunk.moduleIds.length > 0 && chunk.moduleIds.every((id) => options.ownChunk(id) !== undefined);
  // Shared chunks (and entry chunks other chunks import statically) may join the app or the shell;
  // a chunk loaded on demand (a lazy component) stays a chunk of its own.
  const candidates = chunks.filter((c) => !c.isEntry && !own(c) && c !== app && c !== shell && (!c.isDynamicEntry || importedStatically.has(c.fileName)));
  const target = new Map<Rollup.OutputChunk, 'app' | 'app-layout'>([
    [app, 'app'],
    [shell, 'app-layout'],
  ]);
  const wants = new Map<Rollup.OutputChunk, 'app' | 'app-layout'>();
  for (const chunk of candidates) {
    // The contracts' chunks stay as Rollup made them: a contract module can run zod's messages
    // (contracts/zod.ts) and so fetch zod; where they run is left to what really uses them.
    if (chunk.moduleIds.some((id) => options.keepApart.test(id))) continue;
    const size = gzipSync(chunk.code).length;
    const publicToo = loadedByPublicPages.has(chunk);
    const withShell = loadedWithShell.has(chunk);
    if (!publicToo && (withShell || size <= options.signedInSmall)) wants.set(chunk, 'app-layout');
    else if (publicToo && ((withShell && size <= options.sharedSmall) || size <= options.publicTiny)) wants.set(chunk, 'app');
  }
  // What each target chunk loads anyway: the app with its imports; the shell with those and its own.
  const loadedWithApp = reach([app], () => false);
  const loadedBy = (into: 'app' | 'app-layout', chunk: Rollup.OutputChunk) =>
    loadedWithApp.has(chunk) || target.get(chunk) === 'app' || (into === 'app-layout' && (loadedWithShell.has(chunk) || target.get(chunk) === 'app-layout'));
  for (let changed = true; changed; ) {
    changed = false;
    for (const [chunk, into] of wants) {
      if (target.has(chunk) || !chunk.imports.every((file) => loadedBy(into, byFile.get(file)!))) continue;
      target.set(chunk, into);
      changed = true;
    }
  }
  const plan = new Map<string, string>();
  for (const [chunk, name] of target) for (const id of chunk.moduleIds) plan.set(id, name);
  return plan;
}
