export * from './names.js';
export { normalizeHeaders, readClassificationHeader, stripControlHeaders } from './header-bag.js';
export type { HeaderInput } from './header-bag.js';
