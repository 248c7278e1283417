/**
 * Why llm-d parameters that choose a producer instance have no effect here: Switchyard keeps one
 * value per attribute and picker, so every consumer reads the same one (docs/config.md).
 * @internal
 */
export const NotActedOnReasons = {
  inFlightLoadProducer: 'Switchyard keeps one in-flight load per picker (the pool\'s exact counts); every consumer reads it',
  latencyPredictionProducer: 'Switchyard keeps one latency prediction per request; every consumer reads it',
  crossReplicaSync: 'no cross-replica syncer is configured (llm-d registers none in-tree either); in-flight load stays per replica',
  deprecatedIgnored: 'deprecated in llm-d and ignored there too',
} as const;
