import { parseEppArgs, splitEndpoints } from '@switchyard/envoy';
import { describe, expect, it } from 'vitest';

describe('parseEppArgs', () => {
  it('applies the GAIE port defaults', () => {
    expect(parseEppArgs([])).toMatchObject({ grpcPort: 9002, metricsPort: 9090, host: '0.0.0.0', scrapeIntervalMs: undefined, trustClassificationHeaders: true, deprecatedFlags: [], config: undefined, endpoints: undefined, redisUrl: undefined });
    expect(parseEppArgs(['--redis-url', 'redis://10.0.0.9:6379']).redisUrl).toBe('redis://10.0.0.9:6379');
  });

  it('reads every flag', () => {
    const a = parseEppArgs(['--config', 'c.yaml', '--endpoints', '10.0.0.1:8000, 10.0.0.2:8000', '--grpc-port', '0', '--metrics-port', '9191', '--tls-cert', 'c.pem', '--tls-key', 'k.pem', '--scrape-interval-ms', '100', '--max-body-bytes', '1000', '--trust-classification-headers', 'false', '--host', '127.0.0.1']);
    expect(a).toMatchObject({ config: 'c.yaml', endpoints: ['10.0.0.1:8000', '10.0.0.2:8000'], grpcPort: 0, metricsPort: 9191, tlsCert: 'c.pem', tlsKey: 'k.pem', scrapeIntervalMs: 100, maxBodyBytes: 1000, trustClassificationHeaders: false, deprecatedFlags: [], host: '127.0.0.1' });
    // The deprecated name still works, and is reported so the CLI can log it once.
    expect(parseEppArgs(['--trust-headers', 'false'])).toMatchObject({ trustClassificationHeaders: false, deprecatedFlags: ['--trust-headers'] });
    expect(parseEppArgs(['--trust-headers', 'true', '--trust-classification-headers', 'true'])).toMatchObject({ trustClassificationHeaders: true });
  });

  it('serves health alone on 9003 beside the default 9002 (llm-d), and only when asked beside a chosen port', () => {
    expect(parseEppArgs([]).grpcHealthPort).toBe(9003);
    expect(parseEppArgs(['--grpc-port', '0']).grpcHealthPort).toBeUndefined();
    expect(parseEppArgs(['--grpc-port', '0', '--grpc-health-port', '0']).grpcHealthPort).toBe(0);
    expect(parseEppArgs(['--grpc-health-port', '9103']).grpcHealthPort).toBe(9103);
    expect(() => parseEppArgs(['--grpc-health-port', 'x'])).toThrow(/--grpc-health-port/);
  });

  it('reads --transport (grpc-js or http2; absent: the library default)', () => {
    expect(parseEppArgs(['--transport', 'http2']).transport).toBe('http2');
    expect(parseEppArgs(['--transport', 'grpc-js']).transport).toBe('grpc-js');
    expect(parseEppArgs([]).transport).toBeUndefined();
  });

  it('reads --profile', () => {
    expect(parseEppArgs(['--profile', 'switchyard']).profile).toBe('switchyard');
    expect(parseEppArgs(['--profile', 'llm-d']).profile).toBe('llm-d');
    expect(parseEppArgs([]).profile).toBeUndefined();
  });

  it.each([
    [['--grpc-port', '70000'], /--grpc-port/],
    [['--transport', 'quic'], /--transport: expected grpc-js or http2, got "quic"/],
    [['--tls-cert', 'c.pem'], /--tls-key/],
    [['--endpoints', 'a:1', '--endpoints-file', 'f'], /one or the other/],
    [['--trust-headers', 'maybe'], /--trust-headers: expected true or false/],
    [['--trust-classification-headers', 'maybe'], /--trust-classification-headers: expected true or false, got "maybe"/],
    [['--trust-headers', 'false', '--trust-classification-headers', 'true'], /deprecated name of --trust-classification-headers: give one/],
    [['--scrape-interval-ms', '10'], /≥ 50/],
    [['--endpoints', ' , '], /at least one/],
    [['--bogus'], /bogus/],
    [['--profile', 'fastest'], /--profile: expected switchyard or llm-d/],
    [['--profile', 'switchyard', '--config', 'c.yaml'], /--profile and --config/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseEppArgs(argv)).toThrow(message);
  });
});

describe('splitEndpoints', () => {
  it('reads lines, commas, whitespace and comments', () => {
    expect(splitEndpoints('# pool\n10.0.0.1:8000\n10.0.0.2:8000, 10.0.0.3:8000 # rack b\n\n[::1]:8000\r\n')).toEqual(['10.0.0.1:8000', '10.0.0.2:8000', '10.0.0.3:8000', '[::1]:8000']);
  });
});

describe('--workers', () => {
  it('defaults to 1 (one process, no cluster) and reads a positive integer up to 4 × the CPUs', async () => {
    const { workersFlag } = await import('./workers-flag.js');
    expect(parseEppArgs([]).workers).toBe(1);
    expect(parseEppArgs(['--workers', '1']).workers).toBe(1);
    expect(workersFlag('8', 2)).toBe(8);
    for (const bad of ['0', '-1', '1.5', 'x', '', '9']) expect(() => workersFlag(bad, 2)).toThrow(/--workers/);
  });
});
