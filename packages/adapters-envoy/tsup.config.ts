import { defineConfig } from 'tsup';

export default defineConfig([
  {
    entry: { index: 'src/index.ts' },
    format: ['esm', 'cjs'],
    tsconfig: 'tsconfig.build.json',
    dts: true,
    target: 'node20',
    sourcemap: true,
    clean: ['index.*'],
    treeshake: true,
    // The proto directory is located relative to the module file; the shim gives CJS an import.meta.url.
    shims: true,
  },
  {
    entry: { cli: 'src/cli/main.ts' },
    format: ['esm'],
    tsconfig: 'tsconfig.build.json',
    dts: false,
    target: 'node20',
    sourcemap: true,
    clean: ['cli.*'],
    banner: { js: '#!/usr/bin/env node' },
  },
]);
