export { decodeProcessingRequest, encodeProcessingRequest } from './request.js';
export { encodeProcessingResponse, decodeProcessingResponse } from './response.js';
export { decodeHealthCheckRequest, encodeHealthCheckRequest, encodeHealthCheckResponse, decodeHealthCheckResponse } from './health.js';
