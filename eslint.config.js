// ESLint here guards one thing: no regular expression that a model's or a server's bytes can drive
// into super-linear time (a model controls every byte of a response). The rule set stays focused —
// the regexp plugin's recommended rules plus the two backtracking rules, on a plain TypeScript
// parse — so its findings are about regexes, not style.
import regexp from 'eslint-plugin-regexp'
import tseslint from 'typescript-eslint'

export default [
  {
    ignores: ['**/dist/**', '**/node_modules/**', '**/.turbo/**', 'examples/**', 'bench/**'],
  },
  {
    files: ['packages/*/src/**/*.ts'],
    languageOptions: { parser: tseslint.parser, sourceType: 'module' },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    plugins: { regexp },
    rules: {
      ...regexp.configs.recommended.rules,
      'regexp/no-super-linear-backtracking': 'error',
      'regexp/no-super-linear-move': 'error',
      // Off: the `i` flag it asks for also makes every later literal in the pattern case-insensitive,
      // a trap for the next edit; `[A-Za-z_]` says what it means.
      'regexp/use-ignore-case': 'off',
    },
  },
]
