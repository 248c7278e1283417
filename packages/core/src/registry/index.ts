export { definePlugin } from './types.js';
export type { PluginDefinition, PluginFactoryContext } from './types.js';
export { PluginRegistry } from './plugin-registry.js';
export type { RegisterOptions } from './plugin-registry.js';
export { createDefaultRegistry } from './default-registry.js';
export type { PluginPack, ConfigSections, AdmissionFactory, AdmissionFactoryContext } from './plugin-pack.js';
export { renamedPluginDefinition } from './renamed-plugin.js';
