/**
 * Unit tests need no server; integration and end-to-end tests share one real ES + Mongo-wire stack.
 * Tests are transpiled only (SWC): `npm run typecheck` is the one type check (docs/decisions.md,
 * "The test loop"). Every file runs with an ordinary global object (test/support/plain-global-environment.ts).
 */
const swc = [
  '@swc/jest',
  {
    jsc: { target: 'es2022', parser: { syntax: 'typescript' } },
    module: { type: 'commonjs' },
    sourceMaps: 'inline',
  },
];

/** @type {import('jest').Config} */
module.exports = {
  testTimeout: 120000,
  projects: [
    {
      displayName: 'unit',
      testEnvironment: '<rootDir>/test/support/plain-global-environment.ts',
      transform: { '^.+\\.ts$': swc },
      testMatch: ['<rootDir>/test/unit/**/*.test.ts'],
    },
    {
      displayName: 'integration',
      testEnvironment: '<rootDir>/test/support/plain-global-environment.ts',
      transform: { '^.+\\.ts$': swc },
      testMatch: ['<rootDir>/test/integration/**/*.test.ts', '<rootDir>/test/e2e/**/*.test.ts'],
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
