import type { SharedState } from './types.js';

/**
 * A view of `state` whose channels and pool scope are prefixed with `scope/`, so the plugins of
 * several pools (or several configs) in one process never read each other's records.
 * @internal
 */
export function scopedState(state: SharedState, scope: string): SharedState {
  return {
    replicaId: state.replicaId,
    attachPool: (pool, s) => {
      state.attachPool(pool, s === undefined ? scope : `${scope}/${s}`);
    },
    publish: (channel, data) => {
      state.publish(`${scope}/${channel}`, data);
    },
    subscribe: (channel, handler) => state.subscribe(`${scope}/${channel}`, handler),
    scope: (inner) => scopedState(state, `${scope}/${inner}`),
    status: () => state.status(),
  };
}
