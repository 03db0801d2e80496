import { basename } from 'node:path';
import { isRecord } from '../util/is-record.js';
import { FileError, parseLocated, type PathStep } from '../util/located-file.js';
import { parametersOf } from './document-parts.js';
import type { OpenApiDocument } from './openapi-document.js';
import type { OperationIndex } from './operation-index.js';
import type { Hint, ResourceHints } from './resource-hints.js';

// The hints file beside a contract, for those who cannot edit the contract:
//   resources:  { <path>: { key: <property> } }
//   operations: { <operation>: { stateless: true, filters: { <query parameter>: <property> | false } } }
// Read strictly: an unknown key, a value of the wrong type, or a path, operation or parameter
// the contract lacks is a FileError at its line and column.

/** The keys a mapping of the file may have, by what it is. */
const ALLOWED = {
  file: ['resources', 'operations'],
  resource: ['key'],
  operation: ['stateless', 'filters'],
} as const;

/**
 * Parses and checks a hints file against the contract. `file` names it in messages; each hint
 * it gives is sourced to the file's name.
 */
export function parseHintsFile(
  file: string,
  text: string,
  document: OpenApiDocument,
  operations: OperationIndex,
): ResourceHints {
  const located = parseLocated(file, text);
  const source = basename(file);
  const refuse = (reason: string, path: readonly PathStep[]): FileError =>
    new FileError(file, reason, located.positionOf(path));

  /** A mapping at `path` with only `allowed` keys; absent (undefined, or an empty file) is empty. */
  const mapping = (
    value: unknown,
    path: readonly PathStep[],
    allowed?: readonly string[],
  ): Record<string, unknown> => {
    if (value === undefined || value === null) return {};
    if (!isRecord(value)) throw refuse('expected a mapping', path);
    if (allowed === undefined) return value;
    const unknown = Object.keys(value).find((key) => !allowed.includes(key));
    if (unknown !== undefined) {
      throw refuse(`unknown key "${unknown}" (expected ${allowed.join(' or ')})`, [
        ...path,
        unknown,
      ]);
    }
    return value;
  };
  const propertyName = (value: unknown, path: readonly PathStep[], orFalse = ''): string => {
    if (typeof value === 'string' && value !== '') return value;
    throw refuse(`expected the name of a property of the item${orFalse}`, path);
  };

  const top = mapping(located.value, [], ALLOWED.file);
  const keys = new Map<string, Hint<string>>();
  for (const [path, value] of Object.entries(mapping(top.resources, ['resources']))) {
    const at = ['resources', path];
    if (!Object.hasOwn(document.paths, path)) throw refuse(`the contract has no path ${path}`, at);
    const resource = mapping(value, at, ALLOWED.resource);
    if (resource.key !== undefined) {
      keys.set(path, { value: propertyName(resource.key, [...at, 'key']), source });
    }
  }
  const stateless = new Map<string, Hint<boolean>>();
  const filters = new Map<string, Map<string, Hint<string | false>>>();
  for (const [name, value] of Object.entries(mapping(top.operations, ['operations']))) {
    const at = ['operations', name];
    const op = operations.find(name);
    if (!op) throw refuse(`the contract has no operation ${name}`, at);
    const hints = mapping(value, at, ALLOWED.operation);
    if (hints.stateless !== undefined) {
      if (typeof hints.stateless !== 'boolean') {
        throw refuse('stateless must be true or false', [...at, 'stateless']);
      }
      stateless.set(op.name, { value: hints.stateless, source });
    }
    const query = new Set(
      parametersOf(document, op.pathKey, op.method)
        .filter((p) => p.in === 'query')
        .map((p) => p.name),
    );
    const own = new Map<string, Hint<string | false>>();
    for (const [parameter, property] of Object.entries(
      mapping(hints.filters, [...at, 'filters']),
    )) {
      const where = [...at, 'filters', parameter];
      if (!query.has(parameter)) {
        throw refuse(`${op.name} has no query parameter ${parameter}`, where);
      }
      own.set(parameter, {
        value: property === false ? false : propertyName(property, where, ', or false'),
        source,
      });
    }
    if (own.size > 0) filters.set(op.name, own);
  }
  return { keys, stateless, filters };
}
