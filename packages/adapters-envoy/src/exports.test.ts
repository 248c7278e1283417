import { describe, expect, it } from 'vitest';
import * as root from '@switchyard/envoy';

// The root lists its names one by one; the wire builders and per-stream phases are not API.
describe('@switchyard/envoy root exports', () => {
  it('keeps the wire builders and stream phases out of the public root', () => {
    const helpers = ['valueToJson', 'structToJson', 'readString', 'setHeader', 'headerMapToRecord', 'headersResponse', 'bodyChunkResponses', 'immediateResponseFor', 'ResponsePhase', 'forwardHeadersResponse', 'pickHeaderOnly', 'readStreamMetadata', 'formatServerStats'];
    expect(helpers.filter((name) => name in root)).toEqual([]);
  });

  it('exports what the examples, the benches and the docs use', () => {
    for (const name of ['startEpp', 'startEppServer', 'runEppCli', 'parseEppArgs', 'splitEndpoints', 'ExtProcStream', 'HealthState', 'encodeProcessingRequest', 'decodeProcessingResponse', 'resolveEppOptions', 'resolveEppServerOptions', 'resolveExtProcStreamOptions']) {
      expect(typeof (root as Record<string, unknown>)[name], name).toBe('function');
    }
  });

  it('exports the option defaults, frozen', () => {
    for (const d of [root.EPP_DEFAULTS, root.EPP_SERVER_DEFAULTS, root.EPP_SERVER_DEFAULTS.keepalive, root.EXT_PROC_STREAM_DEFAULTS, root.EPP_CLI_DEFAULTS]) expect(Object.isFrozen(d)).toBe(true);
  });
});
