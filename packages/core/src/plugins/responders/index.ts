export { isResponder, localResponse } from './responder.js';
export type { RequestLine, LocalResponse, Responder } from './responder.js';
export { modelsResponderPlugin, aggregateModels, MODELS_RESPONDER } from './models-responder.js';
