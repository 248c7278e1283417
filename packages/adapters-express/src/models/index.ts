export { ModelRegistry } from './registry.js';
export type { ModelRegistryOptions, ModelRoute, WeightedTarget } from './registry.js';
export { singlePoolRouter } from './router.js';
export type { ModelRouter, RouteResolution, ModelInfo } from './router.js';
export { KnownModels, UNKNOWN_MODEL_LABEL } from './known-models.js';
export { CatalogueRouter } from './catalogue-router.js';
export type { CatalogueRouterOptions, ModelCatalogue } from './catalogue-router.js';
