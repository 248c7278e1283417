/**
 * The two parts of an endpoint id as metric labels carry them: under Kubernetes ids are
 * `<namespace>/<name>` (the name may end in `-rank-<i>`); any other id is all name, no namespace.
 * @internal
 */
export function splitEndpointId(id: string): { readonly namespace: string; readonly name: string } {
  const slash = id.indexOf('/');
  return slash < 0 ? { namespace: '', name: id } : { namespace: id.slice(0, slash), name: id.slice(slash + 1) };
}
