import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { index: 'src/index.ts', internal: 'src/internal.ts', testing: 'src/testing/index.ts' },
  format: ['esm', 'cjs'],
  tsconfig: 'tsconfig.build.json',
  dts: true,
  target: 'node20',
  sourcemap: true,
  clean: true,
  treeshake: true,
});
