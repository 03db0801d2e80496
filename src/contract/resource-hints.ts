import { readFileSync } from 'node:fs';
import { basename, dirname, extname, join } from 'node:path';
import { errorMessage } from '../util/error-message.js';
import { isMissingFile } from '../util/is-missing-file.js';
import { isRecord } from '../util/is-record.js';
import { FileError } from '../util/located-file.js';
import { HTTP_METHODS, operationObject, parametersOf } from './document-parts.js';
import type { OpenApiDocument } from './openapi-document.js';
import type { OperationIndex } from './operation-index.js';
import { parseHintsFile } from './resource-hints-file.js';

/** What a hint says, and where it is written (`x-mock-key`, or the hints file's name). */
export interface Hint<T> {
  readonly value: T;
  readonly source: string;
}

/**
 * What the contract's author (or its user) tells resource inference where it cannot see:
 * written in the contract as `x-mock-*` extensions, or in a hints file beside it.
 */
export interface ResourceHints {
  /** A resource's key property, by the path it is written on (its collection or item path). */
  readonly keys: ReadonlyMap<string, Hint<string>>;
  /** Whether an operation is kept stateless (answered from the contract), by Operation.name. */
  readonly stateless: ReadonlyMap<string, Hint<boolean>>;
  /**
   * What a query parameter filters by, by Operation.name and then the parameter's name: an
   * item's property, or `false` for no filter.
   */
  readonly filters: ReadonlyMap<string, ReadonlyMap<string, Hint<string | false>>>;
}

/** No hints: inference alone. */
export const NO_HINTS: ResourceHints = {
  keys: new Map(),
  stateless: new Map(),
  filters: new Map(),
};

/** The hints file of a contract: `openapi.mock-hints.yaml` beside `openapi.yaml`. */
export function hintsFilePath(contractPath: string): string {
  const name = basename(contractPath, extname(contractPath));
  return join(dirname(contractPath), `${name}.mock-hints.yaml`);
}

/** An extension's value that is not what it must be, named in the contract's file. */
function badExtension(contractPath: string, what: string, must: string): FileError {
  return new FileError(contractPath, `${what} must be ${must}`);
}

/**
 * The hints written in the document: `x-mock-key` on a path item, `x-mock-stateless` on an
 * operation, `x-mock-filter` on a query parameter (a parameter of the path item counts for each
 * of its operations). A value of the wrong type is a FileError naming the contract.
 */
export function hintsOfDocument(
  contractPath: string,
  document: OpenApiDocument,
  operations: OperationIndex,
): ResourceHints {
  const keys = new Map<string, Hint<string>>();
  const stateless = new Map<string, Hint<boolean>>();
  const filters = new Map<string, Map<string, Hint<string | false>>>();
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item) || item['x-mock-key'] === undefined) continue;
    const key = item['x-mock-key'];
    if (typeof key !== 'string' || key === '') {
      throw badExtension(contractPath, `x-mock-key of ${path}`, 'a property name');
    }
    keys.set(path, { value: key, source: 'x-mock-key' });
  }
  for (const op of operations.operations) {
    const method = op.method.toLowerCase();
    if (!HTTP_METHODS.includes(method)) continue;
    const flag = operationObject(document, op.pathKey, method)?.['x-mock-stateless'];
    if (flag !== undefined) {
      if (typeof flag !== 'boolean') {
        throw badExtension(contractPath, `x-mock-stateless of ${op.name}`, 'true or false');
      }
      stateless.set(op.name, { value: flag, source: 'x-mock-stateless' });
    }
    for (const parameter of parametersOf(document, op.pathKey, method)) {
      const filter = parameter['x-mock-filter'];
      if (filter === undefined || parameter.in !== 'query' || typeof parameter.name !== 'string') {
        continue;
      }
      if (filter !== false && (typeof filter !== 'string' || filter === '')) {
        throw badExtension(
          contractPath,
          `x-mock-filter of the query parameter ${parameter.name} of ${op.name}`,
          'a property name or false',
        );
      }
      const own = filters.get(op.name) ?? new Map<string, Hint<string | false>>();
      own.set(parameter.name, { value: filter, source: 'x-mock-filter' });
      filters.set(op.name, own);
    }
  }
  return { keys, stateless, filters };
}

/** Hints of `over` in place of those of `under` where both say something of the same thing. */
function mergeHints(under: ResourceHints, over: ResourceHints): ResourceHints {
  const filters = new Map<string, ReadonlyMap<string, Hint<string | false>>>(under.filters);
  for (const [operation, own] of over.filters) {
    filters.set(operation, new Map([...(under.filters.get(operation) ?? []), ...own]));
  }
  return {
    keys: new Map([...under.keys, ...over.keys]),
    stateless: new Map([...under.stateless, ...over.stateless]),
    filters,
  };
}

/**
 * The hints of a contract: its `x-mock-*` extensions, and its hints file where there is one
 * (which wins where both hint at the same thing). Throws a FileError for a hint that is not
 * what it must be: the hints file's with its line and column.
 */
export function readResourceHints(
  contractPath: string,
  document: OpenApiDocument,
  operations: OperationIndex,
): ResourceHints {
  const inDocument = hintsOfDocument(contractPath, document, operations);
  const file = hintsFilePath(contractPath);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if (isMissingFile(error)) return inDocument;
    throw new FileError(file, `cannot read the hints file: ${errorMessage(error)}`);
  }
  return mergeHints(inDocument, parseHintsFile(file, text, document, operations));
}
