/**
 * Browser bundles kept on disk by what they were built from (BROWSER_BUNDLE_CACHE, off unless set;
 * the test run sets it): a process that finds a bundle whose inputs are all as they were uses it
 * instead of running esbuild (docs/decisions.md, "Build and runtime").
 *
 * An entry's name is a hash of everything given to esbuild but the files (its version, the options,
 * the plugins' code, the working directory); the entry records what the build read: each input file's
 * hash, and for every directory from the inputs up to their common ancestor its listing and the hash of
 * any package.json or tsconfig.json in it (a file added where a resolution passes, or a manifest
 * changed, can change what an import resolves to). A bundle is used only when all of them match; an
 * input changed while it was being built leaves no entry. Entries are written to a temporary file and
 * renamed, so processes building at once never read half an entry.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readFile, readdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

interface Entry {
  /** Absolute path → sha256 of the file, or null when it did not exist. */
  files: Record<string, string | null>;
  /** Absolute path → sha256 of the sorted names in the directory, or null when it did not exist. */
  dirs: Record<string, string | null>;
  output: string;
}

/** What one build made and read. */
export interface BuiltBundle {
  output: string;
  /** Every file the build read, absolute. */
  inputs: string[];
}

const sha256 = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');

const MANIFESTS = ['package.json', 'tsconfig.json', 'jsconfig.json'];

async function fileHash(file: string): Promise<string | null> {
  try {
    return sha256(await readFile(file));
  } catch {
    return null;
  }
}

async function listing(dir: string): Promise<string[] | null> {
  try {
    return (await readdir(dir)).sort();
  } catch {
    return null;
  }
}

function commonAncestor(dirs: string[]): string {
  let common = dirs[0];
  for (const dir of dirs) while (common !== dir && !dir.startsWith(common.endsWith(path.sep) ? common : common + path.sep)) common = path.dirname(common);
  return common;
}

/** The files and directories a build depended on, as they are now. */
async function snapshot(inputs: string[]): Promise<Pick<Entry, 'files' | 'dirs'>> {
  const top = commonAncestor(inputs.map((f) => path.dirname(f)));
  const dirs = new Set<string>();
  for (const file of inputs) {
    let dir = path.dirname(file);
    while (!dirs.has(dir)) {
      dirs.add(dir);
      if (dir === top || dir === path.dirname(dir)) break;
      dir = path.dirname(dir);
    }
  }
  const files = new Set(inputs);
  const dirHashes: Record<string, string | null> = {};
  await Promise.all(
    [...dirs].map(async (dir) => {
      const names = await listing(dir);
      dirHashes[dir] = names === null ? null : sha256(names.join('\n'));
      for (const name of names ?? []) if (MANIFESTS.includes(name)) files.add(path.join(dir, name));
    }),
  );
  const fileHashes: Record<string, string | null> = {};
  await Promise.all([...files].map(async (file) => void (fileHashes[file] = await fileHash(file))));
  return { files: fileHashes, dirs: dirHashes };
}

async function stillValid(entry: Entry): Promise<boolean> {
  const checks = [
    ...Object.entries(entry.files).map(async ([file, hash]) => (await fileHash(file)) === hash),
    ...Object.entries(entry.dirs).map(async ([dir, hash]) => {
      const names = await listing(dir);
      return (names === null ? null : sha256(names.join('\n'))) === hash;
    }),
  ];
  return (await Promise.all(checks)).every(Boolean);
}

/** Whether any of the paths was modified at or after `since` (ms), or is gone. */
async function changedSince(paths: string[], since: number): Promise<boolean> {
  const times = await Promise.all(
    paths.map((p) =>
      stat(p).then(
        (s) => s.mtimeMs,
        () => Infinity,
      ),
    ),
  );
  return times.some((t) => t >= since);
}

/**
 * The bundle `key` names, from `dir` when its inputs are unchanged, else from `build` (then kept).
 * `key` must hold everything the output depends on besides the files the build reads.
 */
export async function cachedBundle(dir: string, key: unknown, build: () => Promise<BuiltBundle>): Promise<string> {
  const file = path.join(dir, `${sha256(JSON.stringify(key))}.json`);
  try {
    const entry = JSON.parse(await readFile(file, 'utf8')) as Entry;
    if (await stillValid(entry)) return entry.output;
  } catch {
    /* no entry yet, or one cut short: build */
  }
  // Made before the build starts: making it changes its parent's listing, which may be one of the inputs' directories.
  await mkdir(dir, { recursive: true });
  // File times are whole seconds on some file systems: a change in the second before the build counts as during it.
  const started = Date.now() - 2_000;
  const built = await build();
  const { files, dirs } = await snapshot(built.inputs);
  if (await changedSince([...Object.keys(files), ...Object.keys(dirs)], started)) return built.output;
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  try {
    await writeFile(temp, JSON.stringify({ files, dirs, output: built.output } satisfies Entry));
    await rename(temp, file);
  } catch {
    await rm(temp, { force: true });
  }
  return built.output;
}
