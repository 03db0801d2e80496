/** A contract read from disk, and its operations with the JSON pointer of every part checked. */
import { readFileSync } from 'node:fs';
import YAML from 'yaml';

export const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];

/** Parses a contract file (JSON or YAML); throws with the parser's message. */
export function readContract(file) {
  const text = readFileSync(file, 'utf8');
  const doc = file.endsWith('.json') ? JSON.parse(text) : YAML.parse(text, { maxAliasCount: -1 });
  if (!isObject(doc) || typeof doc.openapi !== 'string') {
    throw new Error(`${file}: not an OpenAPI 3 document (no "openapi" field)`);
  }
  return doc;
}

/** '3.0' or '3.1' (3.2 is read as 3.1: its schemas are the same dialect). */
export function versionOf(doc) {
  return doc.openapi.startsWith('3.0') ? '3.0' : '3.1';
}

/** @param {unknown} value */
export function isObject(value) {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A JSON pointer from raw segments: '/paths/~1pets/get'. */
export function pointer(...segments) {
  return segments.map((s) => `/${String(s).replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');
}

/** The value at a JSON pointer, or undefined. */
export function at(doc, jsonPointer) {
  let value = doc;
  for (const raw of jsonPointer.split('/').slice(1)) {
    const segment = raw.replaceAll('~1', '/').replaceAll('~0', '~');
    if (!isObject(value) && !Array.isArray(value)) return undefined;
    value = value[segment];
  }
  return value;
}

/**
 * Follows local `$ref`s from `value` (found at `where`) to the object they name: {value, where}.
 * Throws on a reference to another file or to nothing: the operation cannot be built from it.
 */
export function resolve(doc, value, where) {
  const seen = new Set();
  while (isObject(value) && typeof value.$ref === 'string') {
    const ref = value.$ref;
    if (!ref.startsWith('#')) throw new Error(`${where}: external reference ${ref}`);
    if (seen.has(ref)) throw new Error(`${where}: reference loop through ${ref}`);
    seen.add(ref);
    where = decodeURIComponent(ref.slice(1));
    value = at(doc, where);
    if (value === undefined) throw new Error(`${ref} points at nothing`);
  }
  return { value, where };
}

/**
 * Every operation (paths × methods), in document order. A part that cannot be resolved leaves the
 * operation with `broken` set to the reason, so it is reported rather than skipped.
 */
export function listOperations(doc) {
  const operations = [];
  for (const [path, rawItem] of Object.entries(doc.paths ?? {})) {
    let item;
    try {
      item = resolve(doc, rawItem, pointer('paths', path));
    } catch (error) {
      operations.push(brokenOperation(path, 'get', error));
      continue;
    }
    for (const method of METHODS) {
      if (!isObject(item.value[method])) continue;
      try {
        operations.push(describeOperation(doc, path, method, item));
      } catch (error) {
        operations.push(brokenOperation(path, method, error));
      }
    }
  }
  return operations;
}

function brokenOperation(path, method, error) {
  return { key: `${method.toUpperCase()} ${path}`, method, path, broken: String(error.message) };
}

function describeOperation(doc, path, method, item) {
  const op = item.value[method];
  const where = `${item.where}/${method}`;
  const parameters = new Map();
  const addAll = (list, listWhere) => {
    (Array.isArray(list) ? list : []).forEach((raw, index) => {
      const param = resolve(doc, raw, `${listWhere}/${index}`);
      parameters.set(`${param.value.in}:${param.value.name}`, param);
    });
  };
  addAll(item.value.parameters, `${item.where}/parameters`);
  addAll(op.parameters, `${where}/parameters`); // the operation's own win over the path's
  const responses = {};
  for (const [status, raw] of Object.entries(op.responses ?? {})) {
    responses[status] = resolve(doc, raw, `${where}/responses${pointer(status)}`);
  }
  return {
    key: `${method.toUpperCase()} ${path}`,
    operationId: op.operationId,
    method,
    path,
    where,
    parameters: [...parameters.values()],
    requestBody:
      op.requestBody === undefined
        ? undefined
        : resolve(doc, op.requestBody, `${where}/requestBody`),
    responses,
    security: op.security ?? doc.security ?? [],
  };
}
