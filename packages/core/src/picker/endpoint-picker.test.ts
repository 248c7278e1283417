import { describe, expect, it } from 'vitest';
import {
  Attributes,
  EndpointPicker,
  EndpointPool,
  ManualClock,
  ModelRewriteStore,
  ObjectiveStore,
  SwitchyardError,
  createSchedulerConfig,
  parseRequest,
  type AdmissionController,
  type DataProducer,
  type Filter,
  type RequestLifecycle,
  type RequestOutcome,
  type Scorer,
} from '@switchyard/core';
import { seededRandom } from '../clock/seeded-random.js';
import { metrics } from '../testing/index.js';

const chat = (headers: Record<string, string> = {}, model = 'llama') =>
  parseRequest({ path: '/v1/chat/completions', headers, body: JSON.stringify({ model, messages: [{ role: 'user', content: 'hello there' }], max_tokens: 20 }) });

function fleet(n = 3, clock = new ManualClock()): EndpointPool {
  const pool = new EndpointPool();
  for (let i = 0; i < n; i++) {
    pool.add({ id: `e${i}`, address: `10.0.0.${i + 1}:8000` });
    pool.setMetrics(`e${i}`, metrics({ waitingQueueSize: i, kvCacheUsagePercent: 0.1 * i, updatedAt: clock.now() }));
  }
  return pool;
}

async function rejection(p: Promise<unknown>): Promise<SwitchyardError> {
  try {
    await p;
  } catch (e) {
    expect(e).toBeInstanceOf(SwitchyardError);
    return e as SwitchyardError;
  }
  throw new Error('expected a rejection');
}

