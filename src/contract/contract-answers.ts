import { isRecord } from '../util/is-record.js';
import { Refusal } from '../util/refusal.js';
import { createAnswerCheck, type AnswerCheck } from './answer-check.js';
import {
  ContractAnswerError,
  createAnswerGenerator,
  createValueGenerator,
  type GenerateValue,
} from './answer-generator.js';
import { answerHeaders } from './answer-headers.js';
import { examplesOf, operationObject, responseKeyOf } from './document-parts.js';
import { concreteType, essenceOf, kindOf } from './media-types.js';
import type { OpenApiDocument } from './openapi-document.js';
import type { Operation, OperationIndex } from './operation-index.js';
import { sampleFile } from './sample-files.js';
import { SchemaError, derefSchema } from './schema-refs.js';
import { reachesWriteOnly, withoutWriteOnly } from './write-only.js';
import { toXml } from './xml-body.js';
import type { BrokenExamples } from '../config/vocabularies.js';

export { ContractAnswerError };

/** The header that tells a client where an answer from the contract came from (its source). */
export const ANSWER_SOURCE_HEADER = 'X-Mock-Answer';

/**
 * Where an answer's body came from: the contract's example; data generated from its schema
 * (also in place of an example that breaks its own schema); the example as written although it
 * breaks its schema (--broken-examples serve); a small file of the media type.
 */
export type AnswerSource =
  | 'example'
  | 'generated'
  | 'generated; example-breaks-schema'
  | 'example; breaks-schema'
  | 'sample-file';

/** The answer of an operation that no handler of the mock answers, as the contract documents it. */
export interface ContractAnswer {
  readonly status: number;
  /** The media type of the body; undefined for an answer documented without content (204). */
  readonly mediaType: string | undefined;
  /** JSON data for a JSON media type, text for XML and text, bytes for others; undefined for none. */
  readonly body: unknown;
  /** The response headers the contract documents, with values (a redirect's Location included). */
  readonly headers: Readonly<Record<string, string>>;
  readonly source: AnswerSource;
  /** Whether the contract gives the body a schema to check it against (a validator has none else). */
  readonly schema: boolean;
}

/** An example of the contract that breaks the schema it illustrates. */
export interface BrokenExample {
  /** The operation's name (see Operation.name). */
  readonly operation: string;
  readonly status: number;
  readonly mediaType: string;
  /** The example's name in `examples`, if it has one. */
  readonly example?: string;
  /** Its first breach: `/id must be integer`. */
  readonly problem: string;
}

/** What an answer is asked with: a status (a forced one), and the client's choice of media type. */
export interface AnswerRequest {
  readonly status?: number | undefined;
  /** Picks one of the offered media types (an Accept header's choice); false for none. */
  readonly choose?: ((offered: readonly string[]) => string | false) | undefined;
}

/** The answers the contract gives, and its rule that writeOnly properties are never answered. */
export interface ContractAnswers {
  /**
   * The operation's answer: its natural status (the lowest 2xx the contract documents, else the
   * lowest 3xx, else what `2XX` or `default` documents) or `status`, in the media type chosen.
   * Built on first use, then the same for the same seed.
   */
  answer(op: Operation, request?: AnswerRequest): Promise<ContractAnswer>;
  /** The media types of the operation's natural answer (empty without content): what Accept picks from. */
  mediaTypesOf(op: Operation): readonly string[];
  /** A handler's body without the properties that the answer's schema marks writeOnly. */
  withoutWriteOnly(op: Operation, status: number, body: unknown): unknown;
  /** Every example of the contract's JSON answers that breaks its own schema (looked for once). */
  brokenExamples(): readonly BrokenExample[];
  /** Checks a value against a schema of the contract (as the validator checks answers). */
  readonly check: AnswerCheck;
  /** A value for a schema of the contract, seeded from the seed mixed with the caller's parts. */
  readonly generate: GenerateValue;
}

/** A client's Accept that takes none of the media types an answer is documented in: 406. */
export class NotAcceptableError extends Refusal {
  override name = 'NotAcceptableError';

  constructor(offered: readonly string[]) {
    super(
      406,
      'not_acceptable',
      offered.length === 1 && offered[0] === 'application/json'
        ? 'The mock can only answer application/json.'
        : `The operation answers ${offered.join(', ')}; the Accept header takes none of them.`,
    );
  }
}

