import type { ValidateFunction } from 'ajv';
import { isRecord } from '../util/is-record.js';
import { CONTRACT_ID, createContractAjv, type ContractAjv } from './contract-ajv.js';
import type { OpenApiDocument } from './openapi-document.js';
import { derefSchema } from './schema-refs.js';
import { SCHEMA_MAPS } from './schema-keywords.js';

/** Checks a value against one of the document's schemas as an answer; returns the problems. */
export type AnswerCheck = (schema: unknown, value: unknown) => readonly string[];

function isWriteOnly(document: OpenApiDocument, schema: unknown): boolean {
  try {
    const target = derefSchema(document, schema, '');
    return isRecord(target) && target.writeOnly === true;
  } catch {
    return false;
  }
}

/**
 * A schema as express-openapi-validator's response check reads it, for an Ajv of the JSON Schema
 * draft contract-ajv.ts builds: 3.0's boolean exclusiveMinimum and exclusiveMaximum as the
 * bounds they make exclusive, writeOnly properties not required (the validator drops them from
 * `required` in answers), and local references pointing into the registered document.
 */
/** Keywords a validator may misread: annotations holding data, and schema ids. */
const ANNOTATIONS = new Set(['example', 'examples', '$id', '$anchor', '$dynamicAnchor', '$schema']);

function answerView(document: OpenApiDocument, value: unknown, names = false): unknown {
  if (Array.isArray(value)) return value.map((item) => answerView(document, item));
  if (!isRecord(value)) return value;
  const view: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    if (names) {
      view[key] = answerView(document, child);
      continue;
    }
    if (ANNOTATIONS.has(key) || key.startsWith('x-')) continue;
    view[key] =
      key === '$ref' && typeof child === 'string' && child.startsWith('#/')
        ? `${CONTRACT_ID}${child}`
        : answerView(document, child, SCHEMA_MAPS.has(key));
  }
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof view[flag] !== 'boolean') continue;
    if (view[flag] && typeof view[bound] === 'number') {
      view[flag] = view[bound];
      Reflect.deleteProperty(view, bound);
    } else {
      Reflect.deleteProperty(view, flag);
    }
  }
  const { properties, required } = value;
  if (isRecord(properties) && Array.isArray(required)) {
    view.required = required.filter(
      (name) => typeof name !== 'string' || !isWriteOnly(document, properties[name]),
    );
  }
  return view;
}

/**
 * Checks of values against the document's schemas with what the response validator enforces,
 * for the answers the mock writes from the contract. The Ajv is built on the first check; each
 * schema is compiled once.
 */
export function createAnswerCheck(document: OpenApiDocument): AnswerCheck {
  let ajv: ContractAjv | undefined;
  const compiled = new WeakMap<object, ValidateFunction>();
  const validatorOf = (schema: object): ValidateFunction => {
    let validate = compiled.get(schema);
    if (!validate) {
      ajv ??= createContractAjv({
        ...document,
        components: isRecord(document.components)
          ? Object.fromEntries(
              Object.entries(document.components).map(([kind, group]) => [
                kind,
                answerView(document, group, true),
              ]),
            )
          : {},
      });
      const view = answerView(document, schema);
      validate = ajv.compile(isRecord(view) ? view : {});
      compiled.set(schema, validate);
    }
    return validate;
  };
  return (schema, value) => {
    if (schema === undefined || schema === true) return [];
    if (!isRecord(schema)) return ['the schema accepts no value'];
    const validate = validatorOf(schema);
    if (validate(value)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message ?? 'is invalid'}`,
    );
  };
}
