import { readFileSync } from 'node:fs';
import { errorMessage } from '../error-message.js';
import { parseYaml } from '../yaml/parse-yaml.js';
import { isOpenApiDocument, type OpenApiDocument } from './openapi-document.js';
import { createOperationChecks, type OperationChecks } from './operation-checks.js';
import { createOperationIndex, type Operation, type OperationIndex } from './operation-index.js';
import { createSchemaChecks, type SchemaCheck } from './schema-validator.js';

/** A loaded contract: the document, its operations, and checks for its schemas. */
export interface Contract {
  readonly path: string;
  readonly document: OpenApiDocument;
  readonly operations: OperationIndex;
  readonly checkSchema: (name: string) => SchemaCheck;
  /** The compiled checks of an operation's requests and answers (each compiled on first use). */
  readonly checksOf: (op: Operation) => OperationChecks;
}

/** Reads and indexes an OpenAPI document; throws a message naming the file if it is unusable. */
export function loadContract(path: string): Contract {
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new Error(`cannot read the contract ${path}: ${errorMessage(error)}`);
  }
  if (!isOpenApiDocument(parsed)) {
    throw new Error(`${path} is not an OpenAPI 3.0 document`);
  }
  const document = parsed;
  return {
    path,
    document,
    operations: createOperationIndex(document),
    checkSchema: createSchemaChecks(document),
    checksOf: createOperationChecks(document),
  };
}

/**
 * The same contract, read and indexed on first use: for a document that start-up does not need
 * (the admin API's, ~40 ms of YAML parsing). A document that cannot be read fails then.
 */
export function loadContractOnDemand(path: string): Contract {
  let loaded: Contract | undefined;
  const contract = (): Contract => (loaded ??= loadContract(path));
  return {
    path,
    get document() {
      return contract().document;
    },
    get operations() {
      return contract().operations;
    },
    checkSchema: (name) => contract().checkSchema(name),
    checksOf: (op) => contract().checksOf(op),
  };
}
