export { destinationEndpointServedVerifierPlugin, servedEndpointVerdict, DESTINATION_ENDPOINT_SERVED_VERIFIER } from './destination-endpoint-served-verifier.js';
