import { isRecord } from '../util/is-record.js';
import { FileError, type PathStep, type Position } from '../util/located-file.js';
import { bundleFiles } from './bundle-files.js';
import { checkOpenApi } from './check-openapi.js';
import { checkSchemas } from './check-schemas.js';
import { readContractFile } from './contract-text.js';
import { pointerOf } from './json-pointer.js';
import { normalizeDocument } from './normalize-document.js';
import { validatorView } from './validator-view.js';
import { isOpenApiDocument, type OpenApiDocument } from './openapi-document.js';
import { createOperationIndex, type Operation, type OperationIndex } from './operation-index.js';
import { createSchemaChecks, type SchemaCheck } from './schema-validator.js';

/** A loaded contract: the document, its operations, and checks of data against its schemas. */
export interface Contract {
  readonly path: string;
  /** Every file it was read from: its own, then those its `$ref`s name. */
  readonly files: readonly string[];
  /**
   * The document in the one shape the mock reads (normalize-document.ts): references to
   * anything but schemas followed, schema references naming components, files beside it
   * brought in. Its examples are there.
   */
  readonly document: OpenApiDocument;
  /**
   * The same document without examples and extensions in its schemas, nor anything else a JSON
   * Schema validator would misread (normalize-document.ts, `drop`): what the mock's own checks
   * compile.
   */
  readonly schemaDocument: OpenApiDocument;
  /** The schema document as express-openapi-validator reads it (validator-view.ts). */
  readonly validatorDocument: OpenApiDocument;
  readonly operations: OperationIndex;
  /** Whether the contract has a component schema of that name (e.g. `Pet`). */
  readonly hasSchema: (name: string) => boolean;
  /** A check against a component schema, e.g. `Pet` (fixtures, the --db file). */
  readonly checkSchema: (name: string) => SchemaCheck;
  /** A check against an operation's documented answer (scenario bodies); see SchemaChecks. */
  readonly checkAnswer: (op: Operation, status: number) => SchemaCheck | undefined;
  /**
   * The file and place a value of the document is written at (`['components', 'schemas',
   * 'Pet']`), for a message: the files are read again, so the loaded contract keeps no text.
   */
  readonly placeOf: (steps: readonly PathStep[]) => { file: string; position?: Position };
}

/** Where a value of the contract at `path` is written; the file alone when that cannot be said. */
function placeIn(path: string, steps: readonly PathStep[]): { file: string; position?: Position } {
  try {
    const { file, position } = bundleFiles(readContractFile(path)).where(steps);
    return position ? { file, position } : { file };
  } catch {
    return { file: path }; // edited or gone since: the contract's own file, without a place
  }
}

function openApiDocument(path: string, value: unknown): OpenApiDocument {
  if (!isOpenApiDocument(value)) throw new FileError(path, 'not an OpenAPI 3.0 or 3.1 document');
  return value;
}

/**
 * Reads, brings together and indexes an OpenAPI document; throws a FileError naming the file
 * (and, for a checked one, the line and column) if it is unusable. `checked`: the document is a
 * user's (--contract, or an edit being reloaded), checked whole: its outline and references
 * (check-openapi.ts), and what no validator could compile in its schemas (check-schemas.ts);
 * the packaged one is linted when it is built. Schemas are compiled when first used.
 */
export function loadContract(path: string, { checked = false } = {}): Contract {
  const file = readContractFile(path);
  const bundled = bundleFiles(file);
  if (checked) {
    const [problem] = [...checkOpenApi(bundled.value), ...checkSchemas(bundled.value)];
    if (problem) {
      const { file: at, position } = bundled.where(problem.path);
      // A reference is named as its file wrote it, not as the bundle rewrote it.
      const written = bundled.writtenRefs.get(pointerOf(problem.path));
      const message = written
        ? problem.message.replace(/^\$ref \S+/, `$ref ${written}`)
        : problem.message;
      throw new FileError(at, message, position);
    }
  }
  const normalized = normalizeDocument(bundled.value);
  const document = openApiDocument(path, normalized.document);
  let schemaDocument: OpenApiDocument | undefined;
  let validatorDocument: OpenApiDocument | undefined;
  const forChecks = (): OpenApiDocument =>
    (schemaDocument ??= openApiDocument(
      path,
      normalizeDocument(document, { annotations: 'drop', schemaNames: normalized.schemaNames })
        .document,
    ));
  const forValidator = (): OpenApiDocument =>
    (validatorDocument ??= openApiDocument(path, validatorView({ ...forChecks() })));
  const checks = createSchemaChecks(forChecks);
  const schemas = isRecord(document.components?.schemas) ? document.components.schemas : {};
  return {
    path,
    files: [path, ...bundled.files],
    document,
    get schemaDocument() {
      return forChecks();
    },
    get validatorDocument() {
      return forValidator();
    },
    operations: createOperationIndex(document),
    hasSchema: (name) => Object.hasOwn(schemas, name),
    checkSchema: (name) => checks.component(name),
    checkAnswer: (op, status) => checks.answer(op, status),
    placeOf: (steps) => placeIn(path, steps),
  };
}
