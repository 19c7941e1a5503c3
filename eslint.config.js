// Flat config: typescript-eslint's recommended rules plus the project's own boundaries.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

export default tseslint.config(
  { ignores: ['out/**', 'dist/**', 'node_modules/**', 'test/fixtures/**', 'release/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    // The core must never depend on Electron: only src/main/electron may import it.
    files: ['src/**/*.{ts,tsx}'],
    // The preload is Electron's own bridge code, run in the page's isolated world: it must import electron.
    ignores: ['src/main/electron/**', 'src/preload/**'],
    rules: {
      'no-restricted-imports': ['error', { paths: [{ name: 'electron', message: 'Only src/main/electron/ may import electron.' }] }],
    },
  },
);
