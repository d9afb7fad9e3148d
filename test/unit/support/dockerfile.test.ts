/**
 * The Dockerfile reader and the .dockerignore filter the runtime-stage test replays the image with
 * (test/e2e/runtime-stage.test.ts): what they read decides what that test can catch.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { dockerfileStages, envOf, execFormOf, lastOf, parseCopy, replayCopy, stageNamed } from '../../support/dockerfile';
import { dockerignoreFilter } from '../../support/dockerignore';

const SAMPLE = [
  'FROM node:24 AS build',
  'WORKDIR /app',
  '# a comment between lines',
  'COPY package.json package-lock.json ./',
  'RUN npm ci \\',
  '  && npm run build',
  'FROM node:24 AS runtime',
  'ENV NODE_ENV=production PORT=3000',
  'COPY --from=build --chown=1000:1000 /app/dist ./dist',
  'USER 1000:1000',
  'HEALTHCHECK --interval=10s \\',
  '  CMD ["node", "-e", "1"]',
  'CMD ["node", "dist/main.js"]',
].join('\n');

describe('dockerfileStages', () => {
  it("reads each stage's instructions in order, joining continuation lines and dropping comments", () => {
    const stages = dockerfileStages(SAMPLE);
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
    expect(stageNamed(stages, 'build').instructions).toEqual([
      { keyword: 'WORKDIR', args: '/app' },
      { keyword: 'COPY', args: 'package.json package-lock.json ./' },
      { keyword: 'RUN', args: 'npm ci && npm run build' },
    ]);
  });

  it("gives a stage's ENV, USER, CMD and HEALTHCHECK command", () => {
    const runtime = stageNamed(dockerfileStages(SAMPLE), 'runtime');
    expect(envOf(runtime)).toEqual({ NODE_ENV: 'production', PORT: '3000' });
    expect(lastOf(runtime, 'USER')).toBe('1000:1000');
    expect(execFormOf(runtime, 'CMD')).toEqual(['node', 'dist/main.js']);
    expect(execFormOf(runtime, 'HEALTHCHECK')).toEqual(['node', '-e', '1']);
  });

  it("reads the repository's Dockerfile into a build and a runtime stage", () => {
    const stages = dockerfileStages(readFileSync(path.resolve(__dirname, '../../../Dockerfile'), 'utf8'));
    expect(stages.map((s) => s.name)).toEqual(['build', 'runtime']);
  });
});

describe('parseCopy', () => {
  it('reads --from and the sources and destination, and refuses a flag it would not replay', () => {
    expect(parseCopy('--from=build --chown=1000:1000 /app/dist ./dist')).toEqual({ from: 'build', sources: ['/app/dist'], dest: './dist' });
    expect(parseCopy('a b ./')).toEqual({ from: null, sources: ['a', 'b'], dest: './' });
    expect(() => parseCopy('--link a ./a')).toThrow(/--link/);
  });
});

describe('replayCopy', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'replay-copy-'));
    mkdirSync(path.join(dir, 'ctx/src/deep'), { recursive: true });
    writeFileSync(path.join(dir, 'ctx/src/a.ts'), 'a');
    writeFileSync(path.join(dir, 'ctx/src/deep/debug.log'), 'log');
    writeFileSync(path.join(dir, 'ctx/one.json'), '{}');
    mkdirSync(path.join(dir, 'out'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("copies a folder's contents into the destination, leaving out what .dockerignore excludes", () => {
    const context = { dir: path.join(dir, 'ctx'), workdir: '/', included: dockerignoreFilter('**/*.log\n') };
    replayCopy(parseCopy('src ./code'), context, { dir: path.join(dir, 'out'), workdir: '/app' });
    expect(readFileSync(path.join(dir, 'out/code/a.ts'), 'utf8')).toBe('a');
    expect(() => readFileSync(path.join(dir, 'out/code/deep/debug.log'))).toThrow(/ENOENT/);
  });

  it('puts files into a destination ending in / and refuses a source the context excludes', () => {
    const context = { dir: path.join(dir, 'ctx'), workdir: '/', included: dockerignoreFilter('src\n') };
    replayCopy(parseCopy('one.json ./'), context, { dir: path.join(dir, 'out'), workdir: '/app' });
    expect(readFileSync(path.join(dir, 'out/one.json'), 'utf8')).toBe('{}');
    expect(() => replayCopy(parseCopy('src ./src'), context, { dir: path.join(dir, 'out'), workdir: '/app' })).toThrow(/excluded/);
  });
});

describe('dockerignoreFilter', () => {
  it('matches `*` within the root only and `**/` at any depth, and a folder takes what is below it', () => {
    const rootOnly = dockerignoreFilter('*.log\nnode_modules\n');
    expect(rootOnly('npm-debug.log')).toBe(false);
    expect(rootOnly('services/debug.log')).toBe(true);
    expect(rootOnly('node_modules/koa/index.js')).toBe(false);
    expect(rootOnly('services/node_modules/x.js')).toBe(true);
    const anyDepth = dockerignoreFilter('**/*.log\n');
    expect(anyDepth('npm-debug.log')).toBe(false);
    expect(anyDepth('services/deep/debug.log')).toBe(false);
    expect(anyDepth('services/main.ts')).toBe(true);
  });

  it('lets a later `!` pattern bring a path back', () => {
    const keep = dockerignoreFilter('docs\n!docs/operations.md\n');
    expect(keep('docs/decisions.md')).toBe(false);
    expect(keep('docs/operations.md')).toBe(true);
  });

  it("keeps no .log file of any folder out of the repository's build context", () => {
    const included = dockerignoreFilter(readFileSync(path.resolve(__dirname, '../../../.dockerignore'), 'utf8'));
    expect(included('services/widgets/debug.log')).toBe(false);
    expect(included('npm-debug.log')).toBe(false);
    expect(included('services/main.ts')).toBe(true);
  });
});
