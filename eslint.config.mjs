// Lint gate: zero warnings. Only src/store may import the mongodb driver; no import cycles; imports follow the data
// flow (LAYERS below, enforced by import/no-restricted-paths).
import js from '@eslint/js';
import importPlugin from 'eslint-plugin-import';
import tseslint from 'typescript-eslint';

/**
 * The layers of src/, lowest first: a folder may import its own layer's shared leaves and anything listed before
 * it, never what comes after. domain → store → ingest/query → graphql → server, with app/ wiring them and cli/ and
 * main.ts on top. `accesslog/` (log lines → hits) and `auth/` (keys, scopes) sit beside ingest and query, on
 * domain alone; `logimport/` feeds ingest; `config/` reads the environment into the settings each layer declares.
 */
const LEAVES = ['errors', 'time', 'logging', 'metrics'];
const LAYERS = [
  ['domain'],
  ['store'],
  ['ingest', 'query', 'accesslog', 'auth'],
  ['logimport', 'graphql'],
  ['server'],
  ['config'],
  ['app'],
  // The entry (startApp) wires the parts in app/ in order; they never import it.
  ['app.ts'],
  ['cli', 'main.ts'],
];
const ALL = [...LEAVES, ...LAYERS.flat()];
const at = (name) => `./src/${name}`;
const layerZones = LAYERS.flatMap((layer, i) => {
  const above = LAYERS.slice(i + 1).flat();
  return layer.map((name) => ({
    target: at(name),
    // Siblings of one layer stay apart too (ingest never imports query, nor query ingest).
    from: [...above, ...layer.filter((other) => other !== name)].map(at),
    message: `src/${name} sits below these in the data flow (eslint.config.mjs LAYERS); move the shared part down.`,
  }));
});
const leafZones = LEAVES.map((name) => ({
  target: at(name),
  from: ALL.filter((other) => other !== name).map(at),
  message: `src/${name} is a leaf every layer uses; it imports nothing else of tally's.`,
}));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      '.tools/**',
      'data/**',
      'coverage/**',
      'test/generated/**',
      'web/dashboard/generated/**',
      'bench-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx'],
    plugins: { import: importPlugin },
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    settings: { 'import/resolver': { node: { extensions: ['.ts', '.js', '.json'] } } },
    rules: {
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'separate-type-imports' },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      'no-console': 'error',
      'import/no-cycle': ['error', { maxDepth: 10 }],
      'import/no-restricted-paths': ['error', { zones: [...leafZones, ...layerZones] }],
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'mongodb', message: 'Only src/store/ talks to the database driver.' }],
          patterns: [{ group: ['mongodb-memory-server*'], message: 'Only src/store/ starts databases.' }],
        },
      ],
    },
  },
  {
    files: ['src/store/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-restricted-imports': 'off' },
  },
  {
    files: ['bench/**/*.ts', 'scripts/**/*.ts'],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    languageOptions: {
      globals: {
        require: 'readonly',
        module: 'writable',
        process: 'readonly',
        __dirname: 'readonly',
        console: 'readonly',
      },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
