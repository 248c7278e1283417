import { SwitchyardError } from '@switchyard/core';

const SUFFIX: Readonly<Record<string, number>> = {
  '': 1,
  n: 1e-9,
  u: 1e-6,
  m: 1e-3,
  k: 1e3,
  M: 1e6,
  G: 1e9,
  T: 1e12,
  P: 1e15,
  E: 1e18,
  Ki: 2 ** 10,
  Mi: 2 ** 20,
  Gi: 2 ** 30,
  Ti: 2 ** 40,
  Pi: 2 ** 50,
  Ei: 2 ** 60,
};

// Kubernetes resource.Quantity syntax: a decimal number, then a binary-SI suffix (Ki..Ei), a
// decimal-SI suffix (n..E) or a decimal exponent (e3, E-2).
const QUANTITY = /^\+?(\d+(?:\.\d*)?|\.\d+)(?:(Ki|Mi|Gi|Ti|Pi|Ei|n|u|m|k|M|G|T|P|E)|[eE]([+-]?\d+))?$/;

/**
 * Parses a quantity; returns an error message instead of throwing (for schema refinements).
 * @internal
 */
export function quantityOrError(value: unknown): number | string {
  if (typeof value === 'number') {
    if (!Number.isFinite(value) || value < 0) return `expected a non-negative quantity, got ${value}`;
    return Math.ceil(value);
  }
  if (typeof value !== 'string') return `expected a quantity such as "500", "1k" or "10Gi", got ${typeof value}`;
  const m = QUANTITY.exec(value.trim());
  if (m === null) return `expected a quantity such as "500", "1k" or "10Gi", got "${value}"`;
  const base = Number(m[1]);
  const scale = m[3] !== undefined ? 10 ** Number(m[3]) : (SUFFIX[m[2] ?? ''] as number);
  const n = base * scale;
  if (!Number.isFinite(n) || n > Number.MAX_SAFE_INTEGER) return `quantity "${value}" is too large`;
  // Like Kubernetes' Quantity.Value(), fractional results round up: "1.5" requests means 2.
  // Values within floating-point noise of an integer are that integer: "1.1k" is 1100.0000000000002.
  const r = Math.round(n);
  return Math.abs(n - r) <= Math.max(1e-9, r * 1e-12) ? r : Math.ceil(n);
}

/**
 * Parses a Kubernetes-style quantity into a non-negative integer: `"500"` → 500, `"1k"` → 1000,
 * `"10Gi"` → 10·2³⁰, `"1.5M"` → 1,500,000, `"2e3"` → 2000. Numbers are accepted as is (rounded
 * up). Fractions round up, as Kubernetes' `Quantity.Value()` does.
 * @throws SwitchyardError `CONFIG_INVALID` for anything else or a negative value
 * @public
 * @category Units
 */
export function parseQuantity(value: string | number): number {
  const n = quantityOrError(value);
  if (typeof n === 'string') throw new SwitchyardError('CONFIG_INVALID', n);
  return n;
}
