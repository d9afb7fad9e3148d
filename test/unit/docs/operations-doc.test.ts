/**
 * docs/operations.md is read by operators who have not seen the code: it names every environment
 * variable the configuration reads, and every compiled entry point it tells them to run exists.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
const doc = readFileSync(path.join(ROOT, 'docs/operations.md'), 'utf8');

describe('docs/operations.md', () => {
  it('lists every environment variable services/kernel/config.ts reads', () => {
    const config = readFileSync(path.join(ROOT, 'services/kernel/config.ts'), 'utf8');
    const names = [...new Set([...config.matchAll(/\(env, '([A-Z][A-Z0-9_]*)'/g)].map((m) => m[1]))];
    expect(names.length).toBeGreaterThan(20);
    expect(names.filter((n) => !doc.includes(`\`${n}\``))).toEqual([]);
  });

  it('names compiled entry points (node dist/….js) whose sources exist', () => {
    const entries = [...new Set([...doc.matchAll(/node dist\/(\S+)\.js/g)].map((m) => m[1]))];
    expect(entries).toEqual(expect.arrayContaining(['services/main', 'indexer/worker', 'indexer/reindex-cli']));
    expect(entries.filter((e) => !existsSync(path.join(ROOT, `${e}.ts`)))).toEqual([]);
  });
});
