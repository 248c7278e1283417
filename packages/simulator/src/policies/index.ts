export { BUILTIN_POLICIES, builtinPolicy, configPolicy, pickerPolicy, createSimulatorRegistry } from './builtin.js';
export type { BuiltinPolicyName } from './builtin.js';
export { createRoundRobinPicker, roundRobinPickerPlugin, ROUND_ROBIN_PICKER } from './round-robin.js';
export { createOraclePrefixScorer, createOracleQueueScorer, createOracleKvScorer, ORACLE_PREFIX_SCORER, ORACLE_LOAD_SCORER, ORACLE_KV_SCORER } from './oracle.js';
export { toPrefixIndexBatch } from './kv-bridge.js';
