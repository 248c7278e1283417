import { describe, expect, it } from 'vitest';
import { runCli, startFleet } from '@switchyard/simulator';

const capture = (): { out: string[]; io: { write: (s: string) => boolean } } => {
  const out: string[] = [];
  return { out, io: { write: (s: string) => out.push(s) > 0 } };
};

describe('switchyard-sim serve', () => {
  it('starts pods, prints their addresses and stops cleanly on abort', async () => {
    const stdout = capture();
    const stderr = capture();
    const ac = new AbortController();
    const done = runCli(['serve', '--pods', '2', '--base-port', '0', '--profile', 'tiny', '--time-scale', '10', '--zmq-base-port', '0', '--lora', 'a,b'], {
      stdout: stdout.io,
      stderr: stderr.io,
      signal: ac.signal,
    });
    for (let i = 0; i < 200 && !stdout.out.join('').includes('ready'); i++) await new Promise((r) => setTimeout(r, 10));
    const text = stdout.out.join('');
    const urls = [...text.matchAll(/^sim-\d+ {2}(http:\/\/\S+)/gm)].map((m) => m[1]!);
    expect(urls).toHaveLength(2);
    expect(text).toMatch(/kv-events tcp:\/\/127\.0\.0\.1:\d+ replay tcp:\/\/127\.0\.0\.1:\d+ topic kv@sim-1@sim-tiny/);
    const models = (await (await fetch(`${urls[1]}/v1/models`)).json()) as { data: { id: string }[] };
    expect(models.data.map((m) => m.id)).toEqual(['sim-tiny', 'a', 'b']);
    ac.abort();
    expect(await done).toBe(0);
    expect(stdout.out.join('')).toContain('stopped');
    await expect(fetch(`${urls[0]}/health`)).rejects.toThrow();
    expect(stderr.out).toEqual([]);
  });

  it('rejects bad flags with a message naming the flag', async () => {
    const stderr = capture();
    expect(await runCli(['serve', '--pods', 'zero'], { stdout: capture().io, stderr: stderr.io })).toBe(1);
    expect(stderr.out.join('')).toContain('--pods');
    const e2 = capture();
    expect(await runCli(['serve', '--profile', 'h200-giant'], { stdout: capture().io, stderr: e2.io })).toBe(1);
    expect(e2.out.join('')).toMatch(/unknown engine profile "h200-giant"/);
    const e3 = capture();
    expect(await runCli(['bogus'], { stdout: capture().io, stderr: e3.io })).toBe(2);
    const help = capture();
    expect(await runCli(['serve', '--help'], { stdout: help.io, stderr: capture().io })).toBe(0);
    expect(help.out.join('')).toContain('--zmq-base-port');
  });
});

describe('startFleet', () => {
  it('starts consecutive pods that serve independently', async () => {
    const fleet = await startFleet({ pods: 3, profile: 'tiny', timeScale: 50 });
    try {
      expect(fleet.endpoints.map((e) => e.name)).toEqual(['sim-0', 'sim-1', 'sim-2']);
      expect(new Set(fleet.endpoints.map((e) => e.port)).size).toBe(3);
      const res = await fetch(`${fleet.endpoints[2]!.url}/v1/completions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'sim-tiny', prompt: 'hello', max_tokens: 2 }),
      });
      expect(res.headers.get('x-simulator-pod')).toBe('sim-2');
      expect(fleet.endpoints[2]!.server.engine.stats.finishedLength).toBe(1);
      expect(fleet.endpoints[0]!.server.engine.stats.finishedLength).toBe(0);
      expect(fleet.endpoints[0]!.address).toMatch(/^127\.0\.0\.1:\d+$/);
    } finally {
      await fleet.close();
    }
  });
});
