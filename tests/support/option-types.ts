/*
 * The options types whose defaults are stated once, in a `*_DEFAULTS` constant: where each
 * type's TSDoc lives (tests/option-default-tags.test.ts reads its `@defaultValue` tags) and the
 * names a tag or a docs table may use for a default that is itself an exported constant.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import * as envoy from '@switchyard/envoy';
import * as express from '@switchyard/express';
import * as core from '@switchyard/core';
import * as flowControl from '@switchyard/flow-control';

/** One options interface and the constant holding its defaults. */
export interface OptionType {
  /** The constant's exported name, as the docs markers write it. */
  readonly name: string;
  /** The constant. */
  readonly defaults: object;
  /** Source file of the options interface, from the repository root. */
  readonly file: string;
  /** The options interface. */
  readonly interfaceName: string;
  /**
   * Keys of `defaults` that are nested options objects: key → its interface, in the same file or
   * written `path/from/root.ts#Interface`.
   */
  readonly nested?: Readonly<Record<string, string>>;
}

export const OPTION_TYPES: readonly OptionType[] = [
  {
    name: 'PICKER_DEFAULTS',
    defaults: core.PICKER_DEFAULTS,
    file: 'packages/core/src/picker/endpoint-picker.ts',
    interfaceName: 'EndpointPickerOptions',
    nested: { ifAvailable: 'packages/core/src/picker/if-available.ts#IfAvailableOptions' },
  },
  {
    name: 'FLOW_CONTROL_DEFAULTS',
    defaults: flowControl.FLOW_CONTROL_DEFAULTS,
    file: 'packages/flow-control/src/config/types.ts',
    interfaceName: 'FlowControlConfig',
    nested: { band: 'BandTemplate' },
  },
  { name: 'GATEWAY_DEFAULTS', defaults: express.GATEWAY_DEFAULTS, file: 'packages/adapters-express/src/gateway/options.ts', interfaceName: 'GatewayOptions', nested: { upstream: 'UpstreamOptions' } },
  { name: 'GATEWAY_CLOSE_DEFAULTS', defaults: express.GATEWAY_CLOSE_DEFAULTS, file: 'packages/adapters-express/src/gateway/handler.ts', interfaceName: 'CloseOptions' },
  { name: 'ENDPOINT_ROTATION_DEFAULTS', defaults: express.ENDPOINT_ROTATION_DEFAULTS, file: 'packages/adapters-express/src/gateway/rotation.ts', interfaceName: 'EndpointRotationOptions' },
  {
    name: 'GATEWAY_SECTION_DEFAULTS',
    defaults: express.GATEWAY_SECTION_DEFAULTS,
    file: 'packages/adapters-express/src/config/section-defaults.ts',
    interfaceName: 'GatewaySectionSettings',
    nested: { listen: 'GatewayListenSettings', circuitBreaker: 'CircuitBreakerSettings' },
  },
  { name: 'EPP_DEFAULTS', defaults: envoy.EPP_DEFAULTS, file: 'packages/adapters-envoy/src/epp/start-epp.ts', interfaceName: 'EppOptions' },
  { name: 'EPP_SERVER_DEFAULTS', defaults: envoy.EPP_SERVER_DEFAULTS, file: 'packages/adapters-envoy/src/grpc/options.ts', interfaceName: 'EppServerOptions', nested: { keepalive: 'EppKeepaliveOptions' } },
  { name: 'EXT_PROC_STREAM_DEFAULTS', defaults: envoy.EXT_PROC_STREAM_DEFAULTS, file: 'packages/adapters-envoy/src/stream/types.ts', interfaceName: 'ExtProcStreamOptions' },
];

/** Exported constants a default may be written as (`@defaultValue DEFAULT_INFERENCE_PATHS`). */
const NAMED_VALUES: Readonly<Record<string, unknown>> = { DEFAULT_INFERENCE_PATHS: express.DEFAULT_INFERENCE_PATHS };

/**
 * The value a default is written as, in a tag or a docs cell: a number (`300000`, `300_000`), a
 * quoted string, `true`/`false`, or the name of an exported constant.
 * @throws Error when the text is none of those, so a default cannot hide in prose
 */
export function parseDefaultLiteral(text: string): unknown {
  const t = text.trim();
  if (/^-?\d[\d_]*(\.\d+)?$/.test(t)) return Number(t.replaceAll('_', ''));
  if (t === 'true' || t === 'false') return t === 'true';
  const quoted = /^(['"])(.*)\1$/.exec(t);
  if (quoted !== null) return quoted[2];
  if (t in NAMED_VALUES) return NAMED_VALUES[t];
  throw new Error(`not a default literal: ${JSON.stringify(text)}`);
}

/** The `@defaultValue` tags of an interface's members: member name → tag text. */
export function defaultValueTags(file: string, interfaceName: string): Map<string, string> {
  const source = ts.createSourceFile(file, readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'), ts.ScriptTarget.Latest, true);
  let found: ts.InterfaceDeclaration | undefined;
  source.forEachChild((node) => {
    if (ts.isInterfaceDeclaration(node) && node.name.text === interfaceName) found = node;
  });
  if (found === undefined) throw new Error(`${file}: no interface ${interfaceName}`);
  const tags = new Map<string, string>();
  for (const member of found.members) {
    if (member.name === undefined || !ts.isIdentifier(member.name)) continue;
    for (const tag of ts.getJSDocTags(member)) {
      if (tag.tagName.text === 'default') throw new Error(`${file}: ${interfaceName}.${member.name.text} uses @default; write @defaultValue`);
      if (tag.tagName.text !== 'defaultValue') continue;
      const text = typeof tag.comment === 'string' ? tag.comment : ts.getTextOfJSDocComment(tag.comment) ?? '';
      tags.set(member.name.text, text);
    }
  }
  return tags;
}

/** The value at a dotted path of a defaults constant (`upstream.maxAttempts`). */
export function defaultAt(defaults: object, path: string): { readonly found: boolean; readonly value: unknown } {
  let value: unknown = defaults;
  for (const part of path.split('.')) {
    if (typeof value !== 'object' || value === null || Array.isArray(value) || !(part in value)) return { found: false, value: undefined };
    value = (value as Record<string, unknown>)[part];
  }
  return { found: true, value };
}

/** Every leaf path of a defaults constant (nested options objects walked, arrays are leaves). */
export function leafPaths(defaults: object, prefix = ''): string[] {
  return Object.entries(defaults).flatMap(([key, value]) =>
    typeof value === 'object' && value !== null && !Array.isArray(value) ? leafPaths(value as object, `${prefix}${key}.`) : [`${prefix}${key}`],
  );
}
