import { mkdtempSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EndpointPool, FILE_WATCH_POLL_MS, ManualClock, createDefaultRegistry, createFileDiscovery, loadConfig, startDiscovery, type DiscoveryTarget, type SwitchyardError } from '@switchyard/core';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'file-discovery-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const file = (name = 'endpoints.yaml'): string => join(dir, name);
const TWO = `endpoints:
- name: vllm-0
  address: 10.0.0.1
  port: "8000"
  labels:
    llm-d.ai/role: decode
- name: vllm-1
  namespace: inference
  address: 10.0.0.2
  port: "8000"
`;

function poolTarget(pool: EndpointPool, errors: SwitchyardError[] = []): DiscoveryTarget {
  return {
    upsert: (s) => void pool.upsert(s),
    remove: (id) => void pool.remove(id),
    onError: (e) => void errors.push(e),
  };
}

const ids = (pool: EndpointPool): string[] => pool.list().map((e) => `${e.id}=${e.address}`).sort();

describe('file-discovery', () => {
  it('fills the pool from the file: id namespace/name, address ip:port, labels', () => {
    writeFileSync(file(), TWO);
    const pool = new EndpointPool();
    const d = createFileDiscovery('file-discovery', { path: file() }, { clock: new ManualClock() });
    expect(d.ready).toBe(false);
    d.start(poolTarget(pool));
    expect(d.ready).toBe(true);
    expect(ids(pool)).toEqual(['default/vllm-0=10.0.0.1:8000', 'inference/vllm-1=10.0.0.2:8000']);
    expect(pool.get('default/vllm-0')?.labels).toEqual({ 'llm-d.ai/role': 'decode' });
  });

  it('refuses to start on a missing or invalid file, naming the field', () => {
    const d = createFileDiscovery('fd', { path: file('absent.yaml') }, { clock: new ManualClock() });
    expect(() => { d.start(poolTarget(new EndpointPool())); }).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', field: 'path' }) as Error);
    writeFileSync(file(), 'endpoints:\n- name: a\n  address: my-host\n  port: "8000"\n');
    const bad = createFileDiscovery('fd', { path: file() }, { clock: new ManualClock() });
    expect(() => { bad.start(poolTarget(new EndpointPool())); }).toThrow(expect.objectContaining({ field: 'endpoints[0].address' }) as Error);
    expect(bad.ready).toBe(false);
  });

  it('with watchFile, applies edits, removals and atomic renames on the next poll', () => {
    writeFileSync(file(), TWO);
    const pool = new EndpointPool();
    const clock = new ManualClock();
    const events: string[] = [];
    pool.on('added', (e) => void events.push(`+${e.id}`));
    pool.on('removed', (e) => void events.push(`-${e.id}`));
    pool.on('updated', (e) => void events.push(`~${e.id}`));
    const d = createFileDiscovery('fd', { path: file(), watchFile: true }, { clock });
    d.start(poolTarget(pool));
    events.length = 0;
    // vllm-1 leaves, vllm-0 moves, vllm-2 joins; written elsewhere and renamed over, as editors save.
    writeFileSync(file('next.yaml'), 'endpoints:\n- {name: vllm-0, address: 10.0.0.9, port: "9000"}\n- {name: vllm-2, address: 10.0.0.3, port: "8000"}\n');
    renameSync(file('next.yaml'), file());
    clock.advance(FILE_WATCH_POLL_MS);
    expect(ids(pool)).toEqual(['default/vllm-0=10.0.0.9:9000', 'default/vllm-2=10.0.0.3:8000']);
    expect(events.sort()).toEqual(['+default/vllm-2', '-inference/vllm-1', '~default/vllm-0']);
    // An unchanged file is not re-applied: no update events for endpoints that stayed the same.
    events.length = 0;
    clock.advance(FILE_WATCH_POLL_MS * 4);
    expect(events).toEqual([]);
    d.close();
  });

  it('keeps the last good endpoints while the file is broken or removed, and reports why', () => {
    writeFileSync(file(), TWO);
    const pool = new EndpointPool();
    const clock = new ManualClock();
    const errors: SwitchyardError[] = [];
    const d = createFileDiscovery('fd', { path: file(), watchFile: true }, { clock });
    d.start(poolTarget(pool, errors));
    writeFileSync(file(), 'endpoints:\n- name: vllm-0\n  address: 10.0.0.1\n  port: "99999"\n');
    clock.advance(FILE_WATCH_POLL_MS);
    expect(ids(pool)).toHaveLength(2);
    expect(errors.map((e) => e.field)).toEqual(['endpoints[0].port']);
    expect(d.lastError?.field).toBe('endpoints[0].port');
    rmSync(file());
    clock.advance(FILE_WATCH_POLL_MS);
    expect(ids(pool)).toHaveLength(2);
    expect(errors.map((e) => e.field)).toEqual(['endpoints[0].port', 'path']);
    // Recreated: the watch picks it up again (llm-d re-adds its watch after a removal).
    writeFileSync(file(), 'endpoints: []\n');
    clock.advance(FILE_WATCH_POLL_MS);
    expect(ids(pool)).toEqual([]);
    expect(d.lastError).toBeUndefined();
    d.close();
  });

  it('without watchFile reads the file once; close() stops the watch', () => {
    writeFileSync(file(), TWO);
    const pool = new EndpointPool();
    const clock = new ManualClock();
    const once = createFileDiscovery('fd', { path: file() }, { clock });
    once.start(poolTarget(pool));
    expect(clock.pendingTimers).toBe(0);
    const watched = createFileDiscovery('fd', { path: file(), watchFile: true }, { clock });
    watched.start(poolTarget(new EndpointPool()));
    expect(clock.pendingTimers).toBe(1);
    watched.close();
    expect(clock.pendingTimers).toBe(0);
  });

  it('leaves endpoints it did not add alone', () => {
    writeFileSync(file(), TWO);
    const pool = new EndpointPool();
    pool.add({ address: '10.9.9.9:8000' });
    const clock = new ManualClock();
    const d = createFileDiscovery('fd', { path: file(), watchFile: true }, { clock });
    d.start(poolTarget(pool));
    writeFileSync(file(), 'endpoints: []\n');
    clock.advance(FILE_WATCH_POLL_MS);
    expect(ids(pool)).toEqual(['10.9.9.9:8000=10.9.9.9:8000']);
    d.close();
  });
});