/** The natural status: the lowest documented 2xx, else 3xx, else what a range or `default` says. */
function naturalStatusOf(responses: Record<string, unknown>): number | undefined {
  const statuses = Object.keys(responses).map(Number).filter(Number.isInteger);
  for (const low of [200, 300]) {
    const inRange = statuses.filter((s) => s >= low && s < low + 100);
    if (inRange.length > 0) return Math.min(...inRange);
  }
  const keys = Object.keys(responses).map((key) => key.toUpperCase());
  if (keys.includes('2XX') || keys.includes('DEFAULT')) return 200;
  if (keys.includes('3XX')) return 302;
  if (statuses.length > 0) return Math.min(...statuses);
  // Only ranges of errors (`4XX`): the first status of the lowest.
  const ranges = keys.filter((key) => /^[1-5]XX$/.test(key)).sort();
  return ranges[0] === undefined ? undefined : Number(ranges[0].charAt(0)) * 100;
}

/** Media types with the JSON ones first, each kind in the order written. */
function jsonFirst(types: readonly string[]): string[] {
  return [
    ...types.filter((type) => kindOf(type) === 'json'),
    ...types.filter((type) => kindOf(type) !== 'json'),
  ];
}

/** What the answers are built with besides the contract. */
export interface ContractAnswerOptions {
  /** The seed of generated data (--seed; 1 without). */
  readonly seed: number;
  /** What to do with an example that breaks its schema (generate in its place by default). */
  readonly brokenExamples?: BrokenExamples | undefined;
  /** Told of each operation whose example breaks its schema, once, when first met. */
  readonly onBrokenExample?: ((broken: BrokenExample) => void) | undefined;
}

/**
 * The answers of a contract's operations, taken from its examples or generated from its schemas
 * with a faker seeded from `seed` mixed with the operation's name: the same seed, the same data,
 * on every run and machine. Examples are checked against their schema first: one that breaks it
 * is the contract's fault, and data generated from the schema is answered in its place (or, with
 * `brokenExamples: 'serve'`, the example as written). Bodies are written in the media type the
 * client accepts among those documented: JSON, XML (from the schema's `xml` objects), text, or
 * bytes (a small valid file for common types). Each answer is built once, on first use.
 */
