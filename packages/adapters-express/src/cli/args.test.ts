import { describe, expect, it } from 'vitest';
import { parseGatewayArgs } from '@switchyard/express';

describe('parseGatewayArgs', () => {
  it('reads every flag', () => {
    expect(parseGatewayArgs(['--config', 'epp.yaml', '--endpoints', '10.0.0.1:8000, 10.0.0.2:8000', '--port', '9000', '--host', '127.0.0.1'])).toEqual({
      config: 'epp.yaml',
      endpoints: ['10.0.0.1:8000', '10.0.0.2:8000'],
      port: 9000,
      host: '127.0.0.1',
      console: false,
      decisionTraceHeader: false,
      logLevel: 'info',
      logFormat: 'auto',
      otel: false,
      kubernetes: {},
      redisUrl: undefined,
      help: false,
    });
    expect(parseGatewayArgs([])).toEqual({ config: undefined, endpoints: undefined, port: undefined, host: undefined, console: false, decisionTraceHeader: false, logLevel: 'info', logFormat: 'auto', otel: false, kubernetes: {}, redisUrl: undefined, help: false });
    expect(parseGatewayArgs(['--log-level', 'debug', '--log-format', 'json'])).toMatchObject({ logLevel: 'debug', logFormat: 'json' });
    expect(parseGatewayArgs(['--console']).console).toBe(true);
    expect(parseGatewayArgs(['--pool-name', 'chat', '--pool-namespace', 'llm', '--kubeconfig', 'kc']).kubernetes).toEqual({ 'pool-name': 'chat', 'pool-namespace': 'llm', kubeconfig: 'kc' });
    expect(parseGatewayArgs(['--redis-url', 'redis://10.0.0.9:6379']).redisUrl).toBe('redis://10.0.0.9:6379');
    expect(parseGatewayArgs(['-h']).help).toBe(true);
    expect(parseGatewayArgs(['--profile', 'switchyard']).profile).toBe('switchyard');
    expect(parseGatewayArgs(['--profile', 'llm-d']).profile).toBe('llm-d');
    expect(parseGatewayArgs([]).trustClassificationHeaders).toBeUndefined();
    expect(parseGatewayArgs(['--trust-classification-headers', 'true']).trustClassificationHeaders).toBe(true);
    expect(parseGatewayArgs(['--trust-classification-headers', 'false']).trustClassificationHeaders).toBe(false);
  });

  it.each([
    [['--port', 'eighty'], /--port/],
    [['--port', '70000'], /--port/],
    [['--endpoints', ','], /--endpoints/],
    [['--endpoints', '10.0.0.1:8000', '--pool-name', 'chat'], /--endpoints and --pool-name/],
    [['--bogus'], /bogus/],
    [['--profile', 'fastest'], /--profile: expected switchyard or llm-d/],
    [['--profile', 'switchyard', '--config', 'c.yaml'], /--profile and --config/],
    [['--log-level', 'loud'], /--log-level/],
    [['--log-format', 'xml'], /--log-format/],
    [['--trust-classification-headers', 'yes'], /--trust-classification-headers: expected true or false, got "yes"/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseGatewayArgs(argv)).toThrow(message);
  });
});
