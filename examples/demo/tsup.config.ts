import { defineConfig } from 'tsup';

// Bundles the demo into one ESM file; every @switchyard/* import stays external so the demo runs
// against the workspace packages as built by `npm run build`.
export default defineConfig({
  entry: { demo: 'examples/demo/demo.ts' },
  outDir: 'examples/demo/dist',
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  dts: false,
  sourcemap: true,
  external: [/^@switchyard\//, 'openai'],
});
