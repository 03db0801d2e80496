import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  // examples/ are other projects' files (CommonJS, vitest, Playwright): test:consumers runs them.
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'bench/results/', '.tmp/', 'examples/'] },
  js.configs.recommended,
  ...tseslint.configs.strictTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true }],
      // Express tells error handlers by their four parameters, used or not.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    files: ['**/*.js'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
