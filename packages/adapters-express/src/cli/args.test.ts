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
      help: false,
    });
    expect(parseGatewayArgs([])).toEqual({ config: undefined, endpoints: undefined, port: undefined, host: undefined, console: false, help: false });
    expect(parseGatewayArgs(['--console']).console).toBe(true);
    expect(parseGatewayArgs(['-h']).help).toBe(true);
  });

  it.each([
    [['--port', 'eighty'], /--port/],
    [['--port', '70000'], /--port/],
    [['--endpoints', ','], /--endpoints/],
    [['--bogus'], /bogus/],
  ])('rejects %j', (argv, message) => {
    expect(() => parseGatewayArgs(argv)).toThrow(message);
  });
});
