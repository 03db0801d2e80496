import { readFileSync } from 'node:fs';
import { errorMessage } from '../util/error-message.js';
import { parseYaml } from '../util/parse-yaml.js';
import { isOpenApiDocument, type OpenApiDocument } from './openapi-document.js';
import { createOperationIndex, type Operation, type OperationIndex } from './operation-index.js';
import { createSchemaChecks, type SchemaCheck } from './schema-validator.js';

/** A loaded contract: the document, its operations, and checks of data against its schemas. */
export interface Contract {
  readonly path: string;
  readonly document: OpenApiDocument;
  readonly operations: OperationIndex;
  /** A check against a component schema, e.g. `Pet` (fixtures, the --db file). */
  readonly checkSchema: (name: string) => SchemaCheck;
  /** A check against an operation's documented answer (scenario bodies); see SchemaChecks. */
  readonly checkAnswer: (op: Operation, status: number) => SchemaCheck | undefined;
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
  const checks = createSchemaChecks(document);
  return {
    path,
    document,
    operations: createOperationIndex(document),
    checkSchema: (name) => checks.component(name),
    checkAnswer: (op, status) => checks.answer(op, status),
  };
}
