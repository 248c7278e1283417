/**
 * llm-d plugin types no Switchyard package registers yet. The catalogue test keeps this list
 * exact: registering one of them fails the test until it is removed here.
 */
export const KNOWN_MISSING_TYPES: readonly string[] = [
  // Request side exported from core as vllmGrpcParser (not registered yet); still needs a protobuf
  // response-body kind in core's reader for usage, and mm_inputs hashes (docs/llm-d-parity.md).
  'vllmgrpc-parser',
];

/** `type.parameter` probes of the catalogue that a registered type still rejects. */
export const KNOWN_REJECTED_PARAMETERS: readonly string[] = [];

/**
 * Types that load with llm-d's parameters but have no effect here yet, with why: the
 * compatibility table lists them as accepted-not-acted-on with the reason.
 */
export const KNOWN_INERT_TYPES: Readonly<Record<string, string>> = {
  'k8s-notification-source': 'loads and fans events out to the extractors wired to it, but no adapter starts its Kubernetes watch and no Switchyard extractor consumes object events yet',
};
