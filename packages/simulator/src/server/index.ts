export { ModelServer } from './model-server.js';
export type { ModelServerOptions, ModelServerAddress } from './model-server.js';
export { KvEventPublisher } from './kv-publisher.js';
export type { KvEventPublisherOptions } from './kv-publisher.js';
export { startFleet } from './fleet.js';
export type { FleetOptions, FleetEndpoint, Fleet } from './fleet.js';
export { scaledClock } from './scaled-clock.js';
export type { GenerationApi, ParsedGeneration } from './openai-parse.js';
export type { OpenAiUsage } from './openai-format.js';
