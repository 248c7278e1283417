import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { EndpointPicker, EndpointPool, ManualClock, ModelRewriteStore, ObjectiveStore, SwitchyardError, applyPoolRecording, closePlugins, configPlugins, createDefaultRegistry, explainPick, formatExplanation, loadConfig, loadResources, parseRequest, readPoolRecording, splitConsoleSection, type EndpointSpec } from '@switchyard/core';
import { parseHeaderFlags, withScrapePort } from '@switchyard/core/internal';
import { flowControlPack } from '@switchyard/flow-control';
import { createPrefixIndexMetrics, prefixIndexPack } from '@switchyard/prefix-index';
import { splitEndpoints } from './args.js';

/**
 * Usage text of `switchyard-epp explain`. @public
 * @category CLI
 */
export const EPP_EXPLAIN_USAGE = `Usage: switchyard-epp explain --config FILE --request body.json [--metrics SNAPSHOT]
                              [--endpoints ip:port,... | --endpoints-file FILE] [--resources FILE]
                              [--path P] [--header 'name: value']... [--json]

Prints where the endpoint picker would send one request and why: every filter, every scorer's
score and weight per endpoint, the pick and the fallbacks. Nothing is sent anywhere.

  --config FILE        the EPP's EndpointPickerConfig
  --request FILE       the request body (JSON)
  --metrics SNAPSHOT   pool state: a file saved from the console's GET /console/api/snapshot, or
                       the URL of a running console's snapshot. Without --endpoints, its endpoints
                       (id and address) are the pool
  --endpoints LIST     the pool's ip:port model servers (or --endpoints-file)
  --resources FILE     InferenceObjective / InferenceModelRewrite manifests
  --path P             request path (default /v1/chat/completions)
  --header 'N: V'      a request header (repeatable), e.g. 'x-gateway-inference-objective: chat'
  --json               print the decision record as JSON
`;

function parse(argv: readonly string[]) {
  try {
    return parseArgs({
      args: [...argv],
      options: {
        config: { type: 'string', short: 'c' },
        request: { type: 'string', short: 'r' },
        metrics: { type: 'string', short: 'm' },
        endpoints: { type: 'string', short: 'e' },
        'endpoints-file': { type: 'string' },
        resources: { type: 'string' },
        path: { type: 'string' },
        header: { type: 'string', multiple: true },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    throw new SwitchyardError('CONFIG_INVALID', `explain: ${err instanceof Error ? err.message : String(err)}`);
  }
}

/**
 * Runs `switchyard-epp explain`: loads the config as the EPP does (same plugins, objectives and
 * rewrites), builds the pool from the flags or the recording, applies the recorded metrics and
 * schedules the request once without admission (it delays or sheds, it does not place).
 * @returns the exit code: 0 decided, 1 rejected by scheduling
 * @throws SwitchyardError `CONFIG_INVALID` for bad flags, config or recording
 * @public
 * @category CLI
 */
export async function runEppExplain(argv: readonly string[], out: (text: string) => void): Promise<number> {
  const values = parse(argv);
  if (values.help === true) {
    out(EPP_EXPLAIN_USAGE);
    return 0;
  }
  if (values.request === undefined) throw new SwitchyardError('CONFIG_INVALID', '--request: give the request body file');
  const recording = values.metrics === undefined ? undefined : await readPoolRecording(values.metrics);
  const clock = new ManualClock(recording?.now ?? 0);
  const pool = new EndpointPool();
  // The EPP's packs; admission is not evaluated offline, so the picker below gets none.
  const registry = createDefaultRegistry().registerPack(prefixIndexPack({ metrics: createPrefixIndexMetrics() })).registerPack(flowControlPack);
  const split = splitConsoleSection(values.config === undefined ? undefined : await readFile(values.config, 'utf8'));
  const config = loadConfig(split.document, { registry, pool, clock });
  try {
    const listed = values['endpoints-file'] !== undefined ? splitEndpoints(await readFile(values['endpoints-file'], 'utf8')) : values.endpoints === undefined ? undefined : splitEndpoints(values.endpoints);
    const specs: EndpointSpec[] = listed?.map((address) => ({ address })) ?? (recording?.pools[0]?.endpoints ?? []).flatMap((e) => (e.address === undefined ? [] : [{ id: e.id, address: e.address, labels: e.labels }]));
    if (specs.length === 0) throw new SwitchyardError('CONFIG_INVALID', '--endpoints: give the pool (or a --metrics snapshot that lists it)');
    for (const s of specs) pool.add(withScrapePort(s, config.dataLayerSettings.scrape));
    if (recording !== undefined) applyPoolRecording(pool, recording, clock.now());
    const resources = values.resources === undefined ? undefined : loadResources(await readFile(values.resources, 'utf8'), { ignoreUnknownKinds: true });
    const picker = new EndpointPicker({
      pool,
      config,
      clock,
      objectives: resources === undefined ? undefined : new ObjectiveStore(resources.objectives),
      rewrites: resources === undefined ? undefined : new ModelRewriteStore(resources.modelRewrites),
    });
    const request = parseRequest({ path: values.path ?? '/v1/chat/completions', headers: parseHeaderFlags(values.header), body: await readFile(values.request) }, config.parsers === undefined ? {} : { parsers: config.parsers });
    const record = await explainPick(picker, request);
    out(values.json === true ? `${JSON.stringify(record, null, 2)}\n` : `${formatExplanation(record)}\n(admission, i.e. flow-control queueing or saturation shedding, is not evaluated offline)\n`);
    return record.outcome === 'rejected' ? 1 : 0;
  } finally {
    await closePlugins(configPlugins(config));
  }
}
