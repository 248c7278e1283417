export { parseEppArgs, splitEndpoints, EPP_USAGE, EPP_CLI_DEFAULTS } from './args.js';
export type { EppCliArgs } from './args.js';
export type { LlmdFlags } from './llm-d-flags.js';
export { runEppCli } from './run.js';
export type { EppCliIo } from './run.js';
export { runEppExplain, EPP_EXPLAIN_USAGE } from './explain.js';