export function createContractAnswers(
  contract: {
    readonly document: OpenApiDocument;
    readonly schemaDocument: OpenApiDocument;
    readonly operations: Pick<OperationIndex, 'operations'>;
  },
  { seed, brokenExamples = 'generate', onBrokenExample }: ContractAnswerOptions,
): ContractAnswers {
  const { document } = contract;
  let checkOf: AnswerCheck | undefined;
  // The checks compile the components of the document without examples (Contract.schemaDocument),
  // which the same references name.
  const check: AnswerCheck = (schema, value) =>
    (checkOf ??= createAnswerCheck(contract.schemaDocument))(schema, value);
  const answers = new Map<string, Promise<ContractAnswer>>();
  const writeOnlySchemas = new Map<string, unknown>();
  /** The media types of each operation's natural answer, by its name (asked on every request). */
  const mediaTypes = new Map<string, readonly string[]>();
  const reported = new Set<string>();
  const found = new Map<string, BrokenExample>();

  const generateValue = createValueGenerator(document, check, seed);
  const generate = createAnswerGenerator(generateValue);

  const responsesOf = (op: Operation): Record<string, unknown> => {
    const operation = operationObject(document, op.pathKey, op.method);
    return isRecord(operation?.responses) ? operation.responses : {};
  };

  /** Notes an example that breaks its schema: kept for the coverage report, told once per operation. */
  function noteBroken(broken: BrokenExample): void {
    const key = `${broken.operation} ${broken.status} ${broken.mediaType} ${broken.example ?? ''}`;
    if (!found.has(key)) found.set(key, broken);
    if (reported.has(broken.operation)) return;
    reported.add(broken.operation);
    onBrokenExample?.(broken);
  }

  /**
   * The data of a JSON (or XML) answer: the first example that keeps to its schema; else, where
   * examples break it, generated data (or the first as written, when they are to be served).
   */
  async function dataOf(
    op: Operation,
    status: number,
    mediaType: string,
    media: Record<string, unknown>,
  ): Promise<{ value: unknown; source: AnswerSource }> {
    const { schema } = media;
    const candidates = examplesOf(media);
    if (candidates.length === 0) {
      const own = derefSchema(document, schema, '/response');
      if (isRecord(own)) candidates.push(...examplesOf(own));
      if (isRecord(own) && Array.isArray(own.examples) && own.examples.length > 0) {
        candidates.push({ value: own.examples[0] });
      }
    }
    let broken: { value: unknown } | undefined;
    for (const candidate of candidates) {
      const value = withoutWriteOnly(document, schema, candidate.value);
      const [problem] = schema === undefined ? [] : check(schema, value);
      if (problem === undefined) return { value, source: 'example' };
      noteBroken({
        operation: op.name,
        status,
        mediaType,
        ...(candidate.name !== undefined && { example: candidate.name }),
        problem,
      });
      broken ??= { value };
    }
    if (broken && brokenExamples === 'serve') {
      return { value: broken.value, source: 'example; breaks-schema' };
    }
    const value = await generate(op, status, schema);
    return { value, source: broken ? 'generated; example-breaks-schema' : 'generated' };
  }

  /** The body of an answer in its media type. */
  async function bodyOf(
    op: Operation,
    status: number,
    mediaType: string,
    media: Record<string, unknown>,
  ): Promise<{ body: unknown; source: AnswerSource }> {
    const kind = kindOf(mediaType);
    const schema = derefSchema(document, media.schema, '/response');
    const textual = isRecord(schema) && schema.type === 'string';
    if (kind === 'json') {
      const { value, source } = await dataOf(op, status, mediaType, media);
      return { body: value, source };
    }
    const [example] = examplesOf(media);
    if (typeof example?.value === 'string' && kind !== 'binary') {
      return { body: example.value, source: 'example' };
    }
    if (kind === 'binary' || (textual && sampleFile(mediaType))) {
      const file = sampleFile(mediaType);
      if (file) return { body: file, source: 'sample-file' };
      if (typeof example?.value === 'string') {
        return { body: Buffer.from(example.value), source: 'example' };
      }
      const bytes =
        media.schema === undefined ? 'binary' : await generate(op, status, media.schema);
      return {
        body: Buffer.from(typeof bytes === 'string' ? bytes : JSON.stringify(bytes)),
        source: 'generated',
      };
    }
    const { value, source } =
      media.schema === undefined && example === undefined
        ? { value: '', source: 'generated' as const }
        : await dataOf(op, status, mediaType, media);
    if (kind === 'xml' && (isRecord(value) || Array.isArray(value))) {
      return { body: toXml(document, media.schema, value), source };
    }
    if (kind === 'form' && isRecord(value)) {
      const form = new URLSearchParams();
      for (const [key, item] of Object.entries(value)) {
        for (const one of Array.isArray(item) ? item : [item]) {
          form.append(key, isRecord(one) ? JSON.stringify(one) : String(one));
        }
      }
      return { body: form.toString(), source };
    }
    return { body: typeof value === 'string' ? value : JSON.stringify(value), source };
  }

  /** The documented answer of a status, and the media type to write it in. */
  function documented(
    op: Operation,
    request: AnswerRequest,
  ): { status: number; response: Record<string, unknown>; type?: string; written?: string } {
    const responses = responsesOf(op);
    const status = request.status ?? naturalStatusOf(responses);
    if (status === undefined) {
      // An operation documenting no answer at all (3.1 allows it): an empty success.
      return { status: 204, response: {} };
    }
    const key = responseKeyOf(responses, status);
    const response = key === undefined ? undefined : responses[key];
    if (!isRecord(response)) throw new ContractAnswerError(op, `it documents no ${status} answer`);
    const content = isRecord(response.content) ? Object.keys(response.content) : [];
    if (content.length === 0) return { status, response };
    // JSON first: a client that takes anything (no Accept, `*/*`) gets JSON where it is offered.
    const offered = jsonFirst([...new Set(content.map(concreteType))]);
    const picked = request.choose ? request.choose(offered) : offered[0];
    if (picked === false) throw new NotAcceptableError(offered);
    const type = picked ?? offered[0] ?? 'application/json';
    // The type written as such before a range that stands for it (`*/*` → application/json).
    const written =
      content.find((t) => essenceOf(t) === type) ??
      content.find((t) => concreteType(t) === type) ??
      content[0] ??
      type;
    return { status, response, type, written };
  }

  async function build(op: Operation, request: AnswerRequest): Promise<ContractAnswer> {
    const { status, response, type, written } = documented(op, request);
    try {
      const headers = await answerHeaders(op, status, response, { check, generate });
      const content = isRecord(response.content) ? response.content : {};
      const media = written === undefined ? undefined : content[written];
      if (type === undefined || !isRecord(media)) {
        return {
          status,
          mediaType: undefined,
          body: undefined,
          headers,
          source: 'example',
          schema: false,
        };
      }
      const { body, source } = await bodyOf(op, status, type, media);
      return { status, mediaType: type, body, headers, source, schema: media.schema !== undefined };
    } catch (error) {
      if (error instanceof SchemaError) throw new ContractAnswerError(op, error.message);
      throw error;
    }
  }

  /** The schema of an answer, if it has writeOnly properties to drop (looked up once). */
  function writeOnlySchemaOf(op: Operation, status: number): unknown {
    const key = `${op.name} ${status}`;
    if (!writeOnlySchemas.has(key)) {
      let schema: unknown;
      try {
        const { response, written } = documented(op, { status });
        const content = isRecord(response.content) ? response.content : {};
        const media = written === undefined ? undefined : content[written];
        schema =
          isRecord(media) && reachesWriteOnly(document, media.schema) ? media.schema : undefined;
      } catch {
        // An answer the contract does not document: the validator says so.
        schema = undefined;
      }
      writeOnlySchemas.set(key, schema);
    }
    return writeOnlySchemas.get(key);
  }

  let scanned = false;
  /** Every JSON example of every documented answer, checked once. */
  function scanExamples(): void {
    if (scanned) return;
    scanned = true;
    for (const op of contract.operations.operations) {
      for (const [key, response] of Object.entries(responsesOf(op))) {
        const status = Number(key);
        if (!isRecord(response) || !isRecord(response.content) || !Number.isInteger(status)) {
          continue;
        }
        for (const [mediaType, media] of Object.entries(response.content)) {
          if (!isRecord(media) || kindOf(mediaType) !== 'json' || media.schema === undefined) {
            continue;
          }
          for (const example of examplesOf(media)) {
            let problem: string | undefined;
            try {
              [problem] = check(
                media.schema,
                withoutWriteOnly(document, media.schema, example.value),
              );
            } catch (error) {
              problem = error instanceof Error ? error.message : String(error);
            }
            if (problem === undefined) continue;
            const broken: BrokenExample = {
              operation: op.name,
              status,
              mediaType,
              ...(example.name !== undefined && { example: example.name }),
              problem,
            };
            const seen = `${op.name} ${status} ${mediaType} ${example.name ?? ''}`;
            if (!found.has(seen)) found.set(seen, broken);
          }
        }
      }
    }
  }

  return {
    generate: generateValue,
    answer: async (op, request = {}) => {
      const { type } = documented(op, request);
      const key = `${op.name} ${request.status ?? 'natural'} ${type ?? ''}`;
      let answer = answers.get(key);
      if (!answer) {
        answer = build(op, request);
        answers.set(key, answer);
      }
      const { body, ...rest } = await answer;
      // Each request gets its own copy of the cached body.
      return { ...rest, body: Buffer.isBuffer(body) ? body : structuredClone(body) };
    },
    mediaTypesOf: (op) => {
      let types = mediaTypes.get(op.name);
      if (!types) {
        const responses = responsesOf(op);
        const status = naturalStatusOf(responses);
        const key = status === undefined ? undefined : responseKeyOf(responses, status);
        const response = key === undefined ? undefined : responses[key];
        const content = isRecord(response) && isRecord(response.content) ? response.content : {};
        types = jsonFirst([...new Set(Object.keys(content).map(concreteType))]);
        mediaTypes.set(op.name, types);
      }
      return types;
    },
    withoutWriteOnly: (op, status, body) => {
      const schema = writeOnlySchemaOf(op, status);
      return schema === undefined ? body : withoutWriteOnly(document, schema, body);
    },
    brokenExamples: () => {
      scanExamples();
      return [...found.values()];
    },
    check,
  };
}
