/*
 * The documented examples a user would copy, as files a scratch app can type-check: every `ts`
 * block of every package README, and the custom-scorer example the plugin docs include. README
 * blocks are fragments (they use a `pool`, a `yamlText`, a framework `app` they do not declare),
 * so each is compiled after SNIPPET_CONTEXT, which declares those names ambiently: the check is
 * of our packages' types as the fragment uses them, not of the reader's surroundings.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';

/** One example to type-check: where it comes from and its source. */
export interface Snippet {
  /** `packages/core/README.md#1`, `examples/custom-scorer.ts`. */
  readonly origin: string;
  /** File name inside the scratch app's `src/`. */
  readonly file: string;
  readonly source: string;
}

/** The ```ts fenced blocks of a markdown text, in order. */
export function tsBlocks(markdown: string): string[] {
  const blocks: string[] = [];
  const fence = /^```(?:ts|typescript)\s*\n([\s\S]*?)^```\s*$/gm;
  for (const m of markdown.matchAll(fence)) blocks.push(m[1] ?? '');
  return blocks;
}

/** Every package README's ts blocks, and the documented custom-scorer example. */
export function documentedExamples(root: string, packageDirs: readonly string[]): Snippet[] {
  const out: Snippet[] = [];
  for (const dir of packageDirs) {
    const readme = join(root, dir, 'README.md');
    if (!existsSync(readme)) continue;
    const slug = dir.replace(/^packages\//, '');
    tsBlocks(readFileSync(readme, 'utf8')).forEach((source, i) => {
      // `export {}` keeps a block without imports a module, so its names stay its own.
      out.push({ origin: `${dir}/README.md#${i + 1}`, file: `readme-${slug}-${i + 1}.ts`, source: `${source}\nexport {};\n` });
    });
  }
  // docs/scheduling.md ("Writing your own plugin") shows and links this file.
  for (const name of readdirSync(join(root, 'examples')).filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))) {
    out.push({ origin: `examples/${name}`, file: `example-${name}`, source: readFileSync(join(root, 'examples', name), 'utf8') });
  }
  return out;
}

/**
 * Ambient declarations of the names README fragments leave to the reader. A fragment's own
 * declaration of the same name shadows these (a module scope inside the global one).
 */
export const SNIPPET_CONTEXT = `
import type { EndpointPool, PluginRegistry, PrefixHasher, loadConfig as LoadConfig } from './context-types.js';

declare global {
  /** The HTTP request a handler received. */
  const path: string;
  const headers: Record<string, string | string[] | undefined>;
  const body: Uint8Array;
  const signal: AbortSignal;
  /** The reader's own forwarding code. */
  function forward(...args: unknown[]): Promise<void>;
  const upstream: { abort(): void };
  /** A config text the reader loaded. */
  const yamlText: string;
  const text: string;
  const payload: Uint8Array;
  /** The reader's objects around the fragment. */
  const pool: EndpointPool;
  const registry: PluginRegistry;
  const hasher: PrefixHasher;
  const loadConfig: typeof LoadConfig;
  const promRegistry: import('prom-client').Registry;
  const app: { use(handler: unknown): unknown };
  const fastify: { register(plugin: unknown, options: unknown): Promise<unknown> };
  const gateway: import('@switchyard/express').Gateway;
}
export {};
`;

/** Types SNIPPET_CONTEXT refers to, re-exported from the installed packages. */
export const SNIPPET_CONTEXT_TYPES = `
export type { EndpointPool, PluginRegistry } from '@switchyard/core';
export type { loadConfig } from '@switchyard/core';
export type { PrefixHasher } from '@switchyard/prefix-index';
`;
