/// <reference types="vite/client" />
import { describe, expect, it } from 'vitest';
import * as root from '@switchyard/core';
import * as internal from '@switchyard/core/internal';

// Every value a module barrel exports is either public (listed in src/index.ts) or shared with our
// own packages (src/internal.ts), never both and never neither: the root lists names one by one, so
// a new export has to be placed deliberately.
const barrels = import.meta.glob<Record<string, unknown>>('./*/index.ts', { eager: true });

describe('core export lists', () => {
  it('places every module export in exactly one of the root and internal entries', () => {
    const unplaced: string[] = [];
    const both: string[] = [];
    for (const [path, mod] of Object.entries(barrels)) {
      if (path.startsWith('./testing/')) continue; // the @switchyard/core/testing subpath
      for (const name of Object.keys(mod)) {
        const inRoot = name in root;
        const inInternal = name in internal;
        if (!inRoot && !inInternal) unplaced.push(`${path}: ${name}`);
        if (inRoot && inInternal) both.push(`${path}: ${name}`);
      }
    }
    expect(unplaced, 'add these to src/index.ts (public) or src/internal.ts (our packages only)').toEqual([]);
    expect(both).toEqual([]);
  });

  it('keeps the helpers our packages share out of the public root', () => {
    for (const name of ['readOptionalString', 'jsonTypeOf', 'SseUsageScanner', 'parseAddress', 'orderProducers']) {
      expect(name in root, name).toBe(false);
      expect(name in internal, name).toBe(true);
    }
  });
});
