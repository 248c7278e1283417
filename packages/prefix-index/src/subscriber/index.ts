export { KvEventSubscriber, DEFAULT_KV_EVENTS_PORT } from './kv-event-subscriber.js';
export type { KvEventSubscriberOptions, KvEventSubscriberEvents, KvSubscriptionStatus } from './kv-event-subscriber.js';
export type { KvEndpointAddress, KvEventSink } from './endpoint-subscription.js';
export { requestReplay } from './replay-client.js';
export type { ReplayRequest, ReplayOutcome } from './replay-client.js';
export { encodeSeq, decodeSeq, topicModel, REPLAY_END_SEQ } from './wire.js';
export { loadZeromq } from './zmq-types.js';
export type { ZmqModule, ZmqSocketLike, ZmqSubscriberLike, ZmqDealerLike } from './zmq-types.js';
export type { KvEventBudgetOptions } from './event-budget.js';
