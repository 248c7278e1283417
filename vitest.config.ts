import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string): string => fileURLToPath(new URL(`./packages/${p}`, import.meta.url));

/** Tests run against the TypeScript sources: each package name resolves to its `src/`. */
export default defineConfig({
  resolve: {
    alias: [
      { find: /^@switchyard\/core\/testing$/, replacement: src('core/src/testing/index.ts') },
      { find: /^@switchyard\/core$/, replacement: src('core/src/index.ts') },
      { find: /^@switchyard\/core\/internal$/, replacement: src('core/src/internal.ts') },
      { find: /^@switchyard\/prefix-index$/, replacement: src('prefix-index/src/index.ts') },
      { find: /^@switchyard\/flow-control$/, replacement: src('flow-control/src/index.ts') },
      { find: /^@switchyard\/express\/fastify$/, replacement: src('adapters-express/src/fastify/index.ts') },
      { find: /^@switchyard\/express$/, replacement: src('adapters-express/src/index.ts') },
      { find: /^@switchyard\/envoy$/, replacement: src('adapters-envoy/src/index.ts') },
      { find: /^@switchyard\/kubernetes$/, replacement: src('adapters-kubernetes/src/index.ts') },
      { find: /^@switchyard\/simulator$/, replacement: src('simulator/src/index.ts') },
      { find: /^@switchyard\/redis$/, replacement: src('state-redis/src/index.ts') },
    ],
  },
  test: {
    include: ['packages/*/src/**/*.test.ts', 'examples/**/*.test.ts', 'tests/**/*.test.ts'],
    restoreMocks: true,
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
  },
});
