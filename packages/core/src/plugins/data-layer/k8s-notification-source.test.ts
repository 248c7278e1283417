import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { EndpointPool, ManualClock, createDefaultRegistry, definePlugin, isK8sNotificationSource, loadConfig, type NotificationExtractor, type ObjectNotification } from '@switchyard/core';

const HEAD = 'apiVersion: inference.networking.x-k8s.io/v1alpha1\nkind: EndpointPickerConfig\n';
const load = (text: string, registry = createDefaultRegistry()) => loadConfig(text, { registry, pool: new EndpointPool(), clock: new ManualClock() });

describe('k8s-notification-source', () => {
  it('loads llm-d parameters (group "" is the core group) and names its GVK as llm-d does', () => {
    const c = load(`${HEAD}plugins:\n- type: k8s-notification-source\n  name: pods\n  parameters: {group: "", version: v1, kind: Pod}\n- type: k8s-notification-source\n  name: sets\n  parameters: {group: apps, version: v1, kind: StatefulSet}\n`);
    const pods = c.plugins.get('pods');
    const sets = c.plugins.get('sets');
    if (pods === undefined || sets === undefined || !isK8sNotificationSource(pods) || !isK8sNotificationSource(sets)) throw new Error('not sources');
    expect(pods.gvk).toBe('v1, Kind=Pod');
    expect(sets.gvk).toBe('apps/v1, Kind=StatefulSet');
  });

  it('requires its parameters and names the bad one', () => {
    expect(() => load(`${HEAD}plugins:\n- type: k8s-notification-source\n`)).toThrow(/plugins\[0\]\.parameters/);
    expect(() => load(`${HEAD}plugins:\n- type: k8s-notification-source\n  parameters: {group: "", kind: Pod}\n`)).toThrow(/plugins\[0\]\.parameters\.version/);
    expect(() => load(`${HEAD}plugins:\n- type: k8s-notification-source\n  parameters: {group: "", version: v1, kind: ""}\n`)).toThrow(/plugins\[0\]\.parameters\.kind/);
    expect(() => load(`${HEAD}plugins:\n- type: k8s-notification-source\n  parameters: {group: "", version: v1, kinds: Pod}\n`)).toThrow(/kinds.*did you mean "kind"/);
  });

  it('hands events to the extractors wired to it in dataLayer.sources, past one that throws', () => {
    const seen: string[] = [];
    const registry = createDefaultRegistry();
    const extractor = (type: string, fail: boolean) => definePlugin({
      type,
      parameters: z.strictObject({}).prefault({}),
      create: (_p, ctx): NotificationExtractor => ({ type, name: ctx.name, onNotification: (e: ObjectNotification) => { if (fail) throw new Error('boom'); seen.push(`${ctx.name}:${e.type}:${(e.object["metadata"] as { name: string }).name}`); } }),
    });
    registry.register(extractor('failing-extractor', true));
    registry.register(extractor('pod-extractor', false));
    const c = load(`${HEAD}plugins:\n- type: k8s-notification-source\n  name: pods\n  parameters: {group: "", version: v1, kind: Pod}\n- type: failing-extractor\n- type: pod-extractor\ndataLayer:\n  sources:\n  - pluginRef: pods\n    extractors: [{pluginRef: failing-extractor}, {pluginRef: pod-extractor}]\n`, registry);
    const pods = c.plugins.get('pods');
    if (pods === undefined || !isK8sNotificationSource(pods)) throw new Error('not a source');
    pods.deliver({ type: 'ADDED', object: { metadata: { name: 'vllm-0' } } });
    pods.deliver({ type: 'DELETED', object: { metadata: { name: 'vllm-0' } } });
    expect(seen).toEqual(['pod-extractor:ADDED:vllm-0', 'pod-extractor:DELETED:vllm-0']);
  });
});
