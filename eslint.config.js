import path from 'node:path';
import js from '@eslint/js';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const WEB_SRC = path.resolve('apps/web/src');

/**
 * The web console's boundaries (ARCHITECTURE.md): a feature (apps/web/src/features/<area>) imports
 * shared code (components, lib, @console/shared) and its own files, never another feature and never
 * a route; shared code imports no feature. Routes may import features. The desk's features (issue 19
 * §4: the front desk split by use case) may use the ones below them, one way only:
 * front-desk (the room board) -> room-detail -> lock-panel, stays (with its bills) -> invoices (a
 * final bill's invoices and credit notes).
 */
const FEATURE_USES = {
  'features/front-desk': ['features/stays', 'features/room-detail', 'features/lock-panel'],
  'features/room-detail': ['features/stays', 'features/lock-panel'],
  'features/stays': ['features/invoices'],
};
const boundaries = {
  rules: {
    'web-boundaries': {
      meta: { type: 'problem', schema: [] },
      create(context) {
        const file = path.resolve(context.filename);
        const area = (f) => {
          const rel = path.relative(WEB_SRC, f).split(path.sep);
          if (rel[0] === 'features') return `features/${rel[1]}`;
          return rel[0];
        };
        const from = area(file);
        const check = (node, source) => {
          if (typeof source !== 'string') return;
          let target;
          if (source.startsWith('@/')) target = path.join(WEB_SRC, source.slice(2));
          else if (source.startsWith('.')) target = path.resolve(path.dirname(file), source);
          else return;
          const to = area(target);
          if (from.startsWith('features/') && to.startsWith('features/') && to !== from && !FEATURE_USES[from]?.includes(to))
            context.report({ node, message: `${from} must not import ${to}: lift what both need into components/ or lib/` });
          else if (from.startsWith('features/') && to === 'routes')
            context.report({ node, message: `${from} must not import a route: read the route with getRouteApi, or take it as a prop` });
          else if ((from === 'components' || from === 'lib') && to.startsWith('features/'))
            context.report({ node, message: `${from} is shared and must not import ${to}` });
        };
        return {
          ImportDeclaration: (node) => check(node, node.source.value),
          ImportExpression: (node) => check(node, node.source.value),
          ExportNamedDeclaration: (node) => node.source && check(node, node.source.value),
          ExportAllDeclaration: (node) => check(node, node.source.value),
        };
      },
    },
  },
};

const TRANSACTION_ONLY = {
  selector: "CallExpression[callee.property.name='$transaction']",
  message: 'Write through transaction() of db/transaction.ts: it retries a deadlock and publishes the domain events after the commit',
};

export default tseslint.config(
  {
    ignores: ['**/node_modules/**', '**/dist/**', 'apps/server/src/generated/**', 'apps/web/src/routeTree.gen.ts', 'data/**', 'test-output/**', 'coverage/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node }, ecmaVersion: 2023, sourceType: 'module' },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      eqeqeq: ['error', 'smart'],
    },
  },
  {
    files: ['apps/web/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks, boundaries },
    // The console does not use the React Compiler, so its compatibility notes do not apply.
    rules: { ...reactHooks.configs.recommended.rules, 'react-hooks/incompatible-library': 'off', 'boundaries/web-boundaries': 'error' },
  },
  {
    // A feature's queries and what its changes make stale live in its api module
    // (features/<area>/api.ts; shared code's in lib/queries.ts): screens take query options and
    // invalidations from there, never from the tRPC client directly (issue 19 §5). Mutations
    // (`mutationOptions`) are the tRPC client's own.
    files: ['apps/web/src/**/*.{ts,tsx}'],
    ignores: ['apps/web/src/features/*/api.ts', 'apps/web/src/lib/queries.ts', 'apps/web/src/lib/trpc.ts', 'apps/web/src/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...["[callee.object.object.object.name='trpc']", "[callee.object.object.name='trpc']", "[callee.object.name='trpc']"].map((root) => ({
          selector: `CallExpression[callee.property.name=/^(queryOptions|infiniteQueryOptions|queryKey|infiniteQueryKey|pathKey|queryFilter)$/]${root}`,
          message: "A query's options or key come from the feature's api module (features/<area>/api.ts, or lib/queries.ts for shared code)",
        })),
      ],
    },
  },
  {
    // Every write of the domain goes through db/transaction.ts (issue 26 §1): retried on a deadlock,
    // and its domain events published after the commit. A raw `$transaction` would forget both.
    files: ['apps/server/src/**/*.ts'],
    ignores: [
      'apps/server/src/db/transaction.ts',
      'apps/server/src/db/create-owner.ts',
      'apps/server/src/generated/**',
      'apps/server/src/**/*.test.ts',
      'apps/server/src/test/**',
    ],
    rules: {
      'no-restricted-syntax': [
        'error',
        TRANSACTION_ONLY,
        // One way to write a credential (issue 27, docs/decisions/042-one-credential-writer.md): the
        // code policy, the lock's capacity and the offline fallback are applied there, once.
        {
          selector:
            'CallExpression[callee.property.name=/^(create|createMany|createManyAndReturn|upsert)$/][callee.object.property.name=/^(lockPassword|cardGrant)$/]',
          message:
            'Write a lock password or a card grant through modules/credentials/credential-writer.ts (the code policy and the offline fallback live there)',
        },
      ],
    },
  },
  {
    files: ['apps/server/src/modules/credentials/credential-writer.ts'],
    rules: { 'no-restricted-syntax': ['error', TRANSACTION_ONLY] },
  },
  {
    // Plain scripts the console's pages run as they are (apps/web/public: not bundled), in the browser.
    files: ['apps/web/public/**/*.js'],
    languageOptions: { globals: { ...globals.browser }, sourceType: 'script' },
  },
  {
    // Command-line entry points and tools print to the terminal on purpose.
    files: [
      'apps/server/src/seed.ts',
      'apps/server/src/create-owner.ts',
      'apps/server/src/db/schema-diff.cli.ts',
      'scripts/**',
      'bench/**',
      'apps/server/build.mjs',
      'e2e/**',
    ],
    rules: { 'no-console': 'off' },
  },
);
