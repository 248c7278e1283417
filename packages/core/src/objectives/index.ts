export type { PoolRef, InferenceObjective, ModelRewriteTarget, ModelRewriteRule, InferenceModelRewrite } from './types.js';
export { ObjectiveStore } from './objective-store.js';
export type { ObjectiveStoreOptions } from './objective-store.js';
export { ModelRewriteStore, selectRewriteTarget } from './model-rewrite-store.js';
export type { ModelRewriteStoreOptions, ModelRewriteMatch } from './model-rewrite-store.js';
export { resourceFromManifest, objectiveFromManifest, modelRewriteFromManifest } from './manifests.js';
export type { ResourceKind, ParsedResource } from './manifests.js';
export { loadResources, loadObjectives, loadModelRewrites } from './load.js';
export type { LoadResourcesOptions, LoadedResources } from './load.js';
