export { definePlugin } from './types.js';
export type { PluginDefinition, PluginFactoryContext } from './types.js';
