/**
 * llm-d metric families (catalogue §4) that Switchyard's `/metrics` does not match yet or on
 * purpose. The metrics parity test (tests/llm-d-metrics.test.ts) keeps every list exact: a listed
 * family that appears (or matches), or an unlisted one that is missing or differs, fails it;
 * docs/config.md's metrics table is generated from these lists.
 */

/** Families Switchyard deliberately does not expose, with the reason. */
export const DELIBERATELY_ABSENT: Readonly<Record<string, string>> = {
  llm_d_epp_plugin_data_scope_violations_total: 'Switchyard does not confine plugins to declared data keys at run time, so there is no violation to count',
};

/**
 * Deprecated twins still missing. Every other twin is computed from its current family at scrape
 * time (core's `registerDeprecatedTwin`); these wait for the current family or its plugin.
 */
const TWINS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    [
      'kvcache_kvevents_dedup_removed_hashes_suppressed_total',
      'kvcache_kvevents_dedup_removed_hashes_forwarded_total',
    ].map((n) => [n, 'deprecated twin of an llm_d_epp_kv_cache_* family, which is not mapped yet']),
  ),
};

const KV = "the precise prefix index counts KV events in switchyard_kv_event_* families; llm-d's kvcache index and ZMQ subscriber families are not mapped yet";

/** Families that are missing, or exposed but not matching llm-d yet, with what stands in the way. */
export const NOT_YET: Readonly<Record<string, string>> = {
  ...TWINS,
  ...Object.fromEntries(
    [
      'events_dedup_removed_hashes_suppressed_total', 'events_dedup_removed_hashes_forwarded_total', 'events_stores_skipped_total',
      'events_removals_skipped_total', 'events_active_subscribers', 'events_subscriber_reconnections_total', 'events_messages_received_total',
      'events_zmq_errors_total', 'events_pool_queue_depth', 'events_pool_capacity',
    ].map((n) => [`llm_d_epp_kv_cache_${n}`, KV]),
  ),
};

/** Families only the EPP exposes (the HTTP gateway has no equivalent), with why. */
export const EPP_ONLY: Readonly<Record<string, string>> = {
  llm_d_epp_extproc_streams_inflight: 'ext_proc streams (with --enable-grpc-stream-metrics); the gateway serves HTTP',
  llm_d_epp_extproc_stream_duration_seconds: 'ext_proc streams (with --enable-grpc-stream-metrics); the gateway serves HTTP',
  llm_d_epp_extproc_streams_total: 'ext_proc streams (with --enable-grpc-stream-metrics); the gateway serves HTTP',
};

/** Families exposed but without samples after the test's requests (so labels are unchecked there), with why. */
export const NOT_OBSERVED: Readonly<Record<string, string>> = {
  llm_d_epp_kv_cache_index_lookup_latency_seconds: 'needs precise-prefix-cache-producer and token ids; asserted in prefix-index/src/plugins/producers.test.ts',
  kvcache_index_lookup_latency_seconds: 'needs precise-prefix-cache-producer and token ids; asserted in prefix-index/src/plugins/producers.test.ts',
  llm_d_epp_model_rewrite_decisions_total: 'needs an InferenceModelRewrite; labels asserted in core/src/picker/model-rewrite-metrics.test.ts',
  inference_extension_model_rewrite_decisions_total: 'needs an InferenceModelRewrite; labels asserted in core/src/picker/model-rewrite-metrics.test.ts',
  llm_d_epp_disagg_decision_total: 'needs a disaggregating profile handler; labels asserted in core/src/picker/disagg-decision-metrics.test.ts',
  llm_d_inference_scheduler_disagg_decision_total: 'needs a disaggregating profile handler; labels asserted in core/src/picker/disagg-decision-metrics.test.ts',
  llm_d_epp_pd_decision_total: 'needs pd-profile-handler; labels asserted in core/src/plugins/profile-handlers/pd-profile-handler.test.ts',
  llm_d_inference_scheduler_pd_decision_total: 'needs pd-profile-handler; labels asserted in core/src/picker/disagg-decision-metrics.test.ts',
  llm_d_epp_flow_control_revocations_issued_total: 'needs in-flight eviction of a saturated pool; labels asserted in the flow-control eviction tests',
  llm_d_epp_flow_control_revocations_total: 'needs in-flight eviction of a saturated pool; labels asserted in the flow-control eviction tests',
  llm_d_epp_flow_control_revocation_confirmation_seconds: 'needs in-flight eviction of a saturated pool and a revoked request ending; asserted in the flow-control eviction tests',
  llm_d_epp_disaggregatedset_strict_header_no_match_total: 'needs endpoints labelled with DisaggregatedSet revisions and a strict header matching none; labels asserted in core/src/plugins/screeners/disaggregatedset-rollout-screener.test.ts',
  llm_d_epp_disaggregatedset_revision_gating_share: 'needs endpoints labelled with DisaggregatedSet revisions and roles; labels asserted in core/src/plugins/screeners/disaggregatedset-rollout-screener.test.ts',
};
