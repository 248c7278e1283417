/**
 * `@switchyard/simulator`: a vLLM-like engine model, a live HTTP model-server fleet, a
 * virtual-time fleet simulator, workloads and reports for Switchyard.
 *
 * The root export lists its public names one by one (no `export *`), grouped by module.
 * @packageDocumentation
 */
// util
export { createRng, chainRoot, hashBlock, hashBlocks, Histogram } from './util/index.js';
export type { Rng } from './util/index.js';

// tokens
export {
  BYTES_PER_TOKEN, tokenizeText, tokenizeBytes, detokenize, detokenizeBytes, countTextTokens,
  renderChatTemplate, flattenContent, syntheticToken, fillSyntheticTokens,
} from './tokens/index.js';
export type { TemplateMessage } from './tokens/index.js';

// engine
export {
  EngineModel, resolveEngineConfig, ENGINE_PROFILES, PROFILE_8B_H100, PROFILE_32B_H100,
  PROFILE_TINY, getProfile, StepShape, baseStepTimeMs, stepTimeMs, BlockManager, LoraManager,
  EngineStats, encodeKvEventBatch, renderMetrics, calibrationPoints,
} from './engine/index.js';
export type {
  EngineOptions, EngineEvents, EngineSnapshot, EngineConfigInput, CostModelParams, EngineProfile,
  EngineConfig, FinishReason, EngineRequestSpec, EngineRequestCallbacks, EngineRequestResult,
  KvBlockOwner, EngineRequestView, SequenceStatus, KvMedium, SimKvEvent, SimKvEventBatch,
  SimBlockStoredEvent, SimBlockRemovedEvent, SimAllBlocksClearedEvent, KvEventEncoding, MetricsFlavor,
  RenderMetricsOptions, CalibrationPoint,
} from './engine/index.js';

// server
export { ModelServer, KvEventPublisher, startFleet, scaledClock } from './server/index.js';
export type {
  ModelServerOptions, ModelServerAddress, KvEventPublisherOptions, FleetOptions, FleetEndpoint,
  Fleet, GenerationApi, ParsedGeneration, OpenAiUsage,
} from './server/index.js';

// cli
export { runCli } from './cli/index.js';
export type { CliIo } from './cli/index.js';

// workloads
export {
  materializePrompt, promptLengthOf, prefixParts, commonPrefixLength, generatedLength,
  poissonArrivals, thinnedArrivals, burstyArrivals, sharedPrefixWorkload, agenticWorkload,
  multiTurnWorkload, multiTenantWorkload, DEFAULT_TENANTS, loraMixWorkload, mooncakeTraceWorkload,
  estimateCapacity, createWorkloadPreset, WORKLOAD_PRESETS, azureTraceWorkload, detectTickMs,
  traceWorkload, scaleArrivals,
} from './workloads/index.js';
export type {
  SyntheticSpan, PromptPart, WorkloadItem, Workload, SharedPrefixOptions, AgenticOptions,
  MultiTurnOptions, MultiTenantOptions, TenantSpec, BurstSpec, LoraMixOptions, MooncakeOptions,
  CapacityShape, PresetOptions, WorkloadPreset, AzureTraceOptions, TraceOptions,
} from './workloads/index.js';

// report
export {
  percentiles, cdfPoints, jainIndex, downsample, buildReport, renderReportHtml, writeReport,
  countOutcomes, failureClass, ttftOrInfinity, seedInterval, measuredWindow, measuredSummary,
} from './report/index.js';
export type {
  RequestRecord, LoadSample, PolicyRun, Percentiles, TenantSummary, PolicySummary,
  ComparisonReport, BoundsSummary, MeasuredSummary, SeedSummary, ReportInput, FailureClass,
  OutcomeCounts, SeedInterval, MeasuredWindow, MeasuredInput,
} from './report/index.js';

// fleet
export {
  runVirtualFleet, engineMetrics, scrapeEngineMetrics, itemRequest, itemPickOptions,
  priorityObjectives, comparePolicies, DEFAULT_GATEWAY_CPU, gatewayCpuMs, requestPathMs,
  DEFAULT_SIGNAL_TIMING, measureCapacity,
} from './fleet/index.js';
export type {
  FleetView, PolicyContext, SimPolicy, PolicyFactory, MembershipChange, VirtualFleetOptions,
  CompareOptions, GatewayCpuModel, SignalTiming, CapacityProbeOptions, MeasuredCapacity,
} from './fleet/index.js';

// policies
export {
  BUILTIN_POLICIES, builtinPolicy, configPolicy, pickerPolicy, createSimulatorRegistry,
  createRoundRobinPicker, roundRobinPickerPlugin, ROUND_ROBIN_PICKER, createOraclePrefixScorer,
  createOracleQueueScorer, createOracleKvScorer, ORACLE_PREFIX_SCORER, ORACLE_LOAD_SCORER,
  ORACLE_KV_SCORER, toPrefixIndexBatch,
} from './policies/index.js';
export type { BuiltinPolicyName } from './policies/index.js';

// bounds
export {
  requestBlocks, workloadBlocks, unlimitedCacheHits, beladyHits, bestPossibleHits, idlePrefillMs,
  ttftLowerBounds, computeBounds,
} from './bounds/index.js';
export type { RequestBlocks, TtftBoundEngine, BoundsOptions, WorkloadBounds } from './bounds/index.js';

// matrix
export {
  MATRIX_WORKLOADS, MATRIX_LOADS, MATRIX_GATEWAYS, MATRIX_BASELINES, matrixCells, judgeCell,
  MATRIX_RULES, runMatrix, formatMatrix, formatCellRow, MATRIX_HEADER,
} from './matrix/index.js';
export type {
  MatrixWorkload, MatrixCell, CellFigures, CellVerdict, MatrixRules, ReuseCheck, MatrixOptions,
  CellResult,
} from './matrix/index.js';
