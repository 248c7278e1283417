export { runCli } from './run.js';
export type { CliIo } from './types.js';
