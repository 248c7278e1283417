export { inFlightLoadProducerPlugin, localInFlightLoad, poolInFlightLoad } from './inflight-load-producer.js';
export { sessionIdProducerPlugin } from './session-id-producer.js';
export { predictedLatencyProducerPlugin, createPredictedLatencyProducer } from './predicted-latency-producer.js';
export type { PredictedLatencyProducerOptions } from './predicted-latency-producer.js';
export { createEwmaLatencyPredictor } from './latency-predictor.js';
export type { LatencyPredictor, LatencySample, EwmaLatencyPredictorOptions } from './latency-predictor.js';
export { mmEmbeddingsCacheProducerPlugin, mmEmbeddingsCacheProducerParameters, encoderCacheAttribute, multimodalItems, MM_EMBEDDINGS_CACHE_PRODUCER } from './mm-embeddings-cache-producer.js';
export type { EncoderCacheMatch } from './mm-embeddings-cache-producer.js';
export { p2pSourceProducerPlugin, p2pSourceProducerParameters, bestMatchAttribute, chooseKvSource, P2P_SOURCE_PRODUCER, KV_CACHE_SOURCE_HEADER } from './p2p-source-producer.js';
