/** One resource type the fake API server serves. */
export interface ResourceType {
  readonly group: string;
  readonly version: string;
  readonly plural: string;
  readonly singular: string;
  readonly kind: string;
  readonly namespaced: boolean;
  readonly shortNames?: readonly string[];
}

/** `group/version` (`v1` for the core group). */
export const groupVersion = (t: Pick<ResourceType, 'group' | 'version'>): string => (t.group === '' ? t.version : `${t.group}/${t.version}`);

/** Map key of a resource type. */
export const typeKey = (group: string, version: string, plural: string): string => `${group}/${version}/${plural}`;

const core = (plural: string, kind: string, shortNames?: string[]): ResourceType => ({ group: '', version: 'v1', plural, singular: kind.toLowerCase(), kind, namespaced: true, ...(shortNames === undefined ? {} : { shortNames }) });

const crd = (group: string, version: string, plural: string, kind: string, shortNames?: string[]): ResourceType => ({
  group,
  version,
  plural,
  singular: kind.toLowerCase(),
  kind,
  namespaced: true,
  ...(shortNames === undefined ? {} : { shortNames }),
});

/** The types served by default: what discovery, objectives, IPP and leader election read. */
export function defaultResourceTypes(options: { legacyObjectiveGroup?: boolean; llmdObjectiveGroup?: boolean } = {}): ResourceType[] {
  const types = [
    core('pods', 'Pod', ['po']),
    core('configmaps', 'ConfigMap', ['cm']),
    crd('coordination.k8s.io', 'v1', 'leases', 'Lease'),
    crd('inference.networking.k8s.io', 'v1', 'inferencepools', 'InferencePool', ['infpool']),
  ];
  if (options.llmdObjectiveGroup !== false) {
    types.push(crd('llm-d.ai', 'v1alpha2', 'inferenceobjectives', 'InferenceObjective'), crd('llm-d.ai', 'v1alpha2', 'inferencemodelrewrites', 'InferenceModelRewrite'));
  }
  if (options.legacyObjectiveGroup === true) {
    types.push(
      crd('inference.networking.x-k8s.io', 'v1alpha2', 'inferenceobjectives', 'InferenceObjective'),
      crd('inference.networking.x-k8s.io', 'v1alpha2', 'inferencemodelrewrites', 'InferenceModelRewrite'),
    );
  }
  return types;
}

/** Legacy (non-aggregated) discovery documents for `types`: `/api`, `/api/v1`, `/apis`, `/apis/<g>/<v>`. */
export function discoveryDocuments(types: readonly ResourceType[]): Map<string, unknown> {
  const docs = new Map<string, unknown>();
  docs.set('/api', { kind: 'APIVersions', versions: ['v1'], serverAddressByClientCIDRs: [{ clientCIDR: '0.0.0.0/0', serverAddress: '127.0.0.1' }] });
  const byGv = new Map<string, ResourceType[]>();
  for (const t of types) byGv.set(groupVersion(t), [...(byGv.get(groupVersion(t)) ?? []), t]);
  const groups = new Map<string, string[]>();
  for (const [gv, list] of byGv) {
    const first = list[0];
    if (first === undefined) continue;
    docs.set(first.group === '' ? '/api/v1' : `/apis/${gv}`, {
      kind: 'APIResourceList',
      apiVersion: 'v1',
      groupVersion: gv,
      resources: list.map((t) => ({
        name: t.plural,
        singularName: t.singular,
        namespaced: t.namespaced,
        kind: t.kind,
        verbs: ['create', 'delete', 'get', 'list', 'patch', 'update', 'watch'],
        ...(t.shortNames === undefined ? {} : { shortNames: t.shortNames }),
      })),
    });
    if (first.group !== '') groups.set(first.group, [...(groups.get(first.group) ?? []), first.version]);
  }
  docs.set('/apis', {
    kind: 'APIGroupList',
    apiVersion: 'v1',
    groups: [...groups].map(([name, versions]) => ({
      name,
      versions: versions.map((version) => ({ groupVersion: `${name}/${version}`, version })),
      preferredVersion: { groupVersion: `${name}/${versions[0] ?? ''}`, version: versions[0] ?? '' },
    })),
  });
  return docs;
}
