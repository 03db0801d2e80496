/**
 * A candidate value mended where the oracle found it wrong in a way a generator commonly is:
 * openapi-sampler writes "string" for most patterns, so each failing string is replaced by one
 * that RandExp (a regular-expression string generator) makes from the pattern itself,
 * deterministically; and a required property the schema does not describe (so no generator can
 * know it) is given a string. The oracle then judges the value again.
 */
import RandExp from 'randexp';
import { isObject } from './contract.js';

/** Repetitions without an upper bound (`+`, `*`) are made at most this long. */
const MAX_REPEAT = 4;

/** A value for a required property that the schema does not describe. */
const UNDESCRIBED = 'sample';

/**
 * The value with every `pattern` and `required` failure of `errors` mended, or undefined when there
 * was none to mend. `schemaAt(schemaWhere)` gives what a failure's schema location holds.
 */
export function mendValue(value, errors, schemaAt) {
  let mended = structuredCopy(value);
  let changed = false;
  for (const error of errors) {
    if (error.keyword === 'pattern') {
      const pattern = schemaAt(error.schemaWhere);
      const text = typeof pattern === 'string' ? sampleOf(pattern) : undefined;
      if (text === undefined) continue;
      if (error.instanceWhere === '') mended = text;
      else if (!setAt(mended, error.instanceWhere, text)) continue;
      changed = true;
    } else if (error.keyword === 'required' && Array.isArray(error.missing)) {
      const target = error.instanceWhere === '' ? mended : getAt(mended, error.instanceWhere);
      if (!isObject(target)) continue;
      const properties = schemaAt(error.schemaWhere.replace(/\/required$/, '/properties'));
      for (const name of error.missing) {
        if (isObject(properties) && name in properties) continue; // described: the sampler's to fill
        target[name] = UNDESCRIBED;
        changed = true;
      }
    }
  }
  return changed ? mended : undefined;
}

function getAt(root, where) {
  let node = root;
  for (const segment of segmentsOf(where)) {
    if (!isObject(node) && !Array.isArray(node)) return undefined;
    node = node[segment];
  }
  return node;
}

function segmentsOf(where) {
  return where
    .split('/')
    .slice(1)
    .map((s) => s.replaceAll('~1', '/').replaceAll('~0', '~'));
}

/** A string matching `pattern`: middle choices throughout, so it reads plainly and stays the same. */
function sampleOf(pattern) {
  try {
    const regexp = new RegExp(pattern, 'u');
    const generator = new RandExp(pattern);
    generator.max = MAX_REPEAT;
    generator.randInt = (low, high) => Math.floor((low + high) / 2);
    const text = generator.gen();
    return regexp.test(text) ? text : undefined;
  } catch {
    return undefined; // a pattern RandExp or the u flag cannot read
  }
}

function structuredCopy(value) {
  return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
}

function setAt(root, where, text) {
  const segments = segmentsOf(where);
  const last = segments.pop();
  let node = root;
  for (const segment of segments) {
    if (!isObject(node) && !Array.isArray(node)) return false;
    node = node[segment];
  }
  if (last === undefined || (!isObject(node) && !Array.isArray(node))) return false;
  node[last] = text;
  return true;
}
