import { Ajv, type ValidateFunction } from 'ajv';
import type { ContractModel } from './contract-model.js';

const DOCUMENT_ID = 'openapi.yaml';
const INT32 = 2 ** 31;
const INT64 = 2 ** 63;

/**
 * Checks response bodies against the schemas openapi.yaml documents for them, with a plain Ajv of
 * the test's own: not express-openapi-validator and not the mock's schema checks. Bodies are read
 * with JSON.parse, so int64 values beyond 2^53 arrive rounded; their exactness is checked on the
 * response text instead.
 */
export class ResponseOracle {
  readonly #ajv: Ajv;
  readonly #compiled = new Map<string, ValidateFunction>();

  constructor(model: ContractModel) {
    this.#ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false });
    // OpenAPI's formats; JSON numbers compared as doubles (see above).
    this.#ajv.addFormat('int32', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= -INT32 && n < INT32,
    });
    this.#ajv.addFormat('int64', {
      type: 'number',
      validate: (n: number) => Number.isInteger(n) && n >= -INT64 && n <= INT64,
    });
    // The whole document, so that `#/components/...` references resolve as they are written.
    this.#ajv.addVocabulary(['openapi', 'info', 'servers', 'paths', 'components', 'tags']);
    this.#ajv.addSchema({ ...model.document, $id: DOCUMENT_ID });
  }

  /** The problems of a value against the schema at a JSON pointer of the document. */
  check(pointer: string, value: unknown): string[] {
    let validate = this.#compiled.get(pointer);
    if (!validate) {
      validate = this.#ajv.compile({ $ref: `${DOCUMENT_ID}${pointer}` });
      this.#compiled.set(pointer, validate);
    }
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'}`,
    );
  }
}
