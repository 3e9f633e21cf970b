/**
 * Docker Compose files as Compose reads them, for the tests (no Docker engine runs in CI, so
 * `docker compose config` cannot): each service's environment merged across files, and Compose's
 * interpolation of `${VAR}`, `${VAR:-default}` and `${VAR:?message}` (`$$` is a literal `$`).
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';

type ComposeFile = { services?: Record<string, { environment?: Record<string, string | number | boolean | null> }> };

export function readCompose(path: string): ComposeFile {
  // `<<` merge keys, which the files use for their shared environment.
  return parse(readFileSync(path, 'utf8'), { merge: true }) as ComposeFile;
}

/** A service's environment as the files give it, later files overriding earlier ones key by key. */
export function serviceEnvironment(files: ComposeFile[], service: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const file of files) {
    for (const [key, value] of Object.entries(file.services?.[service]?.environment ?? {})) env[key] = value === null ? '' : String(value);
  }
  return env;
}

export class MissingVariableError extends Error {
  constructor(
    readonly variable: string,
    readonly reason: string,
  ) {
    super(`required variable ${variable} is missing a value: ${reason}`);
  }
}

/** `${NAME:?message}` anywhere in a value: the variables it requires, with their messages. */
export function requiredVariables(value: string): { variable: string; message: string }[] {
  return [...value.matchAll(/\$\{(\w+):\?([^}]*)\}/g)].map((m) => ({ variable: m[1]!, message: m[2]! }));
}

/** Compose's interpolation: an unset or empty variable takes its `:-` default, stops the start with its `:?` message, or reads as "". */
export function interpolate(value: string, vars: Record<string, string | undefined>): string {
  return value.replace(/\$\$|\$\{(\w+)(?::([?-])([^}]*))?\}|\$(\w+)/g, (whole, braced?: string, kind?: string, word?: string, bare?: string) => {
    if (whole === '$$') return '$';
    const name = (braced ?? bare)!;
    const given = vars[name];
    if (given !== undefined && given !== '') return given;
    if (kind === '-') return word ?? '';
    if (kind === '?') throw new MissingVariableError(name, word ?? '');
    return '';
  });
}
