import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecisionLog, EndpointPicker, EndpointPool, ManualClock, SwitchyardError, createLogger, parseLogLevel, parseRequest, recordDecisions, requestLogger, type RequestScheduler } from '@switchyard/core';
import { formatLogLine } from '@switchyard/core/internal';
import { metrics } from '../testing/index.js';

const collector = (isTTY = false): { lines: string[]; write: (t: string) => void; isTTY: boolean } => {
  const lines: string[] = [];
  return { lines, write: (t) => lines.push(t), isTTY };
};
const chat = (id: string) => parseRequest({ path: '/v1/completions', headers: { 'x-request-id': id }, body: '{"model":"m","prompt":"hi"}' });

describe('structured logs', () => {
  it('writes JSON lines with levels, and human-readable lines on a terminal', () => {
    const json = collector();
    createLogger({ sink: json, name: 'switchyard-gateway', level: 'info' }).warn({ requestId: 'r1' }, 'upstream failed');
    const entry = JSON.parse(json.lines[0] ?? '') as Record<string, unknown>;
    expect(entry).toMatchObject({ level: 40, name: 'switchyard-gateway', requestId: 'r1', msg: 'upstream failed' });
    const tty = collector(true);
    const log = createLogger({ sink: tty, level: 'info' });
    log.info({ endpoint: 'pod a', n: 3 }, 'picked');
    log.debug('not written');
    expect(tty.lines).toHaveLength(1);
    expect(tty.lines[0]).toMatch(/^\d\d:\d\d:\d\d\.\d{3} INFO {2}picked endpoint="pod a" n=3\n$/);
  });

  it('formats any line without throwing', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (line) => typeof formatLogLine(line) === 'string'));
  });

  it('rejects an unknown level naming the flag', () => {
    expect(parseLogLevel('debug')).toBe('debug');
    expect(() => parseLogLevel('loud')).toThrow(/--log-level/);
  });

  it('logs one line per request with the request id, the picked endpoint and the outcome', async () => {
    const sink = collector();
    const onEnd = requestLogger(createLogger({ sink, level: 'debug' }));
    const clock = new ManualClock();
    const pool = new EndpointPool();
    pool.add({ id: 'e0', address: '10.0.0.1:8000' });
    pool.setMetrics('e0', metrics({ updatedAt: 0 }));
    const ok = await recordDecisions(new EndpointPicker({ pool, clock }), { log: new DecisionLog({ clock }), onEnd }).pick(chat('req-ok'));
    ok.complete({ kind: 'success', usage: { promptTokens: 3, completionTokens: 4 } });
    const failing: RequestScheduler = { pick: () => Promise.reject(new SwitchyardError('REJECTED_SATURATED', 'full')) };
    await expect(recordDecisions(failing, { onEnd }).pick(chat('req-no'))).rejects.toThrow();
    const entries = sink.lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(entries).toHaveLength(2);
    expect(entries[0]).toMatchObject({ level: 20, requestId: 'req-ok', endpoint: 'e0', outcome: 'success' });
    expect(entries[1]).toMatchObject({ level: 40, requestId: 'req-no', outcome: 'rejected', error: 'REJECTED_SATURATED' });
  });
});
