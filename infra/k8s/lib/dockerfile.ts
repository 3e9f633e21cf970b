/**
 * The Dockerfiles' rules, read from their text (no Docker engine runs in CI):
 * - every base image names a fixed version: a tag starting with major.minor (`20.20.2-bookworm-slim`,
 *   `12.11-slim`) or a digest, never `latest`, a bare name or a floating major (`node:20`);
 * - every image's final stage runs as a user that is not root;
 * - for the application image (`requireDeploy`): several stages, and each target (a stage with CMD)
 *   starts from a base image rather than the build stage and copies in a `pnpm deploy --prod` output,
 *   so it holds the production dependencies alone.
 */

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string | undefined;
  /** The image or earlier stage it starts from, ARGs substituted. */
  from: string;
  instructions: Instruction[];
}

/** Instructions with line continuations joined and comments dropped; ARGs before the first FROM are its global ones. */
export function parseDockerfile(text: string): { args: Record<string, string>; stages: Stage[] } {
  const args: Record<string, string> = {};
  const stages: Stage[] = [];
  const lines = text.replace(/\\\r?\n/g, ' ').split(/\r?\n/);
  for (const line of lines) {
    const trimmed = line.trim();
    if (trimmed === '' || trimmed.startsWith('#')) continue;
    const space = trimmed.search(/\s/);
    const keyword = (space === -1 ? trimmed : trimmed.slice(0, space)).toUpperCase();
    const rest = space === -1 ? '' : trimmed.slice(space + 1).trim();
    if (keyword === 'FROM') {
      const [image = '', as, name] = rest.replace(/--platform=\S+\s+/, '').split(/\s+/);
      const from = image.replace(/\$\{?(\w+)\}?/g, (whole, arg: string) => args[arg] ?? whole);
      stages.push({ name: as?.toUpperCase() === 'AS' ? name : undefined, from, instructions: [] });
    } else if (stages.length === 0) {
      if (keyword === 'ARG') {
        const [name = '', value] = rest.split('=', 2);
        if (value !== undefined) args[name] = value;
      }
    } else {
      stages.at(-1)!.instructions.push({ keyword, args: rest });
    }
  }
  return { args, stages };
}

const FIXED_TAG = /^\d+\.\d+/;

/** The stages a stage builds on, itself first, then its parent stage and so on. */
function lineage(stages: Stage[], stage: Stage): Stage[] {
  const chain = [stage];
  for (let parent = stages.find((s) => s.name === stage.from); parent && !chain.includes(parent); parent = stages.find((s) => s.name === parent!.from)) chain.push(parent);
  return chain;
}

/** `pnpm … deploy --prod … /out/$service` in a RUN: the output directories, `$var` as any one path segment. */
function deployOutputs(stage: Stage): RegExp[] {
  return stage.instructions
    .filter((i) => i.keyword === 'RUN')
    .flatMap((i) => i.args.split(/&&|;|\|\|/))
    .filter((command) => /\bpnpm\b/.test(command) && /\bdeploy\b/.test(command) && /\s--prod\b/.test(command))
    .map((command) => command.trim().split(/\s+/).at(-1)!.replace(/"/g, ''))
    .map((dir) => new RegExp(`^${dir.replace(/[.*+?^{}()|[\]\\]/g, '\\$&').replace(/\$\w+/g, '[^/]+')}/?$`));
}

export function checkDockerfile(text: string, options: { requireDeploy: boolean }): string[] {
  const problems: string[] = [];
  const { stages } = parseDockerfile(text);
  const names = new Set(stages.map((s) => s.name).filter(Boolean));
  if (stages.length === 0) return ['no FROM'];

  for (const stage of stages) {
    if (names.has(stage.from)) continue;
    const digest = stage.from.includes('@');
    const tag = stage.from.split('/').at(-1)!.split(':')[1];
    if (stage.from.includes('$')) problems.push(`FROM ${stage.from}: an ARG without a default`);
    else if (!digest && (tag === undefined || !FIXED_TAG.test(tag))) problems.push(`FROM ${stage.from}: name a fixed version (such as node:20.20.2-bookworm-slim) or a digest`);
  }

  const targets = options.requireDeploy ? stages.filter((s) => s.instructions.some((i) => i.keyword === 'CMD' || i.keyword === 'ENTRYPOINT')) : [stages.at(-1)!];
  if (options.requireDeploy && stages.length < 2) problems.push('a single stage: the build tools would ship in the image');
  const builders = stages.filter((s) => deployOutputs(s).length > 0);
  if (options.requireDeploy && builders.length === 0) problems.push('no stage runs `pnpm deploy --prod`');

  for (const target of targets) {
    const label = target.name ?? `stage ${stages.indexOf(target) + 1}`;
    const chain = lineage(stages, target);
    // The last USER of the stage nearest the target wins (the chain runs from the target back to its base).
    const user = chain.map((s) => s.instructions.filter((i) => i.keyword === 'USER').at(-1)).find(Boolean)?.args.split(':')[0];
    if (user === undefined || user === 'root' || user === '0') problems.push(`${label}: runs as root (give it a USER that is not root)`);
    if (!options.requireDeploy) continue;
    const fromBuilder = chain.find((s) => builders.includes(s));
    if (fromBuilder) problems.push(`${label}: built on ${fromBuilder.name ?? 'the build stage'}, so it ships its sources and dev dependencies`);
    const copiesDeploy = chain.some((s) =>
      s.instructions.some((i) => {
        if (i.keyword !== 'COPY') return false;
        const from = /--from=(\S+)/.exec(i.args)?.[1];
        const builder = builders.find((b) => b.name === from);
        const source = i.args.replace(/--\S+/g, '').trim().split(/\s+/)[0] ?? '';
        return !!builder && deployOutputs(builder).some((output) => output.test(source));
      }),
    );
    if (!copiesDeploy) problems.push(`${label}: copies no \`pnpm deploy --prod\` output`);
  }
  return problems;
}
