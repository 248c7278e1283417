import { SwitchyardError } from '../errors/switchyard-error.js';
import type { ConfigSections, PluginPack } from './plugin-pack.js';
import type { PluginDefinition } from './types.js';

/**
 * Options of {@link PluginRegistry.register}.
 * @public
 * @category Plugin registry and packs
 */
export interface RegisterOptions {
  /** Replace an existing definition of the same type instead of failing. */
  readonly replace?: boolean;
}

/**
 * Maps plugin `type` names to their {@link PluginDefinition}. The config loader builds plugin
 * instances from it; built-ins and user plugins are registered the same way.
 * @example
 * ```ts
 * const registry = createDefaultRegistry();
 * registry.register(myScorerDefinition);
 * const config = loadConfig(yamlText, { registry, pool });
 * ```
 * @public
 * @category Plugin registry and packs
 */
export class PluginRegistry {
  readonly #defs = new Map<string, PluginDefinition>();
  readonly #packs: PluginPack[] = [];
  /** The pack each pack-registered type came from. */
  readonly #packOf = new Map<string, string>();

  /**
   * Adds a definition.
   * @throws SwitchyardError `CONFIG_INVALID` when the type is already registered (unless `replace`)
   */
  register(definition: PluginDefinition, options: RegisterOptions = {}): this {
    if (typeof definition.type !== 'string' || definition.type === '') {
      throw new SwitchyardError('CONFIG_INVALID', 'plugin definition: type must be a non-empty string');
    }
    if (this.#defs.has(definition.type) && options.replace !== true) {
      throw new SwitchyardError('CONFIG_INVALID', `plugin type "${definition.type}" is already registered (pass { replace: true } to override it)`);
    }
    this.#defs.set(definition.type, definition);
    return this;
  }

  /** Adds several definitions (see {@link PluginRegistry.register}). */
  registerAll(definitions: Iterable<PluginDefinition>, options: RegisterOptions = {}): this {
    for (const d of definitions) this.register(d, options);
    return this;
  }

  /**
   * Adds a {@link PluginPack}: its definitions replace built-ins (types registered other than by a
   * pack) of the same type, its default types and admission factory join the registry's. A pack
   * already registered (same object) is skipped.
   * @throws SwitchyardError `CONFIG_INVALID` when another pack already registered one of its types
   */
  registerPack(pack: PluginPack): this {
    if (this.#packs.includes(pack)) return this;
    for (const def of pack.plugins) {
      const owner = this.#packOf.get(def.type);
      if (owner !== undefined) {
        throw new SwitchyardError('CONFIG_INVALID', `plugin type "${def.type}" of pack "${pack.name}" is already registered by pack "${owner}"`);
      }
    }
    for (const def of pack.plugins) {
      this.register(def, { replace: true });
      this.#packOf.set(def.type, pack.name);
    }
    this.#packs.push(pack);
    return this;
  }

  /** The registered packs, in registration order. */
  packs(): readonly PluginPack[] {
    return this.#packs;
  }

  /** The registered types the packs give a config with these sections by default, deduplicated. */
  defaultTypes(sections: ConfigSections): string[] {
    const out = new Set<string>();
    for (const pack of this.#packs) for (const type of pack.defaultTypes?.(sections) ?? []) if (this.#defs.has(type)) out.add(type);
    return [...out];
  }

  /** The definition of `type`, or undefined. */
  get(type: string): PluginDefinition | undefined {
    return this.#defs.get(type);
  }

  /** True when `type` is registered. */
  has(type: string): boolean {
    return this.#defs.has(type);
  }

  /** Registered types, sorted. */
  types(): string[] {
    return [...this.#defs.keys()].sort();
  }

  /** Every registered definition, in registration order. */
  definitions(): PluginDefinition[] {
    return [...this.#defs.values()];
  }

  /** A copy of this registry, so callers can add plugins without touching a shared one. */
  clone(): PluginRegistry {
    const copy = new PluginRegistry().registerAll(this.#defs.values());
    copy.#packs.push(...this.#packs);
    for (const [type, pack] of this.#packOf) copy.#packOf.set(type, pack);
    return copy;
  }
}
