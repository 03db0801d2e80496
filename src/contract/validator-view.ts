import { isRecord } from '../util/is-record.js';
import { followRefs } from './json-pointer.js';
import { kindOf } from './media-types.js';
import { routeOf, shapeOf } from './operation-index.js';
import { securityOf, securitySchemesOf } from './security.js';
import { HTTP_METHODS } from './document-parts.js';

type Json = Record<string, unknown>;

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

/** How the validator names a path's parameters: its route's template and names, and the path's own. */
export interface RouteNaming {
  /** The route as the validator gets it: `/users/{user_id}`. */
  readonly template: string;
  /** The route's parameter names, by position. */
  readonly routable: readonly string[];
  /** This path key's own names, by position. */
  readonly names: readonly string[];
}

/**
 * How each path key's parameters are named for the validator: the first path key of a route (paths
 * alike but for their parameters' names, or for a `#fragment`) gives the names, made readable
 * whole by the validator's router (`user-id` → `user_id`); the others' are renamed by position.
 */
export function routeNamings(pathKeys: readonly string[]): ReadonlyMap<string, RouteNaming> {
  const byShape = new Map<string, { template: string; routable: string[] }>();
  const namings = new Map<string, RouteNaming>();
  for (const path of pathKeys) {
    const names = [...routeOf(path).matchAll(/\{([^}]+)\}/g)].map((m) => m[1] ?? '');
    let route = byShape.get(shapeOf(path));
    if (!route) {
      const taken = new Set<string>();
      const routable = names.map((name) => {
        if (!ROUTABLE_NAME.test(name) || taken.has(name)) return routableName(name, taken);
        taken.add(name);
        return name;
      });
      let i = 0;
      const template = routeOf(path).replace(/\{[^}]+\}/g, () => `{${routable[i++] ?? ''}}`);
      route = { template, routable };
      byShape.set(shapeOf(path), route);
    }
    namings.set(path, { ...route, names });
  }
  return namings;
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
 * A parameter's schema without readOnly or writeOnly, which say what a property of a body is
 * and nothing of a parameter (a contract reusing an answer's `id` for a path parameter would have
 * it refused as read-only), its own and its parts' (through one `$ref` each).
 */
function parameterSchema(schema: unknown, document: Json): unknown {
  const plain = (node: unknown): unknown => {
    const target = followRefs(document, node)?.value;
    if (!isRecord(target) || (target.readOnly === undefined && target.writeOnly === undefined)) {
      return node;
    }
    const { readOnly: _read, writeOnly: _write, ...rest } = target;
    return rest;
  };
  const own = plain(schema);
  if (!isRecord(own)) return own;
  let changed = own !== schema;
  const out: Json = { ...own };
  for (const kind of ['anyOf', 'oneOf', 'allOf']) {
    const members: unknown = own[kind];
    if (!Array.isArray(members)) continue;
    const parts = members.map(plain);
    if (parts.some((part, i) => part !== members[i])) {
      out[kind] = parts;
      changed = true;
    }
  }
  return changed ? out : schema;
}

/** Whether a parameter's schema (through a `$ref`) is an object's. */
function isObjectSchema(schema: unknown, document: Json): boolean {
  const target = followRefs(document, schema)?.value;
  return isRecord(target) && (target.type === 'object' || isRecord(target.properties));
}

/** A path item's parameters with an operation's own: the operation's win (OpenAPI's rule). */
function withParametersOf(shared: unknown, own: unknown): unknown {
  if (!Array.isArray(shared)) return own;
  const ownList: unknown[] = Array.isArray(own) ? own : [];
  const keyOf = (p: unknown): string => (isRecord(p) ? `${String(p.in)}:${String(p.name)}` : '');
  const overridden = new Set(ownList.map(keyOf));
  const sharedList: unknown[] = shared;
  return [...sharedList.filter((p) => !overridden.has(keyOf(p))), ...ownList];
}

/** Schemas as one: the schema itself, or any of them. */
function anyOf(schemas: readonly unknown[]): unknown {
  const distinct = [...new Set(schemas)];
  return distinct.length === 1 ? distinct[0] : { anyOf: distinct };
}

/** Media type objects merged: each media type's schema any of theirs. */
function mergedContent(contents: readonly unknown[]): Json {
  const byType = new Map<string, unknown[]>();
  for (const content of contents) {
    if (!isRecord(content)) continue;
    for (const [type, media] of Object.entries(content)) {
      const schema = isRecord(media) ? media.schema : undefined;
      byType.set(type, [...(byType.get(type) ?? []), schema ?? {}]);
    }
  }
  return Object.fromEntries(
    [...byType].map(([type, schemas]) => [type, { schema: anyOf(schemas) }]),
  );
}

/**
 * Operations of one method on one route (variants a `#fragment` tells apart) as one, for a
 * validator that routes a request to one operation: a request valid for any of them is valid.
 * Parameters are all of theirs (required where every one requires them), bodies and answers any
 * of theirs.
 */
