import { isRecord } from '../util/is-record.js';
import { securityOf, securitySchemesOf } from './security.js';

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'];
/** A path parameter name express-openapi-validator's router (path-to-regexp) reads whole. */
const ROUTABLE_NAME = /^[A-Za-z_$][A-Za-z0-9_$]*$/;
/** What the validator reads of an operation; the rest (tags, docs, extensions) is left out. */
const OPERATION_KEYS = new Set([
  'operationId',
  'parameters',
  'requestBody',
  'responses',
  'security',
  'deprecated',
]);
/** What the validator reads of a response: its content (it checks no response header). */
const RESPONSE_KEYS = new Set(['description', 'content']);

/** A parameter name the router reads whole: `user-id` → `user_id`, unique among `taken`. */
function routableName(name: string, taken: Set<string>): string {
  const base = name.replace(/[^A-Za-z0-9_$]/g, '_').replace(/^(?=\d)/, '_') || '_';
  let routable = base;
  for (let n = 2; taken.has(routable); n += 1) routable = `${base}${n}`;
  taken.add(routable);
  return routable;
}

/** A list of parameters with the path ones renamed (`user-id` → `user_id`). */
function renamed(list: unknown, renames: ReadonlyMap<string, string>): unknown {
  if (!Array.isArray(list) || renames.size === 0) return list;
  return list.map((parameter: unknown) => {
    if (!isRecord(parameter) || parameter.in !== 'path' || typeof parameter.name !== 'string') {
      return parameter;
    }
    const name = renames.get(parameter.name);
    return name === undefined ? parameter : { ...parameter, name };
  });
}

/**
 * The optional query parameters an operation's API keys in the query are: the validator, which
 * refuses unknown query parameters, lets through only the first such key of a requirement.
 */
function withQueryKeys(parameters: unknown, names: readonly string[]): unknown {
  const own: unknown[] = Array.isArray(parameters) ? parameters : [];
  const declared = new Set(
    own.flatMap((p) =>
      isRecord(p) && p.in === 'query' && typeof p.name === 'string' ? [p.name] : [],
    ),
  );
  const added = names
    .filter((name) => !declared.has(name))
    .map((name) => ({ name, in: 'query', required: false, schema: { type: 'string' } }));
  return added.length === 0 ? parameters : [...own, ...added];
}

/**
 * Parameters, request bodies and responses that several operations hold (the normalized document
 * shares what one `$ref` named) become components again, each written once and referred to: the
 * validator copies the whole document into the schema it compiles for each route, and walks it.
 */
function shareParts(paths: Json, components: Json): void {
  const uses = new Map<object, number>();
  const count = (value: unknown): void => {
    if (isRecord(value)) uses.set(value, (uses.get(value) ?? 0) + 1);
  };
  const operations = Object.values(paths).flatMap((item) =>
    isRecord(item) ? METHODS.flatMap((m) => (isRecord(item[m]) ? [item[m]] : [])) : [],
  );
  for (const op of operations) {
    if (Array.isArray(op.parameters)) op.parameters.forEach(count);
    count(op.requestBody);
    if (isRecord(op.responses)) Object.values(op.responses).forEach(count);
  }
  const names = new Map<object, string>();
  const refTo = (kind: string, value: unknown): unknown => {
    if (!isRecord(value) || (uses.get(value) ?? 0) < 2) return value;
    let name = names.get(value);
    if (name === undefined) {
      name = `shared${String(names.size + 1)}`;
      names.set(value, name);
      components[kind] = { ...(isRecord(components[kind]) ? components[kind] : {}), [name]: value };
    }
    return { $ref: `#/components/${kind}/${name}` };
  };
  for (const op of operations) {
    if (Array.isArray(op.parameters)) {
      const parameters: unknown[] = op.parameters;
      op.parameters = parameters.map((p) => refTo('parameters', p));
    }
    if (op.requestBody !== undefined) op.requestBody = refTo('requestBodies', op.requestBody);
    if (isRecord(op.responses)) {
      op.responses = Object.fromEntries(
        Object.entries(op.responses).map(([status, r]) => [status, refTo('responses', r)]),
      );
    }
  }
}

/**
 * The (normalized, example-free) document as express-openapi-validator is given it: what it
 * cannot read is written the way it can, meaning the same, and what it does not read is left
 * out, for it walks the whole document again for each route it meets first. Path parameter names
 * its router would cut short (`{user-id}`) become names it reads whole; API keys sent in the query
 * become optional query parameters of the operations that ask for them; operations keep only
 * what it validates; parts operations share are written once (shareParts). The given document is
 * not changed.
 */
export function validatorView(document: Json): Json {
  if (!isRecord(document.paths)) return document;
  const schemes = securitySchemesOf(document.components);
  const bareResponses = new WeakMap<object, unknown>();
  const bare = (response: unknown): unknown => {
    if (!isRecord(response)) return response;
    if (!bareResponses.has(response)) {
      bareResponses.set(
        response,
        Object.fromEntries(Object.entries(response).filter(([key]) => RESPONSE_KEYS.has(key))),
      );
    }
    return bareResponses.get(response);
  };
  const paths: Json = {};
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue;
    const taken = new Set<string>();
    const renames = new Map<string, string>();
    const routable = path.replace(/\{([^}]+)\}/g, (_match, name: string) => {
      if (ROUTABLE_NAME.test(name)) {
        taken.add(name);
        return `{${name}}`;
      }
      const renamedName = renames.get(name) ?? routableName(name, taken);
      renames.set(name, renamedName);
      return `{${renamedName}}`;
    });
    const out: Json = {};
    if (item.parameters !== undefined) out.parameters = renamed(item.parameters, renames);
    for (const method of METHODS) {
      const op = item[method];
      if (!isRecord(op)) continue;
      const keys = [
        ...new Set(
          (securityOf(op.security ?? document.security, schemes) ?? [])
            .flat()
            .flatMap((s) => (s.kind === 'apiKey' && s.in === 'query' ? [s.parameter] : [])),
        ),
      ];
      const operation: Json = {};
      for (const [key, value] of Object.entries(op)) {
        if (!OPERATION_KEYS.has(key)) continue;
        operation[key] =
          key === 'responses' && isRecord(value)
            ? Object.fromEntries(Object.entries(value).map(([s, r]) => [s, bare(r)]))
            : value;
      }
      const parameters = withQueryKeys(renamed(op.parameters, renames), keys);
      if (parameters !== undefined) operation.parameters = parameters;
      out[method] = operation;
    }
    paths[routable] = out;
  }
  const components: Json = isRecord(document.components)
    ? Object.fromEntries(
        Object.entries(document.components).filter(([kind]) =>
          ['schemas', 'parameters', 'requestBodies', 'responses', 'securitySchemes'].includes(kind),
        ),
      )
    : {};
  shareParts(paths, components);
  return { ...document, paths, components };
}
