import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    tsconfig: 'tsconfig.build.json',
    dts: true,
    target: 'node20',
    sourcemap: true,
    clean: true,
    treeshake: true,
  },
  {
    // The `switchyard-sim` bin: ESM only (it uses top-level await), with a shebang.
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
