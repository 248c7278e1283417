/**
 * The parts of Kubernetes object metadata Switchyard reads.
 * @public
 * @category Resources
 */
export interface ObjectMeta {
  readonly name?: string;
  readonly namespace?: string;
  readonly resourceVersion?: string;
  readonly uid?: string;
  readonly labels?: Readonly<Record<string, string>>;
  readonly annotations?: Readonly<Record<string, string>>;
  readonly creationTimestamp?: string | Date;
  readonly deletionTimestamp?: string | Date;
}

/**
 * Any Kubernetes object, as lists and watches carry it.
 * @public
 * @category Resources
 */
export interface KubeObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: ObjectMeta;
}

/**
 * The parts of a core/v1 Pod that discovery reads.
 * @public
 * @category Resources
 */
export interface PodObject extends KubeObject {
  readonly spec?: { readonly hostname?: string; readonly nodeName?: string };
  readonly status?: {
    readonly podIP?: string;
    readonly hostIP?: string;
    readonly conditions?: readonly { readonly type: string; readonly status: string }[];
  };
}

/**
 * The parts of an `inference.networking.k8s.io/v1` InferencePool that discovery reads.
 * @public
 * @category Resources
 */
export interface InferencePoolObject extends KubeObject {
  readonly spec?: {
    readonly selector?: { readonly matchLabels?: Readonly<Record<string, string>> };
    readonly targetPorts?: readonly { readonly number: number }[];
    readonly appProtocol?: string;
    readonly endpointPickerRef?: { readonly name?: string; readonly failureMode?: string; readonly port?: { readonly number?: number } };
  };
}

/**
 * A ConfigMap (IPP model mappings).
 * @public
 * @category Resources
 */
export interface ConfigMapObject extends KubeObject {
  readonly data?: Readonly<Record<string, string>>;
}

/**
 * A `coordination.k8s.io/v1` Lease.
 * @public
 * @category Resources
 */
export interface LeaseObject extends KubeObject {
  readonly spec?: {
    readonly holderIdentity?: string;
    readonly leaseDurationSeconds?: number;
    readonly acquireTime?: string | Date;
    readonly renewTime?: string | Date;
    readonly leaseTransitions?: number;
  };
}
