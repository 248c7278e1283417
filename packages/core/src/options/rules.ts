import { invalidOption } from './option-error.js';

/**
 * Checks one given (not undefined) option value and returns it, possibly normalised; throws
 * {@link invalidOption}'s error naming `field` otherwise.
 * @public
 * @category Options
 */
export type OptionRule<T> = (value: unknown, field: string) => T;

/**
 * One rule per defaulted option of a type: what {@link resolveOptions} applies to given values.
 * @public
 * @category Options
 */
export type OptionRules<D> = { readonly [K in keyof D]-?: OptionRule<D[K]> };

/**
 * Resolves the defaulted options of one options type in one step: each key of `defaults` takes
 * the given value checked by its rule, or the default when the value is undefined. The result is
 * frozen and holds exactly the keys of `defaults`; the caller spreads the options that have no
 * default (callbacks, collaborators) next to it. Errors name `scope.key`.
 * @param scope - the options type's path in errors (`gateway`, `epp`, `gateway.upstream`)
 * @param input - the options as given (undefined: all defaults)
 * @param defaults - the type's `*_DEFAULTS` constant
 * @param rules - a rule per key of `defaults`
 * @throws SwitchyardError `CONFIG_INVALID` with `field` set to the bad option's path
 * @public
 * @category Options
 */
export function resolveOptions<D extends object>(scope: string, input: unknown, defaults: D, rules: OptionRules<D>): Readonly<D> {
  if (input !== undefined && (typeof input !== 'object' || input === null || Array.isArray(input))) throw invalidOption(scope, 'must be an object', input);
  const given = (input ?? {}) as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(defaults) as (keyof D & string)[]) {
    const value = given[key];
    out[key] = value === undefined ? defaults[key] : rules[key](value, `${scope}.${key}`);
  }
  return Object.freeze(out) as Readonly<D>;
}

const number = (value: unknown, field: string, rule: string, ok: (n: number) => boolean): number => {
  if (typeof value !== 'number' || !Number.isFinite(value) || !ok(value)) throw invalidOption(field, rule, value);
  return value;
};

/**
 * The rules the options types share. Each names what a value must be in its error, e.g.
 * `must be an integer ≥ 1`.
 * @public
 * @category Options
 */
export const optionRules = {
  /** A finite number > 0. */
  positiveNumber: ((value, field) => number(value, field, 'must be a positive number', (n) => n > 0)) as OptionRule<number>,
  /** A finite number ≥ 0. */
  nonNegativeNumber: ((value, field) => number(value, field, 'must be a number ≥ 0', (n) => n >= 0)) as OptionRule<number>,
  /** An integer ≥ `min`. */
  integerAtLeast: (min: number): OptionRule<number> => (value, field) => number(value, field, `must be an integer ≥ ${min}`, (n) => Number.isInteger(n) && n >= min),
  /** An integer from `min` to `max`, both included. */
  integerBetween: (min: number, max: number): OptionRule<number> => (value, field) =>
    number(value, field, `must be an integer from ${min} to ${max}`, (n) => Number.isInteger(n) && n >= min && n <= max),
  /** `true` or `false`. */
  boolean: ((value, field) => {
    if (typeof value !== 'boolean') throw invalidOption(field, 'must be true or false', value);
    return value;
  }) as OptionRule<boolean>,
  /** A non-empty string. */
  nonEmptyString: ((value, field) => {
    if (typeof value !== 'string' || value === '') throw invalidOption(field, 'must be a non-empty string', value);
    return value;
  }) as OptionRule<string>,
  /** One of `values`. */
  oneOf: <T extends string>(values: readonly T[]): OptionRule<T> => (value, field) => {
    if (typeof value !== 'string' || !(values as readonly string[]).includes(value)) throw invalidOption(field, `must be one of ${values.map((v) => `'${v}'`).join(', ')}`, value);
    return value as T;
  },
  /** A nested options object, resolved with its own defaults and rules under `field`. */
  nested: <D extends object>(defaults: D, rules: OptionRules<D>): OptionRule<Readonly<D>> => (value, field) => resolveOptions(field, value, defaults, rules),
} as const;
