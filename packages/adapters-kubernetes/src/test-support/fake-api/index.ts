export { startFakeApiServer } from './server.js';
export type { FakeApiServer, FakeApiServerOptions } from './server.js';
export { FakeStore, ApiError, mergePatch } from './store.js';
export type { Obj, StoreEvent } from './store.js';
export { defaultResourceTypes } from './resources.js';
export type { ResourceType } from './resources.js';
export { writeKubeconfig } from './kubeconfig.js';
export { kubectl, kubectlWatch } from './kubectl.js';
export type { KubectlEnv, KubectlWatch } from './kubectl.js';
