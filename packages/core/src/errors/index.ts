export { ERROR_CONTRACT } from './codes.js';
export type { ErrorCode } from './codes.js';
export { SwitchyardError, isSwitchyardError } from './switchyard-error.js';
export type { SwitchyardErrorOptions } from './switchyard-error.js';
export { errorToResponse } from './to-response.js';
export type { ErrorResponse } from './to-response.js';
