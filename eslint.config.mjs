// ESLint (flat config): typescript-eslint's recommended rules with type information, plus the
// promise rules that keep a rejection from going unhandled; formatting is Prettier's alone
// (eslint-config-prettier turns off the rules it owns). `npm run lint` runs both; CI runs it.
import js from '@eslint/js';
import prettier from 'eslint-config-prettier';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'coverage/**', 'test-artifacts/**', 'profiles/**', '**/*.js', '**/*.mjs'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // A leading underscore names a value left out on purpose (a rest sibling, an unused parameter).
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', ignoreRestSiblings: true }],
    },
  },
  {
    // End-to-end and integration tests read JSON answers over HTTP and MCP and assert their shape field
    // by field; the answers' types are checked where they are made (the output schemas, validated in
    // test/e2e/output-schemas.test.ts), not restated in every test.
    files: ['test/e2e/**/*.ts', 'test/integration/**/*.ts', 'test/support/fixture.ts', 'test/support/json-rpc-answer.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  prettier,
);
