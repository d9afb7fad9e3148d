/**
 * The Dockerfile read as its stages, so tests can replay what an image build would do without a
 * Docker engine: each stage's instructions in order (continuation lines joined, comments dropped),
 * COPY lines with their --from and --chown, ENV, WORKDIR, USER, and CMD/HEALTHCHECK in exec form.
 */
import { cpSync, statSync } from 'node:fs';
import path from 'node:path';

export interface Instruction {
  keyword: string;
  args: string;
}

export interface Stage {
  name: string;
  instructions: Instruction[];
}

export interface CopyLine {
  /** The stage named by --from, or null for the build context. */
  from: string | null;
  sources: string[];
  dest: string;
}

export function dockerfileStages(text: string): Stage[] {
  const joined = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ');
  const stages: Stage[] = [];
  for (const line of joined.split('\n')) {
    const m = /^\s*([A-Za-z]+)\s+(.*\S)\s*$/.exec(line);
    if (!m) continue;
    const keyword = m[1].toUpperCase();
    const args = m[2].replace(/\s+/g, ' ');
    if (keyword === 'FROM') {
      const name = /\sAS\s+(\S+)$/i.exec(args)?.[1] ?? String(stages.length);
      stages.push({ name, instructions: [] });
    } else if (stages.length > 0) {
      stages[stages.length - 1].instructions.push({ keyword, args });
    }
  }
  return stages;
}

export function stageNamed(stages: Stage[], name: string): Stage {
  const stage = stages.find((s) => s.name === name);
  if (!stage) throw new Error(`the Dockerfile has no stage "${name}"`);
  return stage;
}

/** The last value of a single-argument instruction (WORKDIR, USER), or null. */
export function lastOf(stage: Stage, keyword: string): string | null {
  return stage.instructions.filter((i) => i.keyword === keyword).pop()?.args ?? null;
}

/** The stage's ENV, in its `KEY=value` form. */
export function envOf(stage: Stage): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.instructions.filter((x) => x.keyword === 'ENV')) {
    for (const pair of i.args.split(' ')) {
      const eq = pair.indexOf('=');
      if (eq <= 0) throw new Error(`ENV ${i.args}: only the KEY=value form is read`);
      env[pair.slice(0, eq)] = pair.slice(eq + 1);
    }
  }
  return env;
}

export function parseCopy(args: string): CopyLine {
  const words = args.split(' ');
  let from: string | null = null;
  while (words[0]?.startsWith('--')) {
    const flag = words.shift()!;
    if (flag.startsWith('--from=')) from = flag.slice('--from='.length);
    else if (!flag.startsWith('--chown=') && !flag.startsWith('--chmod=')) throw new Error(`COPY ${args}: flag ${flag} is not replayed`);
  }
  const dest = words.pop();
  if (!dest || words.length === 0) throw new Error(`COPY ${args}: needs a source and a destination`);
  return { from, sources: words, dest };
}

/** A CMD or HEALTHCHECK's command in exec form (the JSON array), e.g. ["node", "dist/services/main.js"]. */
export function execFormOf(stage: Stage, keyword: 'CMD' | 'HEALTHCHECK'): string[] {
  const args = lastOf(stage, keyword);
  if (args === null) throw new Error(`stage ${stage.name} has no ${keyword}`);
  const json = keyword === 'HEALTHCHECK' ? args.slice(args.indexOf('CMD ') + 'CMD '.length) : args;
  const argv: unknown = JSON.parse(json);
  if (!Array.isArray(argv) || !argv.every((a) => typeof a === 'string')) throw new Error(`${keyword} is not in exec form: ${args}`);
  return argv;
}

/** A stage's filesystem laid out in a folder: `dir` stands for the stage's root at `workdir`. */
export interface Place {
  dir: string;
  workdir: string;
  /** Whether a path (relative to `dir`) may be copied: the build context's .dockerignore. */
  included?: (relativePath: string) => boolean;
}

function inside(place: Place, p: string): string {
  return path.isAbsolute(p) ? path.join(place.dir, path.relative(place.workdir, p)) : path.join(place.dir, p);
}

/**
 * One COPY as Docker does it: a directory's contents go into the destination, a file goes to the
 * destination path, or into it when it ends with `/` or there are several sources.
 */
export function replayCopy(copy: CopyLine, source: Place, target: Place): void {
  const intoDir = copy.dest.endsWith('/') || copy.sources.length > 1;
  const included = source.included ?? (() => true);
  for (const src of copy.sources) {
    const from = inside(source, src);
    if (!included(path.relative(source.dir, from))) throw new Error(`COPY ${src}: excluded from the build context`);
    const dest = inside(target, copy.dest);
    const filter = (f: string): boolean => included(path.relative(source.dir, f));
    if (statSync(from).isDirectory()) cpSync(from, dest, { recursive: true, filter });
    else cpSync(from, intoDir ? path.join(dest, path.basename(src)) : dest);
  }
}
