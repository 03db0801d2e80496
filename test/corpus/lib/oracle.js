/**
 * The oracle: values checked against a contract's schemas with @hyperjump/json-schema, a validator
 * that shares no code with the mock's (express-openapi-validator and Ajv), in the contract's own
 * OpenAPI dialect (3.0 with nullable, 3.1 as JSON Schema 2020-12), formats asserted.
 */
import { randomUUID } from 'node:crypto';
import { setShouldValidateFormat, setShouldValidateSchema } from '@hyperjump/json-schema';
import { BASIC } from '@hyperjump/json-schema/experimental';
import '@hyperjump/json-schema/formats';
import * as oas30 from '@hyperjump/json-schema/openapi-3-0';
import * as oas31 from '@hyperjump/json-schema/openapi-3-1';
import { at, isObject, resolve, versionOf } from './contract.js';
import { addOpenApiFormats } from './openapi-formats.js';
import { forEachSchema } from './schema-walk.js';

// Whether a contract is itself valid OpenAPI is the mock's call to make at start, not the oracle's:
// it checks values against the schemas as written.
setShouldValidateSchema(false);
setShouldValidateFormat(true);
addOpenApiFormats();

/** Fragment characters RFC 3986 allows as they are; hyperjump decodes the rest with decodeURI. */
const FRAGMENT_SAFE = /^[A-Za-z0-9\-._~!$&'()*+,;=:@/]$/;

/**
 * Stands for '#' in path keys: hyperjump reads a fragment with decodeURI, which leaves %23 as it
 * is, so a path such as /schema#classifications could not be addressed otherwise (and a non-ASCII
 * stand-in would not survive its IRI resolution).
 */
const HASH = '!corpus-hash!';

const MAX_ERRORS_SHOWN = 3;

/** Marks the schema put in place of a property one side must not send. */
const FORBIDDEN_MARK = 'x-corpus-forbidden';

/** A schema hyperjump cannot compile: what it says of a value would mean nothing. */
export class UnreadableSchema extends Error {
  constructor(where, cause) {
    super(`the oracle cannot read the schema at ${where}: ${cause.message}`, { cause });
    this.name = 'UnreadableSchema';
  }
}

/**
 * Registers the contract twice, as seen by requests (readOnly properties neither required nor
 * allowed) and by answers (the same for writeOnly properties), as OpenAPI says of both.
 * `check(view, where, value)` gives the problems of `value` against the schema at JSON pointer
 * `where` ('request' or 'response' view), [] when valid; `errors` the same as objects; `close()`
 * forgets the contract.
 */
export function createOracle(doc) {
  const lib = versionOf(doc) === '3.0' ? oas30 : oas31;
  const dialect = dialectOf(doc);
  const views = {
    request: { ...viewOf(doc, 'readOnly'), uri: `https://corpus.invalid/${randomUUID()}` },
    response: { ...viewOf(doc, 'writeOnly'), uri: `https://corpus.invalid/${randomUUID()}` },
  };
  for (const view of Object.values(views)) lib.registerSchema(view.doc, view.uri, dialect);
  const validators = new Map();

  /**
   * The failures of `value` at `where`: [{keyword, instanceWhere, schemaWhere, message}], with the
   * `missing` names of a `required` failure.
   */
  async function errors(viewName, where, value) {
    const view = views[viewName];
    const uri = `${view.uri}#${[...where.replaceAll('#', HASH)].map(encodeFragmentChar).join('')}`;
    let validator = validators.get(uri);
    if (validator === undefined) {
      try {
        validator = await lib.validate(uri);
      } catch (error) {
        throw new UnreadableSchema(where, error);
      }
      validators.set(uri, validator);
    }
    const output = validator(value, BASIC);
    return output.valid ? [] : describeErrors(output.errors ?? [], value, view);
  }

  /** The problems of `value` at `where` as sentences; [] when it is valid. */
  async function check(viewName, where, value) {
    const found = await errors(viewName, where, value);
    return found.slice(0, MAX_ERRORS_SHOWN).map((error) => error.message);
  }

  /** The value at a JSON pointer of a view's document (a keyword's value, for an error). */
  function schemaAt(viewName, where) {
    return at(views[viewName].doc, where);
  }

  function close() {
    for (const view of Object.values(views)) lib.unregisterSchema(view.uri);
    validators.clear();
  }

  const relaxed = [...new Set([...views.request.relaxed, ...views.response.relaxed])];
  return { check, errors, schemaAt, close, relaxed };
}

function encodeFragmentChar(char) {
  return FRAGMENT_SAFE.test(char) ? char : encodeURIComponent(char);
}

/** The schema dialect hyperjump's own OpenAPI loader picks for this document. */
function dialectOf(doc) {
  if (versionOf(doc) === '3.0') return 'https://spec.openapis.org/oas/3.0/schema';
  if (doc.jsonSchemaDialect === 'https://json-schema.org/draft/2020-12/schema') {
    return 'https://spec.openapis.org/oas/3.1/schema-draft-2020-12';
  }
  return 'https://spec.openapis.org/oas/3.1/schema-base';
}

/**
 * A copy of the document as one side sees it: a property marked `flag` (readOnly for requests,
 * writeOnly for answers) is neither required nor allowed, as OpenAPI says ("SHOULD NOT be sent").
 * The property's own schema stays in place: other references may point into it. Patterns are
 * made readable with the u flag hyperjump compiles them with; one that cannot be is dropped and
 * listed in `relaxed`.
 */
function viewOf(doc, flag) {
  const copy = JSON.parse(JSON.stringify(doc));
  if (isObject(copy.paths)) {
    copy.paths = Object.fromEntries(
      Object.entries(copy.paths).map(([path, item]) => [path.replaceAll('#', HASH), item]),
    );
  }
  const relaxed = [];
  forEachSchema(copy, (schema) => {
    // An OpenAPI document's `#/components/…` references are read against the document, as
    // OpenAPI tools read them, also inside a schema with its own `$id` (Scalar's galaxy).
    if (typeof schema.$id === 'string' && JSON.stringify(schema).includes('"#/')) {
      relaxed.push(`$id ${schema.$id} read as part of the document`);
      delete schema.$id;
    }
    if (typeof schema.pattern === 'string') {
      const readable = unicodePattern(schema.pattern);
      if (readable === undefined) {
        relaxed.push(`pattern ${schema.pattern} not checked (not a valid regular expression)`);
        delete schema.pattern;
      } else {
        schema.pattern = readable;
      }
    }
    if (!isObject(schema.properties)) return;
    const marked = Object.keys(schema.properties).filter((name) =>
      isMarked(doc, schema.properties[name], flag),
    );
    if (marked.length === 0) return;
    if (Array.isArray(schema.required)) {
      schema.required = schema.required.filter((name) => !marked.includes(name));
    }
    const forbid = marked.map((name) => ({
      not: { required: [name] },
      [FORBIDDEN_MARK]: `${flag} property "${name}"`,
    }));
    schema.allOf = [...(Array.isArray(schema.allOf) ? schema.allOf : []), ...forbid];
  });
  return { doc: copy, relaxed };
}

/**
 * A pattern as the u flag reads it: identity escapes of plain punctuation (`\:`, `\@`), which
 * JavaScript allows without the flag, unescaped. Undefined when even that is no regular expression.
 */
function unicodePattern(pattern) {
  if (compiles(pattern, 'u')) return pattern;
  const unescaped = pattern.replace(/\\(\\|[^\w\s^$.*+?()[\]{}|/-])/g, (match, char) =>
    char === '\\' ? match : char,
  );
  return compiles(unescaped, 'u') ? unescaped : undefined;
}

function compiles(pattern, flags) {
  try {
    new RegExp(pattern, flags);
    return true;
  } catch {
    return false;
  }
}

function isMarked(doc, property, flag) {
  if (!isObject(property)) return false;
  if (property[flag] === true) return true;
  // A property made of parts (`allOf: [{$ref: Position}]`) is what its parts are.
  if (Array.isArray(property.allOf) && property.allOf.some((part) => isMarked(doc, part, flag))) {
    return true;
  }
  try {
    return resolve(doc, property, '').value?.[flag] === true;
  } catch {
    return false;
  }
}

/** The innermost failures (all of them), each with a sentence: `where in the value: keyword (schema place), value`. */
function describeErrors(errors, value, view) {
  const leaves = errors.filter(
    (error) =>
      !errors.some(
        (other) =>
          other !== error &&
          other.absoluteKeywordLocation.startsWith(`${error.absoluteKeywordLocation}/`),
      ),
  );
  const described = (leaves.length > 0 ? leaves : errors).map((error) =>
    describeError(error, value, view),
  );
  if (described.length === 0) {
    described.push({
      keyword: 'unknown',
      instanceWhere: '',
      schemaWhere: '',
      message: 'invalid (no detail)',
    });
  }
  return described;
}

function describeError(error, value, view) {
  const keyword = error.keyword.split('/').pop();
  const schemaWhere = decodeURI(error.absoluteKeywordLocation.split('#')[1] ?? '');
  const instanceWhere = decodeURI(error.instanceLocation.replace(/^#/, ''));
  const found = at(value, instanceWhere);
  const described = { keyword, instanceWhere, schemaWhere };
  const mark = at(view.doc, schemaWhere.replace(/\/not$/, ''))?.[FORBIDDEN_MARK];
  if (keyword === 'not' && mark !== undefined) {
    return { ...described, message: `${instanceWhere || '(root)'}: a ${mark}, sent` };
  }
  let detail = `value ${excerpt(found)}`;
  if (keyword === 'required') {
    const required = at(view.doc, schemaWhere);
    const missing = Array.isArray(required)
      ? required.filter((name) => !isObject(found) || !(name in found))
      : [];
    detail = `missing ${missing.join(', ')}`;
    described.missing = missing;
  }
  return {
    ...described,
    message: `${instanceWhere || '(root)'}: ${keyword} (${schemaWhere}), ${detail}`,
  };
}

/** A short JSON rendering of a value, for messages. */
export function excerpt(value, length = 80) {
  const text = value === undefined ? 'undefined' : JSON.stringify(value);
  return text.length > length ? `${text.slice(0, length)}…` : text;
}
