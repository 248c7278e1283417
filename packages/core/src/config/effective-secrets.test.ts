import { describe, expect, it } from 'vitest';
import { EndpointPool, createDefaultRegistry, loadConfig } from '@switchyard/core';

const load = (redisUrl: string) =>
  loadConfig(`apiVersion: llm-d.ai/v1alpha1\nkind: EndpointPickerConfig\nswitchyard:\n  sharedState:\n    redisUrl: "${redisUrl}"\n  ifAvailable:\n    mode: own-history\n`, { registry: createDefaultRegistry(), pool: new EndpointPool() });

describe('the effective configuration keeps Switchyard\'s section but not its secrets', () => {
  it('masks the Redis password and keeps the rest', () => {
    const printed = load('redis://app:s3cret@10.0.0.9:6379/0').printEffectiveConfig();
    expect(printed).not.toContain('s3cret');
    expect(printed).toContain('redis://app:***@10.0.0.9:6379/0');
    expect(printed).toContain('mode: own-history');
  });

  it('leaves a URL without a password as written', () => {
    expect(load('redis://10.0.0.9:6379').printEffectiveConfig()).toContain('redisUrl: redis://10.0.0.9:6379');
  });
});
