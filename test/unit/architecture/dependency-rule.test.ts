/**
 * The layers of the code (STYLE: "Folders form layers"; DESIGN: Layout): the kernel
 * (services/kernel) imports nothing outside itself; services/ imports neither indexer/ nor stack/;
 * indexer/ imports only the kernel and mappings/. Checked on the import specifiers of every source
 * file, read with the TypeScript compiler's own pre-processor.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const ROOT = path.resolve(__dirname, '../../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === 'node_modules' ? [] : sourceFiles(rel);
    return e.name.endsWith('.ts') ? [rel] : [];
  });
}

/** Repository-relative targets of a file's relative imports (packages are not layers). */
export function localImports(file: string, text = readFileSync(path.join(ROOT, file), 'utf8')): string[] {
  return ts
    .preProcessFile(text, true, true)
    .importedFiles.map((f) => f.fileName)
    .filter((spec) => spec.startsWith('.'))
    .map((spec) => path.normalize(path.join(path.dirname(file), spec)));
}

interface Rule {
  files: string;
  may: (target: string) => boolean;
  says: string;
}

const inside = (dir: string) => (target: string) => target === dir || target.startsWith(dir + path.sep);

export const RULES: Rule[] = [
  { files: 'services/kernel', may: inside('services/kernel'), says: 'the kernel imports nothing outside itself' },
  { files: 'services', may: (t) => !inside('indexer')(t) && !inside('stack')(t), says: 'services/ imports neither indexer/ nor stack/' },
  {
    files: 'indexer',
    may: (t) => inside('services/kernel')(t) || inside('mappings')(t) || inside('indexer')(t),
    says: 'indexer/ imports only the kernel and mappings/',
  },
];

export function violations(files: Array<{ file: string; imports: string[] }>): string[] {
  const out: string[] = [];
  for (const rule of RULES) {
    for (const { file, imports } of files) {
      if (!inside(rule.files)(file)) continue;
      for (const target of imports) if (!rule.may(target)) out.push(`${file} imports ${target}: ${rule.says}`);
    }
  }
  return out;
}

describe('the dependency rule', () => {
  it('holds for every source file of services/, indexer/ and stack/', () => {
    const files = ['services', 'indexer', 'stack'].flatMap(sourceFiles).map((file) => ({ file, imports: localImports(file) }));
    expect(files.length).toBeGreaterThan(50);
    expect(violations(files)).toEqual([]);
  });

  it('reports a kernel file that imports the service, and a service file that imports the indexer', () => {
    const kernel = 'services/kernel/engine/pricing.ts';
    const service = 'services/tools/get-quote.ts';
    const found = violations([
      { file: kernel, imports: localImports(kernel, "import { x } from '../../tools/registry';") },
      { file: service, imports: localImports(service, "import { y } from '../../indexer/runner';") },
    ]);
    expect(found).toEqual([
      'services/kernel/engine/pricing.ts imports services/tools/registry: the kernel imports nothing outside itself',
      'services/tools/get-quote.ts imports indexer/runner: services/ imports neither indexer/ nor stack/',
    ]);
  });
});