function mergedOperation(ops: readonly Json[]): Json {
  const parameters = new Map<string, Json>();
  const requiredBy = new Map<string, number>();
  for (const op of ops) {
    const list: unknown[] = Array.isArray(op.parameters) ? op.parameters : [];
    for (const parameter of list) {
      if (!isRecord(parameter)) continue;
      const key = `${String(parameter.in)}:${String(parameter.name)}`;
      if (!parameters.has(key)) parameters.set(key, parameter);
      if (parameter.required === true) requiredBy.set(key, (requiredBy.get(key) ?? 0) + 1);
    }
  }
  const merged: Json = {
    ...ops[0],
    parameters: [...parameters].map(([key, parameter]) =>
      parameter.in === 'path' || (requiredBy.get(key) ?? 0) === ops.length
        ? parameter
        : { ...parameter, required: false },
    ),
  };
  const bodies = ops.map((op) => op.requestBody).filter(isRecord);
  if (bodies.length > 0) {
    merged.requestBody = {
      required: bodies.length === ops.length && bodies.every((body) => body.required === true),
      content: mergedContent(bodies.map((body) => body.content)),
    };
  }
  const statuses = new Map<string, unknown[]>();
  for (const op of ops) {
    if (!isRecord(op.responses)) continue;
    for (const [status, response] of Object.entries(op.responses)) {
      statuses.set(status, [...(statuses.get(status) ?? []), response]);
    }
  }
  merged.responses = Object.fromEntries(
    [...statuses].map(([status, responses]) => {
      const [first] = responses;
      if (responses.length === 1 || !responses.some((r) => isRecord(r) && r.content)) {
        return [status, first];
      }
      const contents = responses.map((r) => (isRecord(r) ? r.content : undefined));
      return [status, { description: status, content: mergedContent(contents) }];
    }),
  );
  return merged;
}

/** OpenAPI's default `style` and `explode` of a parameter, by where it is sent. */
const STYLE_DEFAULTS: Readonly<Record<string, { style: string; explode: boolean }>> = {
  path: { style: 'simple', explode: false },
  header: { style: 'simple', explode: false },
  query: { style: 'form', explode: true },
  cookie: { style: 'form', explode: true },
};

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
    isRecord(item) ? HTTP_METHODS.flatMap((m) => (isRecord(item[m]) ? [item[m]] : [])) : [],
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
  // A request body in XML reaches the validator as the text it was sent in (the mock reads no XML
  // into data): its schema takes any text. One copy per body, so that shared bodies stay shared.
  const texts = new WeakMap<object, unknown>();
  const textBodies = (body: unknown): unknown => {
    if (!isRecord(body) || !isRecord(body.content)) return body;
    const content = body.content;
    if (!Object.keys(content).some((type) => kindOf(type) === 'xml')) return body;
    if (!texts.has(body)) {
      texts.set(body, {
        ...body,
        content: Object.fromEntries(
          Object.entries(content).map(([type, media]) => [
            type,
            kindOf(type) === 'xml' ? { schema: {} } : media,
          ]),
        ),
      });
    }
    return texts.get(body);
  };
  // Each parameter once with its style and explode written out (the validator supplies them for
  // path and query parameters only, and reads none for headers and cookies): one copy each, so
  // that parameters operations share stay shared.
  const styled = new WeakMap<object, unknown>();
  const withStyle = (list: unknown): unknown =>
    Array.isArray(list)
      ? list.map((parameter: unknown) => {
          if (!isRecord(parameter) || typeof parameter.in !== 'string') return parameter;
          const defaults = STYLE_DEFAULTS[parameter.in];
          const rewritten =
            parameter.style === 'label' ||
            parameter.style === 'matrix' ||
            (parameter.in === 'path' && isObjectSchema(parameter.schema, document)) ||
            parameterSchema(parameter.schema, document) !== parameter.schema;
          if (
            !defaults ||
            (parameter.style !== undefined && parameter.explode !== undefined && !rewritten)
          ) {
            return parameter;
          }
          if (!styled.has(parameter)) {
            // Label and matrix path values reach it rewritten in simple style, and objects as text
            // checked before (readStyledPath).
            const schema =
              parameter.in === 'path' && isObjectSchema(parameter.schema, document)
                ? { type: 'string' }
                : parameterSchema(parameter.schema, document);
            const written = typeof parameter.style === 'string' ? parameter.style : defaults.style;
            const style = written === 'label' || written === 'matrix' ? 'simple' : written;
            // A form style explodes by default, any other does not. Simple style writes a list the
            // same exploded or not (`3,4,5`), which the validator splits only when not exploded.
            const explode =
              style === 'simple' && !isObjectSchema(parameter.schema, document)
                ? false
                : typeof parameter.explode === 'boolean'
                  ? parameter.explode
                  : written === 'form';
            styled.set(parameter, { ...parameter, style, explode, schema });
          }
          return styled.get(parameter);
        })
      : list;
  // Paths alike but for their parameters' names (`/f/{id}`, `/f/{fieldId}`), and variants of a
  // path told apart by a `#fragment`, are one route for a request: its operations in one path item.
  const routes = new Map<string, { template: string; methods: Map<string, Json[]> }>();
  const namings = routeNamings(Object.keys(document.paths));
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isRecord(item)) continue;
    const naming = namings.get(path);
    if (!naming) continue;
    const group = routes.get(shapeOf(path)) ?? {
      template: naming.template,
      methods: new Map<string, Json[]>(),
    };
    routes.set(shapeOf(path), group);
    const renames = new Map(naming.names.map((name, i) => [name, naming.routable[i] ?? name]));
    for (const method of HTTP_METHODS) {
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
      if (operation.requestBody !== undefined) {
        operation.requestBody = textBodies(operation.requestBody);
      }
      const own = withParametersOf(item.parameters, op.parameters);
      const parameters = withQueryKeys(withStyle(renamed(own, renames)), keys);
      if (parameters !== undefined) operation.parameters = parameters;
      group.methods.set(method, [...(group.methods.get(method) ?? []), operation]);
    }
  }
  const paths: Json = {};
  for (const { template, methods } of routes.values()) {
    paths[template] = Object.fromEntries(
      [...methods].map(([method, ops]) => [
        method,
        ops.length === 1 ? ops[0] : mergedOperation(ops),
      ]),
    );
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
