// Type-aware lint: the mistakes the compiler lets through (floating promises, non-exhaustive switches, unused code).
import tseslint from 'typescript-eslint';

const rules = {
  '@typescript-eslint/no-floating-promises': 'error',
  '@typescript-eslint/no-misused-promises': 'error',
  '@typescript-eslint/await-thenable': 'error',
  '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
  '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
  '@typescript-eslint/no-unnecessary-type-assertion': 'error',
  '@typescript-eslint/no-deprecated': 'error',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'coverage/**', '.tmp*/**'] },
  {
    files: ['packages/*/src/**/*.ts', 'examples/**/*.ts'],
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { project: ['./tsconfig.spec.json'], tsconfigRootDir: import.meta.dirname } },
    rules,
  },
  {
    // The console's page: browser code, checked against its own project (DOM, JSX).
    files: ['packages/console/web/**/*.{ts,tsx}'],
    extends: [tseslint.configs.recommended],
    languageOptions: { parserOptions: { project: ['./packages/console/web/tsconfig.json'], tsconfigRootDir: import.meta.dirname } },
    rules,
  },
);
