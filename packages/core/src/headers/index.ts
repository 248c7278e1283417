export * from './names.js';
export { normalizeHeaders, readClassificationHeader, stripControlHeaders } from './header-bag.js';
export type { HeaderInput } from './header-bag.js';
export { CONTROL_HEADER_PREFIXES, SIDECAR_TRUSTED_HEADERS, isControlHeader } from './control.js';
