import { parseAllDocuments } from 'yaml';
import { SwitchyardError } from '../errors/switchyard-error.js';

/**
 * Parses a YAML or JSON config text (JSON is YAML) into a plain value. Duplicate keys, syntax
 * errors and multi-document streams are `CONFIG_INVALID` errors naming the line. A text with no
 * document (empty, only comments, or `null`) gives undefined: "no config".
 * @internal
 */
export function parseConfigText(text: string): unknown {
  const docs = parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true });
  if (!Array.isArray(docs)) throw new SwitchyardError('CONFIG_INVALID', 'config: expected a YAML or JSON document');
  if (docs.length === 0) return undefined;
  if (docs.length > 1) throw new SwitchyardError('CONFIG_INVALID', `config: expected one YAML document, got ${docs.length}`);
  const doc = docs[0];
  if (doc === undefined) return undefined;
  const first = doc.errors[0];
  if (first !== undefined) {
    const pos = first.linePos?.[0];
    const where = pos === undefined ? '' : ` at line ${pos.line}, column ${pos.col}`;
    throw new SwitchyardError('CONFIG_INVALID', `config: invalid YAML/JSON${where}: ${first.message.split('\n')[0] ?? ''}`);
  }
  try {
    const value = doc.toJS({ maxAliasCount: 100 }) as unknown;
    return value ?? undefined;
  } catch (error) {
    // Unresolved or exploding aliases surface only when the document is converted.
    throw new SwitchyardError('CONFIG_INVALID', `config: invalid YAML: ${error instanceof Error ? error.message : String(error)}`);
  }
}