describe('EndpointPicker', () => {
  it('picks the least loaded endpoint with the default profile and sets the destination header', async () => {
    const clock = new ManualClock();
    const pool = fleet(3, clock);
    const picker = new EndpointPicker({ pool, clock, random: seededRandom(3) });
    const d = await picker.pick(chat());
    expect(d.primary.id).toBe('e0');
    expect(d.headers['x-gateway-destination-endpoint']).toBe('10.0.0.1:8000');
    // Ranked fallbacks from the scores already computed; the destination header keeps the pick.
    expect(d.fallbacks.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(d.targets?.map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
    expect(d.request.fairnessId).toBe('default-flow');
    expect(d.request.priority).toBe(0);
    expect(d.trace).toBeUndefined();
    d.complete({ kind: 'success' });
  });

  it('carries as many ranked fallbacks as asked, from the candidates that passed the filters', async () => {
    const clock = new ManualClock();
    const pool = fleet(4, clock);
    const one = await new EndpointPicker({ pool, clock, fallbacks: 1 }).pick(chat());
    expect(one.targets?.map((e) => e.id)).toEqual(['e0', 'e1']);
    one.complete({ kind: 'success' });
    const none = await new EndpointPicker({ pool, clock, fallbacks: 0 }).pick(chat());
    expect(none.targets).toEqual([none.primary]);
    none.complete({ kind: 'success' });
    const notE1: Filter = { type: 'f', name: 'f', filter: (_c, _r, eps) => eps.filter((e) => e.id !== 'e1') };
    const q: Scorer = { type: 'q', name: 'q', score: (_c, _r, eps) => new Map(eps.map((e) => [e.id, 1 - (e.metrics?.waitingQueueSize ?? 0) / 10])) };
    const { maxScorePickerPlugin } = await import('@switchyard/core');
    const picker = maxScorePickerPlugin.create(maxScorePickerPlugin.parameters.parse({}), { name: 'm', clock, pool, lookup: () => undefined });
    const config = createSchedulerConfig({ profiles: [{ filters: [notE1], scorers: [q], picker: picker as never }] });
    const filtered = await new EndpointPicker({ pool, clock, config, fallbacks: 5 }).pick(chat());
    expect(filtered.targets?.map((e) => e.id)).toEqual(['e0', 'e2', 'e3']);
    filtered.complete({ kind: 'success' });
    expect(() => new EndpointPicker({ pool, fallbacks: -1 })).toThrow('picker.fallbacks: must be an integer ≥ 0, got -1');
  });

  it('lists fallbacks in the destination header with maxNumOfEndpoints > 1', async () => {
    const pool = fleet(3);
    const q: Scorer = { type: 'q', name: 'q', score: (_c, _r, eps) => new Map(eps.map((e) => [e.id, 1 - (e.metrics?.waitingQueueSize ?? 0) / 10])) };
    const { maxScorePickerPlugin } = await import('@switchyard/core');
    const picker3 = maxScorePickerPlugin.create(maxScorePickerPlugin.parameters.parse({ maxNumOfEndpoints: 3 }), { name: 'k3', clock: new ManualClock(), pool, lookup: () => undefined });
    const config = createSchedulerConfig({ profiles: [{ scorers: [q], picker: picker3 as never }] });
    const d = await new EndpointPicker({ pool, config }).pick(chat());
    expect(d.headers['x-gateway-destination-endpoint']).toBe('10.0.0.1:8000,10.0.0.2:8000,10.0.0.3:8000');
    expect(d.fallbacks.map((e) => e.id)).toEqual(['e1', 'e2']);
    expect(d.targets?.map((e) => e.id)).toEqual(['e0', 'e1', 'e2']);
    d.complete({ kind: 'success' });
  });

  it('records a trace only when asked', async () => {
    const picker = new EndpointPicker({ pool: fleet(2) });
    const d = await picker.pick(chat(), { trace: true });
    expect(d.trace?.profiles[0]?.scorers.map((s) => [s.name, s.weight])).toEqual([
      ['queue-scorer', 2],
      ['kv-cache-utilization-scorer', 2],
    ]);
    expect(d.trace?.profiles[0]?.picked).toEqual([d.primary.id]);
    d.complete({ kind: 'success' });
  });

  describe('classification', () => {
    const objectives = new ObjectiveStore([
      { name: 'premium', priority: 100 },
      { name: 'batch', priority: -1 },
    ]);

    it('reads objective, fairness id and SLOs from headers', async () => {
      const picker = new EndpointPicker({ pool: fleet(1), objectives });
      const d = await picker.pick(
        chat({ 'x-llm-d-inference-objective': 'premium', 'x-gateway-inference-fairness-id': 'tenant-a', 'x-llm-d-slo-ttft-ms': '250', 'x-slo-tpot-ms': 'abc' }),
      );
      expect([d.request.objective, d.request.priority, d.request.fairnessId, d.request.sloTtftMs, d.request.sloTpotMs]).toEqual(['premium', 100, 'tenant-a', 250, undefined]);
      d.complete({ kind: 'success' });
    });

    it('ignores classification headers with trustClassificationHeaders: false and prefers the trusted classification', async () => {
      const clock = new ManualClock();
      const picker = new EndpointPicker({ pool: fleet(1, clock), clock, objectives });
      const spoof = chat({ 'x-llm-d-inference-objective': 'premium', 'x-llm-d-inference-fairness-id': 'me', 'x-llm-d-model-name-rewrite': 'other' });
      const d = await picker.pick(spoof, { trustClassificationHeaders: false });
      expect([d.request.priority, d.request.fairnessId, d.request.targetModel]).toEqual([0, 'default-flow', 'llama']);
      d.complete({ kind: 'success' });
      const e = await picker.pick(spoof, { trustClassificationHeaders: false, classification: { objective: 'batch', fairnessId: 'acme' } });
      expect([e.request.priority, e.request.fairnessId]).toEqual([-1, 'acme']);
      e.complete({ kind: 'success' });
    });

    it('reads the headers by default and still honours the deprecated trustHeaders name', async () => {
      const clock = new ManualClock();
      const picker = new EndpointPicker({ pool: fleet(1, clock), clock, objectives });
      const spoof = chat({ 'x-llm-d-inference-fairness-id': 'me' });
      const byDefault = await picker.pick(spoof);
      expect(byDefault.request.fairnessId).toBe('me');
      byDefault.complete({ kind: 'success' });
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the alias is what is tested
      const old = await picker.pick(spoof, { trustHeaders: false });
      expect(old.request.fairnessId).toBe('default-flow');
      old.complete({ kind: 'success' });
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- the new name wins over the alias
      const both = await picker.pick(spoof, { trustHeaders: false, trustClassificationHeaders: true });
      expect(both.request.fairnessId).toBe('me');
      both.complete({ kind: 'success' });
    });

    it('rewrites the model from the header, lets a matching rule override it, and re-serialises the body', async () => {
      const rewrites = new ModelRewriteStore([{ name: 'r', rules: [{ matches: ['llama'], targets: [{ modelRewrite: 'llama-v2', weight: 1 }] }] }]);
      const pool = fleet(1);
      const headerOnly = await new EndpointPicker({ pool }).pick(chat({ 'x-llm-d-model-name-rewrite': 'lora-7' }));
      expect(headerOnly.request.targetModel).toBe('lora-7');
      expect((JSON.parse(new TextDecoder().decode(headerOnly.body)) as { model: string }).model).toBe('lora-7');
      expect(headerOnly.clientModel).toBe('llama');
      headerOnly.complete({ kind: 'success' });

      const ruled = await new EndpointPicker({ pool, rewrites }).pick(chat({ 'x-llm-d-model-name-rewrite': 'lora-7' }));
      expect(ruled.request.targetModel).toBe('llama-v2');
      ruled.complete({ kind: 'success' });

      const untouched = await new EndpointPicker({ pool }).pick(chat());
      const original = chat();
      expect(untouched.body).toEqual(original.rawBody);
      untouched.complete({ kind: 'success' });
    });
  });

  describe('request metadata', () => {
    it('puts the metadata the adapter passed under the request-metadata attribute, and nothing otherwise', async () => {
      const picker = new EndpointPicker({ pool: fleet(2) });
      const metadata = { 'llm-d.routing': { prefix_hashes: ['1', '2'] } };
      const d = await picker.pick(chat(), { metadata });
      expect(d.request.attributes.get(Attributes.requestMetadata)).toEqual(metadata);
      d.complete({ kind: 'success' });
      const none = await picker.pick(chat());
      expect(none.request.attributes.get(Attributes.requestMetadata)).toBeUndefined();
      none.complete({ kind: 'success' });
    });
  });

  describe('candidates', () => {
    it('restricts candidates to the subset hint: ip:port exactly, a bare ip with every port', async () => {
      const picker = new EndpointPicker({ pool: fleet(3) });
      const d = await picker.pick(chat(), { subsetHint: ['10.0.0.3:8000'] });
      expect(d.primary.id).toBe('e2');
      d.complete({ kind: 'success' });
      const bare = await picker.pick(chat(), { subsetHint: ['10.0.0.2'] });
      expect(bare.primary.id).toBe('e1');
      bare.complete({ kind: 'success' });
      const otherPort = await rejection(picker.pick(chat(), { subsetHint: ['10.0.0.3:9999'] }));
      expect(otherPort.reason).toBe('rejected-no-endpoints');
    });
    it('tells apart the ranks of one pod by port', async () => {
      const pool = new EndpointPool();
      pool.add({ id: 'rank-0', address: '10.0.0.9:8000' });
      pool.add({ id: 'rank-1', address: '10.0.0.9:8001' });
      pool.add({ id: 'v6', address: '[fd00::1]:8000' });
      const picker = new EndpointPicker({ pool, staleness: { policy: 'ignore' } });
      const one = await picker.pick(chat(), { subsetHint: ['10.0.0.9:8001'] });
      expect(one.primary.id).toBe('rank-1');
      one.complete({ kind: 'success' });
      const both = await picker.pick(chat(), { subsetHint: ['10.0.0.9'], trace: true });
      expect(['rank-0', 'rank-1']).toContain(both.primary.id);
      expect(both.targets?.map((e) => e.id).sort()).toEqual(['rank-0', 'rank-1']);
      both.complete({ kind: 'success' });
      for (const hint of ['[fd00::1]:8000', '[fd00::1]', 'fd00::1']) {
        const v6 = await picker.pick(chat(), { subsetHint: [hint] });
        expect(v6.primary.id).toBe('v6');
        v6.complete({ kind: 'success' });
      }
    });
    it('answers 503 rejected-no-endpoints for an empty hint, an unmatched hint and an empty pool', async () => {
      const picker = new EndpointPicker({ pool: fleet(2) });
      for (const hint of [[], ['192.168.0.1:8000']]) {
        const e = await rejection(picker.pick(chat(), { subsetHint: hint }));
        expect([e.status, e.reason]).toEqual([503, 'rejected-no-endpoints']);
      }
      const empty = await rejection(new EndpointPicker({ pool: new EndpointPool() }).pick(chat()));
      expect([empty.status, empty.reason]).toEqual([503, 'rejected-no-endpoints']);
    });
    it('answers 429 rejected-saturated when the filters remove every endpoint', async () => {
      const none: Filter = { type: 'none', name: 'none', filter: () => [] };
      const picker = new EndpointPicker({ pool: fleet(2), config: createSchedulerConfig({ profiles: [{ filters: [none] }] }) });
      const e = await rejection(picker.pick(chat()));
      expect([e.status, e.reason]).toEqual([429, 'rejected-saturated']);
    });
    it('answers 400 when the body names no model', async () => {
      const e = await rejection(new EndpointPicker({ pool: fleet(1) }).pick({ ...chat(), model: '' }));
      expect(e.status).toBe(400);
    });
  });

  describe('legacy admission (§12 case 14)', () => {
    const objectives = new ObjectiveStore([{ name: 'batch', priority: -1 }]);
    const saturatedPool = (clock: ManualClock) => {
      const pool = new EndpointPool();
      pool.add({ id: 'a', address: '10.0.0.1:8000' });
      pool.setMetrics('a', metrics({ waitingQueueSize: 50, updatedAt: clock.now() }));
      return pool;
    };
    it('rejects a sheddable request while saturated with 429 and no reason header', async () => {
      const clock = new ManualClock();
      const e = await rejection(new EndpointPicker({ pool: saturatedPool(clock), clock, objectives }).pick(chat({ 'x-llm-d-inference-objective': 'batch' })));
      expect([e.status, e.reason, e.code]).toEqual([429, undefined, 'REJECTED_SHEDDABLE']);
    });
    it('rejects a sheddable request with no pods with 429', async () => {
      const e = await rejection(new EndpointPicker({ pool: new EndpointPool(), objectives }).pick(chat({ 'x-llm-d-inference-objective': 'batch' })));
      expect([e.status, e.code]).toEqual([429, 'REJECTED_SHEDDABLE']);
    });
    it('admits priority 0 while saturated', async () => {
      const clock = new ManualClock();
      const d = await new EndpointPicker({ pool: saturatedPool(clock), clock, objectives }).pick(chat());
      expect(d.primary.id).toBe('a');
      d.complete({ kind: 'success' });
    });
    it('admits a sheddable request when the pool has room', async () => {
      const clock = new ManualClock();
      const d = await new EndpointPicker({ pool: fleet(2, clock), clock, objectives }).pick(chat({ 'x-llm-d-inference-objective': 'batch' }));
      d.complete({ kind: 'success' });
    });
  });

  describe('Prefer: if-available (§12 case 15)', () => {
    const withMatch = (blocks: number): DataProducer => ({
      type: 'fake-prefix',
      name: 'fake-prefix',
      produces: [Attributes.prefixMatch.name],
      consumes: [],
      produce: (_c, req, eps) => {
        req.attributes.set(Attributes.prefixMatch, new Map(eps.map((e) => [e.id, { matchBlocks: blocks, totalBlocks: 4, blockSizeTokens: 16, cachedBlocks: blocks }])));
      },
    });
    it('answers 412 for "return=minimal, if-available" without a cached prefix', async () => {
      const picker = new EndpointPicker({ pool: fleet(2), ifAvailable: { mode: 'shared' }, config: createSchedulerConfig({ profiles: [{}], producers: [withMatch(0)] }) });
      const e = await rejection(picker.pick(chat({ prefer: 'return=minimal, if-available' })));
      expect(e.status).toBe(412);
    });
    it('serves "if-available" when the primary holds a prefix, and ignores "if-available-but-different"', async () => {
      const warm = new EndpointPicker({ pool: fleet(2), ifAvailable: { mode: 'shared' }, config: createSchedulerConfig({ profiles: [{}], producers: [withMatch(2)] }) });
      (await warm.pick(chat({ prefer: 'if-available' }))).complete({ kind: 'success' });
      const cold = new EndpointPicker({ pool: fleet(2), ifAvailable: { mode: 'shared' }, config: createSchedulerConfig({ profiles: [{}], producers: [withMatch(0)] }) });
      (await cold.pick(chat({ prefer: 'if-available-but-different' }))).complete({ kind: 'success' });
    });
    const secret = 'The confidential system prompt of tenant A. '.repeat(30);
    const tenantChat = (tenant: string) =>
      parseRequest({ path: '/v1/chat/completions', headers: { prefer: 'if-available', 'x-gateway-inference-fairness-id': tenant }, body: JSON.stringify({ model: 'llama', messages: [{ role: 'system', content: secret }, { role: 'user', content: 'hi' }] }) });
    it('is off by default: the preference is ignored, so nobody can probe the shared cache', async () => {
      const picker = new EndpointPicker({ pool: fleet(2), config: createSchedulerConfig({ profiles: [{}], producers: [withMatch(0)] }) });
      const d = await picker.pick(tenantChat('b'));
      d.complete({ kind: 'success' });
    });
    it('with own-history, answers only from the asking fairness id\'s own history', async () => {
      // The shared index says the prefix is cached everywhere (tenant A's requests put it there).
      const picker = new EndpointPicker({ pool: fleet(1), ifAvailable: { mode: 'own-history' }, config: createSchedulerConfig({ profiles: [{}], producers: [withMatch(3)] }) });
      // Tenant B probing tenant A's prompt learns nothing: 412 as if nothing were cached.
      expect((await rejection(picker.pick(tenantChat('b')))).status).toBe(412);
      const first = await rejection(picker.pick(tenantChat('a')));
      expect(first.status).toBe(412);
      // Once A sent the prefix itself (without the preference), A's if-available is served; B's still is not.
      const plain = await picker.pick(parseRequest({ path: '/v1/chat/completions', headers: { 'x-gateway-inference-fairness-id': 'a' }, body: JSON.stringify({ model: 'llama', messages: [{ role: 'system', content: secret }, { role: 'user', content: 'first' }] }) }));
      plain.complete({ kind: 'success' });
      (await picker.pick(tenantChat('a'))).complete({ kind: 'success' });
      expect((await rejection(picker.pick(tenantChat('b')))).status).toBe(412);
      expect(() => new EndpointPicker({ pool: fleet(1), ifAvailable: { mode: 'sometimes' as never } })).toThrow(`picker.ifAvailable.mode: must be one of 'off', 'own-history', 'shared', got "sometimes"`);
      expect(() => new EndpointPicker({ pool: fleet(1), ifAvailable: { maxHistory: 0 } })).toThrow(expect.objectContaining({ code: 'CONFIG_INVALID', field: 'picker.ifAvailable.maxHistory' }));
    });
  });

  describe('lifecycle', () => {
    function recordingAdmission(): AdmissionController & { releases: RequestOutcome[] } {
      const releases: RequestOutcome[] = [];
      return {
        releases,
        admit: () => Promise.resolve({ release: (o: RequestOutcome) => releases.push(o) }),
      };
    }

    it('accounts in-flight requests and tokens on the serving endpoint and releases them exactly once', async () => {
      const pool = fleet(2);
      const admission = recordingAdmission();
      const picker = new EndpointPicker({ pool, admission, random: seededRandom(1) });
      const d = await picker.pick(chat());
      const tokens = Math.ceil('hello there'.length / 4) + 20;
      expect([pool.get('e0')?.inFlightRequests, pool.get('e0')?.inFlightTokens]).toEqual([1, tokens]);
      // The gateway fell back to e1 before the first byte.
      d.onResponseStart({ endpoint: pool.get('e1')!, status: 200, at: 0 });
      expect([pool.get('e0')?.inFlightRequests, pool.get('e1')?.inFlightRequests, pool.get('e1')?.inFlightTokens]).toEqual([0, 1, tokens]);
      d.complete({ kind: 'success' });
      d.complete({ kind: 'error' });
      expect([pool.get('e1')?.inFlightRequests, pool.get('e1')?.inFlightTokens]).toEqual([0, 0]);
      expect(admission.releases).toEqual([{ kind: 'success' }]);
    });

    it('drives plugin hooks and survives a hook that throws', async () => {
      const calls: string[] = [];
      const hooks: Scorer & RequestLifecycle = {
        type: 'hooks',
        name: 'hooks',
        score: () => new Map(),
        preRequest: (_c, _r, _res, headers) => {
          calls.push('pre');
          headers['x-extra'] = '1';
        },
        onResponseStart: () => {
          calls.push('start');
          throw new Error('boom');
        },
        onUsage: (_r, u) => calls.push(`usage:${u.completionTokens}`),
        onComplete: (_r, o) => calls.push(`complete:${o.kind}`),
      };
      const errors: string[] = [];
      const pool = fleet(1);
      const picker = new EndpointPicker({ pool, config: createSchedulerConfig({ profiles: [{ scorers: [hooks] }] }), onHookError: (_p, hook) => errors.push(hook) });
      const d = await picker.pick(chat());
      expect(d.headers['x-extra']).toBe('1');
      d.onResponseStart({ endpoint: d.primary, status: 200, at: 1 });
      d.onUsage({ promptTokens: 3, completionTokens: 7 });
      d.complete({ kind: 'cancelled' });
      d.onUsage({ promptTokens: 3, completionTokens: 8 });
      expect(calls).toEqual(['pre', 'start', 'usage:7', 'complete:cancelled']);
      expect(errors).toEqual(['onResponseStart']);
      expect(pool.get('e0')?.inFlightRequests).toBe(0);
    });

    it('releases the admission grant when scheduling fails after admission', async () => {
      const admission = recordingAdmission();
      const none: Filter = { type: 'none', name: 'none', filter: () => [] };
      const pool = fleet(2);
      const picker = new EndpointPicker({ pool, admission, config: createSchedulerConfig({ profiles: [{ filters: [none] }] }) });
      await rejection(picker.pick(chat()));
      const boom: Scorer & RequestLifecycle = { type: 'b', name: 'b', score: () => new Map(), preRequest: () => { throw new Error('pre failed'); } };
      await expect(new EndpointPicker({ pool, admission, config: createSchedulerConfig({ profiles: [{ scorers: [boom] }] }) }).pick(chat())).rejects.toThrow('pre failed');
      expect(admission.releases.map((r) => r.kind)).toEqual(['error', 'error']);
      expect(pool.list().map((e) => e.inFlightRequests)).toEqual([0, 0]);
    });

    it('rejects with 503 rejected-context-cancelled when the signal aborts during admission', async () => {
      const controller = new AbortController();
      const admission = recordingAdmission();
      const slow: AdmissionController = {
        admit: async (r, o) => {
          controller.abort();
          return admission.admit(r, o);
        },
      };
      const e = await rejection(new EndpointPicker({ pool: fleet(1), admission: slow }).pick(chat(), { signal: controller.signal }));
      expect([e.status, e.reason]).toEqual([503, 'rejected-context-cancelled']);
      expect(admission.releases.map((r) => r.kind)).toEqual(['cancelled']);
    });

    it('rejects an already cancelled request before admitting it, and one cancelled while an async producer runs', async () => {
      const admission = recordingAdmission();
      const gone = new AbortController();
      gone.abort();
      const e = await rejection(new EndpointPicker({ pool: fleet(1), admission }).pick(chat(), { signal: gone.signal }));
      expect([e.status, e.reason]).toEqual([503, 'rejected-context-cancelled']);
      expect(admission.releases).toEqual([]);
      const controller = new AbortController();
      const slow: DataProducer = {
        type: 'slow',
        name: 'slow',
        produces: [],
        consumes: [],
        produce: async () => {
          controller.abort();
          await Promise.resolve();
        },
      };
      const picker = new EndpointPicker({ pool: fleet(1), admission, config: createSchedulerConfig({ profiles: [{}], producers: [slow] }) });
      const late = await rejection(picker.pick(chat(), { signal: controller.signal }));
      expect(late.reason).toBe('rejected-context-cancelled');
      expect(admission.releases.map((r) => r.kind)).toEqual(['cancelled']);
    });

    it('takes an immediate grant from admitNow, waits on admit when admitNow declines, and releases either once', async () => {
      const calls: string[] = [];
      const releases: string[] = [];
      let immediate = true;
      const admission: AdmissionController = {
        admitNow: () => {
          calls.push('now');
          return immediate ? { release: () => releases.push('now') } : undefined;
        },
        admit: () => {
          calls.push('admit');
          return Promise.resolve({ release: () => releases.push('queued') });
        },
      };
      const picker = new EndpointPicker({ pool: fleet(2), admission });
      (await picker.pick(chat())).complete({ kind: 'success' });
      immediate = false;
      (await picker.pick(chat())).complete({ kind: 'success' });
      expect(calls).toEqual(['now', 'now', 'admit']);
      expect(releases).toEqual(['now', 'queued']);
    });

    it('turns an error thrown by admitNow into a rejected pick without calling admit', async () => {
      const admission: AdmissionController = {
        admitNow: () => {
          throw new SwitchyardError('REJECTED_SHEDDABLE', 'saturated');
        },
        admit: () => Promise.reject(new Error('admit must not be called')),
      };
      const e = await rejection(new EndpointPicker({ pool: fleet(1), admission }).pick(chat()));
      expect([e.status, e.code]).toEqual([429, 'REJECTED_SHEDDABLE']);
    });

    it('passes response headers set by plugins (session token) to the decision', async () => {
      const { sessionAffinityScorerPlugin } = await import('@switchyard/core');
      const pool = fleet(2);
      const s = sessionAffinityScorerPlugin.create(sessionAffinityScorerPlugin.parameters.parse({}), { name: 's', clock: new ManualClock(), pool, lookup: () => undefined });
      const picker = new EndpointPicker({ pool, config: createSchedulerConfig({ profiles: [{ scorers: [s as Scorer] }] }) });
      const d = await picker.pick(chat());
      expect(d.responseHeaders['x-session-token']).toBe(Buffer.from(d.primary.id).toString('base64'));
      d.complete({ kind: 'success' });
    });
  });
});
