export { ReplicaSync, DEFAULT_SYNC_INTERVAL_MS } from './replica-sync.js';
export type { ReplicaSyncOptions } from './replica-sync.js';
export { InMemoryStateHub } from './in-memory-hub.js';
export type { InMemoryStateHubOptions } from './in-memory-hub.js';
export { SharedStateMetrics } from './metrics.js';
export type { RecordDirection } from './metrics.js';
export type {
  ExchangeReply,
  ExchangeRequest,
  PeerSnapshot,
  ReceivedRecord,
  RecordHandler,
  ReplicaLoad,
  SharedRecord,
  SharedState,
  SharedStateStatus,
  SharedStateTransport,
} from './types.js';
export { resolveSharedStateSettings, sharedStateSectionSchema, sharedStateSettingsOf, switchyardSectionSchema } from './settings.js';
export type { SwitchyardSection } from './settings.js';
export type { SharedStateSettings, SharedStateSettingsInput } from './settings.js';
