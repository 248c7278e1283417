export { destinationEndpointServedVerifierPlugin, servedEndpointVerdict, DESTINATION_ENDPOINT_SERVED_VERIFIER } from './destination-endpoint-served-verifier.js';
export { requestAttributeReporterPlugin, requestAttributeReporterParameters, REQUEST_ATTRIBUTE_REPORTER } from './request-attribute-reporter.js';
export { compileUsageExpression, usageCelValue, type UsageExpression } from './usage-expression.js';
