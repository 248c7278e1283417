/*
 * A scratch application outside the repository that depends on our packages the way a user's
 * would: `npm pack` tarballs, plus the newest zod and undici our ranges allow, fetched from the
 * registry. Nothing of the workspace (no symlinks, no hoisted dev dependencies) is visible to it,
 * so a missing `exports` entry, an unpublished `.d.ts` or a second, incompatible zod shows up as
 * it would for the user.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The environment for child commands: without the `npm_*` variables `npm run`/`npx` set for the
 * workspace (its prefix, its workspaces), which would make the scratch app's npm act on the repo.
 */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!k.startsWith('npm_') && k !== 'INIT_CWD') env[k] = v;
  return { ...env, npm_config_update_notifier: 'false', npm_config_fund: 'false', npm_config_audit: 'false' };
}

/** Runs a command; resolves with its output, or rejects with an error that carries it. */
export async function sh(command: string, args: readonly string[], cwd: string, timeoutMs: number): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, [...args], { cwd, timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, env: childEnv() });
    return stdout + stderr;
  } catch (err) {
    const e = err as { stdout?: string; stderr?: string; message: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}: ${e.message}\n${e.stdout ?? ''}${e.stderr ?? ''}`);
  }
}

/** A workspace package: its folder and manifest. */
export interface WorkspacePackage {
  readonly dir: string;
  readonly name: string;
  readonly dependencies: Readonly<Record<string, string>>;
  readonly peerDependencies: Readonly<Record<string, string>>;
}

export function workspacePackages(root: string): WorkspacePackage[] {
  const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { workspaces: string[] };
  return manifest.workspaces.map((dir) => {
    const p = JSON.parse(readFileSync(join(root, dir, 'package.json'), 'utf8')) as { name: string; dependencies?: Record<string, string>; peerDependencies?: Record<string, string> };
    return { dir, name: p.name, dependencies: p.dependencies ?? {}, peerDependencies: p.peerDependencies ?? {} };
  });
}

/** Packs every package into `out`; returns the tarball paths (prepack scripts run, as on publish). */
export async function packAll(root: string, packages: readonly WorkspacePackage[], out: string, timeoutMs: number): Promise<string[]> {
  mkdirSync(out, { recursive: true });
  const tarballs: string[] = [];
  for (const p of packages) {
    const printed = await sh('npm', ['pack', '--silent', '--pack-destination', out], join(root, p.dir), timeoutMs);
    const file = printed.trim().split('\n').pop();
    if (file === undefined || !file.endsWith('.tgz')) throw new Error(`npm pack of ${p.name} printed no tarball name:\n${printed}`);
    tarballs.push(join(out, file));
  }
  return tarballs;
}

/** The one range every package that depends on `name` declares (they must agree). */
export function declaredRange(packages: readonly WorkspacePackage[], name: string, kind: 'dependencies' | 'peerDependencies' = 'dependencies'): string {
  const ranges = new Set(packages.flatMap((p) => (p[kind][name] === undefined ? [] : [p[kind][name]])));
  if (ranges.size !== 1) throw new Error(`packages declare ${ranges.size === 0 ? 'no' : 'different'} ranges of ${name}: ${[...ranges].join(', ')}`);
  return [...ranges][0] as string;
}

/** Strict NodeNext settings a current application uses; lib checking on, so our .d.ts are checked too. */
export const APP_TSCONFIG = {
  compilerOptions: {
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    strict: true,
    noEmit: true,
    skipLibCheck: false,
    exactOptionalPropertyTypes: false,
    types: ['node'],
  },
  include: ['src'],
};

/** Writes the app's manifest, tsconfig and sources. */
export function writeApp(dir: string, files: Readonly<Record<string, string>>): void {
  mkdirSync(join(dir, 'src'), { recursive: true });
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'switchyard-scratch-app', private: true, type: 'module' }, null, 2));
  writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(APP_TSCONFIG, null, 2));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, 'src', name), text);
}

/** The installed versions of `name` anywhere in the app's tree (`npm ls --all`). */
export async function installedVersions(dir: string, name: string, timeoutMs: number): Promise<string[]> {
  const text = await sh('npm', ['ls', name, '--all', '--json'], dir, timeoutMs);
  const versions = new Set<string>();
  const walk = (node: { version?: string; dependencies?: Record<string, unknown> }, key: string | undefined): void => {
    if (key === name && node.version !== undefined) versions.add(node.version);
    for (const [k, child] of Object.entries(node.dependencies ?? {})) walk(child as typeof node, k);
  };
  walk(JSON.parse(text) as { dependencies?: Record<string, unknown> }, undefined);
  return [...versions].sort();
}
