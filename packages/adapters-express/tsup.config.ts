import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts', fastify: 'src/fastify/index.ts' },
    format: ['esm', 'cjs'],
    tsconfig: 'tsconfig.build.json',
    dts: true,
    target: 'node20',
    sourcemap: true,
    clean: false,
    treeshake: true,
  },
  {
    // The CLI is ESM only and runs directly: `switchyard-gateway --endpoints ...`.
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    tsconfig: 'tsconfig.build.json',
    dts: false,
    target: 'node20',
    sourcemap: true,
    clean: false,
    banner: { js: '#!/usr/bin/env node' },
  },
]);
