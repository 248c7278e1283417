import { z } from 'zod';
import { definePlugin } from '../../registry/types.js';
import type { Plugin } from '../../scheduling/plugins.js';

/**
 * Type of llm-d's Kubernetes object notification source. @public
 * @category Built-in plugins
 */
export const K8S_NOTIFICATION_SOURCE = 'k8s-notification-source';

/**
 * Parameters of `k8s-notification-source`: the group, version and kind of the objects to watch,
 * as llm-d takes them (`group` may be `""`, the core API group; `version` and `kind` are required).
 * @public
 * @category Built-in plugins
 */
export const k8sNotificationSourceParameters = z.strictObject({
  group: z.string(),
  version: z.string().min(1),
  kind: z.string().min(1),
});

/**
 * One add / update / delete of a watched object, as a Kubernetes watch reports it. @public
 * @category Built-in plugins
 */
export interface ObjectNotification {
  /** What happened. */
  readonly type: 'ADDED' | 'MODIFIED' | 'DELETED';
  /** The object (unstructured). */
  readonly object: Readonly<Record<string, unknown>>;
}

/**
 * An extractor fed by a notification source (llm-d's notification extractor). @public
 * @category Built-in plugins
 */
export interface NotificationExtractor extends Plugin {
  /** Handles one event of the source's kind. */
  onNotification(event: ObjectNotification): void;
}

/**
 * A `k8s-notification-source` instance: it hands the events of one group/version/kind to the
 * extractors wired to it in `dataLayer.sources`. Something that watches Kubernetes delivers them;
 * as in llm-d, nothing does outside Kubernetes mode.
 * @public
 * @category Built-in plugins
 */
export interface K8sNotificationSource extends Plugin {
  /** `group/version, Kind=kind` (llm-d's GVK string, `v1, Kind=Pod` for the core group). */
  readonly gvk: string;
  /** The watched group, version and kind. */
  readonly resource: z.output<typeof k8sNotificationSourceParameters>;
  /** Wires extractors to this source (the config loader calls it for `dataLayer.sources`). */
  attachExtractors(extractors: readonly Plugin[]): void;
  /** Hands one event to every attached extractor; an extractor that throws does not stop the others. */
  deliver(event: ObjectNotification): void;
}

/**
 * True when `p` is a {@link K8sNotificationSource}. @public
 * @category Built-in plugins
 */
export function isK8sNotificationSource(p: Plugin): p is K8sNotificationSource {
  return p.type === K8S_NOTIFICATION_SOURCE && typeof (p as Partial<K8sNotificationSource>).deliver === 'function';
}

const isNotificationExtractor = (p: Plugin): p is NotificationExtractor => typeof (p as Partial<NotificationExtractor>).onNotification === 'function';

class NotificationFanOut implements K8sNotificationSource {
  readonly type = K8S_NOTIFICATION_SOURCE;
  readonly gvk: string;
  readonly #extractors: NotificationExtractor[] = [];

  constructor(readonly name: string, readonly resource: z.output<typeof k8sNotificationSourceParameters>) {
    const gv = resource.group === '' ? resource.version : `${resource.group}/${resource.version}`;
    this.gvk = `${gv}, Kind=${resource.kind}`;
  }

  attachExtractors(extractors: readonly Plugin[]): void {
    for (const e of extractors) if (isNotificationExtractor(e) && !this.#extractors.includes(e)) this.#extractors.push(e);
  }

  deliver(event: ObjectNotification): void {
    for (const e of this.#extractors) {
      try {
        e.onNotification(event);
      } catch {
        // llm-d counts an extractor's failure and goes on with the next one.
      }
    }
  }
}

/**
 * `k8s-notification-source` (llm-d): watches one Kubernetes group/version/kind and feeds its
 * add / update / delete events to notification extractors. It loads with llm-d's parameters and
 * fans events out to the extractors wired to it; no Switchyard extractor consumes object
 * notifications and no adapter starts the watch yet, so today it delivers nothing.
 * @public
 * @category Built-in plugins
 */
export const k8sNotificationSourcePlugin = definePlugin({
  type: K8S_NOTIFICATION_SOURCE,
  description: 'Data-layer source: add/update/delete events of one Kubernetes group/version/kind for notification extractors.',
  parameters: k8sNotificationSourceParameters,
  create: (p, ctx): K8sNotificationSource => new NotificationFanOut(ctx.name, p),
});
