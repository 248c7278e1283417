export { KeyTable } from './key-table.js';
export { EndpointSlots } from './endpoint-slots.js';
