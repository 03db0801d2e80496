import { readFileSync } from 'node:fs';
import { errorMessage } from '../util/error-message.js';
import { parseYaml } from '../util/parse-yaml.js';
import { isRecord } from '../util/is-record.js';
import { FileError, parseLocated } from '../util/located-file.js';
import { checkOpenApi } from './check-openapi.js';
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

/**
 * A document checked as a user's contract: parsed with positions, its outline and references
 * (check-openapi.ts) and its component schemas (compiled) checked, each problem a FileError at its
 * line and column.
 */
function checkedDocument(path: string, text: string): OpenApiDocument {
  const located = parseLocated(path, text);
  const [problem] = checkOpenApi(located.value);
  if (problem) throw new FileError(path, problem.message, located.positionOf(problem.path));
  const document = located.value;
  if (!isOpenApiDocument(document)) throw new FileError(path, 'not an OpenAPI 3.0 or 3.1 document');
  const checks = createSchemaChecks(document);
  const schemas = isRecord(document.components?.schemas) ? document.components.schemas : {};
  for (const name of Object.keys(schemas)) {
    try {
      checks.component(name);
    } catch (error) {
      const at = located.positionOf(['components', 'schemas', name]);
      throw new FileError(path, `schema ${name}: ${errorMessage(error)}`, at);
    }
  }
  return document;
}

/**
 * Reads and indexes an OpenAPI document; throws a message naming the file if it is unusable.
 * `checked`: the document is a user's (--contract, or an edit being reloaded), checked whole
 * with the line and column of its first problem; the packaged one is linted when it is built.
 */
export function loadContract(path: string, { checked = false } = {}): Contract {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    throw new FileError(path, `cannot read the contract: ${errorMessage(error)}`);
  }
  let document: OpenApiDocument;
  if (checked) {
    document = checkedDocument(path, text);
  } else {
    let parsed: unknown;
    try {
      parsed = parseYaml(text);
    } catch (error) {
      throw new Error(`cannot read the contract ${path}: ${errorMessage(error)}`);
    }
    if (!isOpenApiDocument(parsed)) throw new Error(`${path} is not an OpenAPI 3.0 document`);
    document = parsed;
  }
  const checks = createSchemaChecks(document);
  return {
    path,
    document,
    operations: createOperationIndex(document),
    checkSchema: (name) => checks.component(name),
    checkAnswer: (op, status) => checks.answer(op, status),
  };
}