describe('file-discovery in a config', () => {
  const config = (params: string): string => `apiVersion: inference.networking.x-k8s.io/v1alpha1
kind: EndpointPickerConfig
plugins:
- type: file-discovery
  parameters:
${params}
- type: queue-scorer
dataLayer:
  discovery:
    pluginRef: file-discovery
`;

  it('loads with every llm-d parameter and startDiscovery fills the pool', () => {
    writeFileSync(file(), TWO);
    const pool = new EndpointPool();
    const loaded = loadConfig(config(`    path: ${file()}\n    watchFile: false`), { registry: createDefaultRegistry(), pool, clock: new ManualClock() });
    expect(loaded.dataLayerSettings.discovery).toBe('file-discovery');
    expect(pool.size).toBe(0);
    const d = startDiscovery(loaded, poolTarget(pool));
    expect(d?.ready).toBe(true);
    expect(pool.size).toBe(2);
  });

  it('rejects a missing path, a bad watchFile and unknown parameters with a suggestion', () => {
    const load = (params: string): unknown => loadConfig(config(params), { registry: createDefaultRegistry(), pool: new EndpointPool(), clock: new ManualClock() });
    expect(() => load('    watchFile: true')).toThrow(/plugins\[0\]\.parameters\.path/);
    expect(() => load('    path: x.yaml\n    watchFile: "yes"')).toThrow(/plugins\[0\]\.parameters\.watchFile/);
    expect(() => load('    path: x.yaml\n    watchfile: true')).toThrow(/plugins\[0\]\.parameters.*watchfile.*did you mean "watchFile"/);
  });
});
