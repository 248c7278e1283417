import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { EndpointPicker, ManualClock, SwitchyardError, applyPoolRecording, explainPick, formatExplanation, parseRequest, readPoolRecording } from '@switchyard/core';
import { parseHeaderFlags } from '@switchyard/core/internal';
import { createGatewayFromConfig } from '../config/from-config.js';
import type { GatewayCliIo } from './run.js';

/** Usage text of `switchyard-gateway explain`. @public */
export const GATEWAY_EXPLAIN_USAGE = `Usage: switchyard-gateway explain --config FILE --request body.json [--metrics SNAPSHOT]
                                  [--endpoints ip:port,...] [--path P] [--header 'name: value']... [--json]

Prints where the gateway would send one request and why: every filter, every scorer's score and
weight per endpoint, the pick and the fallbacks. Nothing is sent anywhere.

  --config FILE        the gateway's config file (EndpointPickerConfig + gateway section)
  --request FILE       the request body (JSON), as a client would POST it
  --metrics SNAPSHOT   pool state to decide against: a file saved from GET /console/api/snapshot,
                       or the URL of a running console's snapshot; without it endpoints have no metrics
  --endpoints LIST     model servers, when the config names none
  --path P             request path (default /v1/chat/completions)
  --header 'N: V'      a request header (repeatable), e.g. 'x-llm-d-fairness-id: tenant-a'
  --json               print the decision record as JSON instead of text
`;

/**
 * Runs `switchyard-gateway explain`: builds the gateway's pools from the config without
 * scraping or listening, applies the recorded pool state, and schedules the request once with a
 * picker over the same configuration (admission is left out: it delays or sheds, it does not
 * place). Prints the decision and its trace.
 * @returns the exit code: 0 decided, 1 rejected by scheduling, 2 bad arguments or files
 * @public
 */
export async function runGatewayExplain(argv: readonly string[], io: GatewayCliIo): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
    args: [...argv],
    options: {
      config: { type: 'string', short: 'c' },
      request: { type: 'string', short: 'r' },
      metrics: { type: 'string', short: 'm' },
      endpoints: { type: 'string', short: 'e' },
      path: { type: 'string' },
      header: { type: 'string', multiple: true },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
    });
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', `explain: ${err instanceof Error ? err.message : String(err)}`);
  }
  const { values } = parsed;
  if (values.help === true) {
    io.out(GATEWAY_EXPLAIN_USAGE);
    return 0;
  }
  if (values.request === undefined) throw new SwitchyardError('CONFIG_INVALID', '--request: give the request body file');
  if (values.config === undefined && values.endpoints === undefined) throw new SwitchyardError('CONFIG_INVALID', '--config: give the gateway config (or --endpoints)');
  const recording = values.metrics === undefined ? undefined : await readPoolRecording(values.metrics);
  const clock = new ManualClock(recording?.now ?? 0);
  const gateway = await createGatewayFromConfig({
    ...(values.config === undefined ? {} : { config: await readFile(values.config, 'utf8'), configPath: values.config }),
    ...(values.endpoints === undefined ? {} : { endpoints: values.endpoints.split(',').map((s) => s.trim()).filter((s) => s !== '') }),
    scrapeMetrics: false,
    clock,
    ...(io.plugins === undefined ? {} : { plugins: io.plugins }),
  });
  try {
    const request = parseRequest({ path: values.path ?? '/v1/chat/completions', headers: parseHeaderFlags(values.header), body: await readFile(values.request) }, gateway.pools[0]?.parsers === undefined ? {} : { parsers: gateway.pools[0].parsers });
    const route = gateway.handler.router.resolve(request.model);
    if (route === undefined) throw new SwitchyardError('MODEL_NOT_FOUND', `model "${request.model}" is not served by this gateway's config`);
    const built = gateway.pools.find((p) => p.pool.name === route.pool.name) ?? gateway.pools[0];
    if (built === undefined) throw new SwitchyardError('CONFIG_INVALID', 'the config has no pool');
    const pool = built.pool.endpoints ?? built.source;
    if (recording !== undefined) applyPoolRecording(pool, recording, clock.now(), built.pool.name);
    const placement = new EndpointPicker({ pool, config: built.config, clock, poolName: built.pool.name });
    const record = await explainPick(placement, request, { pool: built.pool.name, ...(route.modelRewrite === undefined ? {} : { classification: { modelRewrite: route.modelRewrite } }) });
    if (values.json === true) io.out(JSON.stringify(record, null, 2));
    else {
      io.out(formatExplanation(record));
      io.out('(admission, i.e. flow-control queueing or saturation shedding, is not evaluated offline)');
    }
    return record.outcome === 'rejected' ? 1 : 0;
  } finally {
    await gateway.close();
  }
}
