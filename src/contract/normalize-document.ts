import { isRecord } from '../util/is-record.js';
import { BUNDLED_FILES } from './bundle-files.js';
import { followRefs, locate, localRefSteps, pointerOf } from './json-pointer.js';
import { unicodePattern } from './unicode-pattern.js';
import { SCHEMA_LISTS, SCHEMA_MAPS, SCHEMA_VALUES } from './schema-keywords.js';
import { HTTP_METHODS } from './document-parts.js';

/** Keywords that name a schema or set its base URI (draft 4's `id` is dropped for validators). */
const SCHEMA_IDS = new Set(['$id', '$anchor', '$dynamicAnchor', '$schema']);
/** A schema name any JSON Schema tool takes as written inside a `$ref`. */
const SAFE_NAME = /^[A-Za-z0-9._-]+$/;

type Json = Record<string, unknown>;

export interface NormalizeOptions {
  /**
   * `drop`: schemas lose `example`, `examples` and `x-` extensions, and parameters, headers and
   * media types their examples, for a JSON Schema validator: Ajv reads an `$id` (or draft 4's
   * `id`) anywhere in a schema, examples included, as the schema's name.
   */
  readonly annotations?: 'keep' | 'drop';
  /**
   * The contract's own schema names, by the name each has in the document normalized (a
   * discriminator may name a schema by its own name); taken from the document's components where
   * not given (its first normalizing).
   */
  readonly schemaNames?: ReadonlyMap<string, string>;
}

/** A document normalized, and its own schemas' names (see NormalizeOptions.schemaNames). */
export interface Normalized {
  readonly document: Json;
  readonly schemaNames: ReadonlyMap<string, string>;
}

function mapRecord(value: Json, each: (child: unknown) => unknown): Json {
  return Object.fromEntries(Object.entries(value).map(([key, child]) => [key, each(child)]));
}

function mapValues(value: unknown, each: (child: unknown) => unknown): unknown {
  return isRecord(value) ? mapRecord(value, each) : value;
}

function listOf(value: unknown, each: (child: unknown) => unknown): unknown {
  return Array.isArray(value) ? value.map(each) : value;
}

/**
 * A document in the one shape the mock and express-openapi-validator read, meaning the same:
 * - every `$ref` to something other than a schema (a path item, parameter, request body,
 *   response, header, example, link, callback, security scheme) is replaced by what it names,
 *   shared, not copied;
 * - every `$ref` to a schema names a component, `#/components/schemas/<Name>`: a schema named
 *   elsewhere (inside a path, a property of a component, a file beside the contract, through
 *   other references) becomes a component of its own; names that tools would read differently
 *   inside a reference (spaces, `~`, `/`) are written safely;
 * - what a 3.0 schema writes beside a `$ref` is dropped (3.0 ignores it), and so is `nullable`
 *   without a `type` (it has no effect); patterns are written as validators compile them
 *   (unicode-pattern.ts);
 * - the files brought in by bundleFiles are gone, and `paths` is there (3.1 may leave it out).
 * The given value is not changed.
 */
export function normalizeDocument(
  root: unknown,
  { annotations = 'keep', schemaNames }: NormalizeOptions = {},
): Normalized {
  if (!isRecord(root)) return { document: {}, schemaNames: new Map() };
  const drop = annotations === 'drop';
  const siblingsIgnored = typeof root.openapi === 'string' && root.openapi.startsWith('3.0');
  const components = isRecord(root.components) ? root.components : {};
  const written = isRecord(components.schemas) ? components.schemas : {};
  /** The component name of each schema that refs name, by where it really is. */
  const names = new Map<string, string>();
  const taken = new Set<string>();
  const schemas: Json = {};
  const pending: { name: string; value: unknown }[] = [];

  const freeName = (wanted: string): string => {
    const base = wanted.replace(/[^A-Za-z0-9._-]/g, '_') || 'schema';
    let name = base;
    for (let n = 2; taken.has(name); n += 1) name = `${base}_${n}`;
    taken.add(name);
    return name;
  };
  // The names the contract gives its schemas (a discriminator may name them), by their names here.
  const ownNames = new Map<string, string>();
  // The contract's own components keep their names where those are safe.
  for (const name of Object.keys(written)) if (SAFE_NAME.test(name)) taken.add(name);
  for (const name of Object.keys(written)) {
    const safe = SAFE_NAME.test(name) ? name : freeName(name);
    // Given the names of a first normalizing, the components it made are none of the contract's.
    const own = schemaNames === undefined ? name : schemaNames.get(name);
    if (own !== undefined) ownNames.set(safe, own);
    names.set(pointerOf(['components', 'schemas', name]), safe);
    pending.push({ name: safe, value: written[name] });
  }

  /** The component a schema reference names, made one if the schema sits elsewhere. */
  const componentRef = (ref: string): string => {
    const steps = localRefSteps(ref);
    const found = steps && locate(root, steps);
    const target = found && followRefs(root, found.value);
    if (!found || !target) return ref;
    const at = target.steps.length > 0 ? target.steps : found.steps;
    const key = pointerOf(at);
    let name = names.get(key);
    if (name === undefined) {
      const tail = at.filter((step) => step !== BUNDLED_FILES).slice(-3);
      name = freeName(tail.join('.'));
      names.set(key, name);
      pending.push({ name, value: target.value });
    }
    return `#/components/schemas/${name}`;
  };

  /** `make` applied once to each object (each kind of object has its own `memo`): shared stays shared. */
  const memoized = (make: (node: Json) => unknown): ((node: Json) => unknown) => {
    const done = new WeakMap<Json, unknown>();
    return (node) => {
      if (done.has(node)) return done.get(node);
      const made = make(node);
      done.set(node, made);
      return made;
    };
  };

  const schemaOf = memoized((value) => {
    const out: Json = {};
    // 3.0: what is written beside a `$ref` is ignored.
    const entries: [string, unknown][] =
      siblingsIgnored && typeof value.$ref === 'string'
        ? [['$ref', value.$ref]]
        : Object.entries(value);
    for (const [key, child] of entries) {
      if (drop && (key === 'example' || key === 'examples' || key.startsWith('x-'))) continue;
      // `nullable` adds null to the `type` beside it; without one it has no effect (3.0.3), and
      // 3.1 has no such keyword (null is a type).
      if (key === 'nullable' && (!siblingsIgnored || !('type' in value))) continue;
      // Every reference is a pointer into the document now: a schema's own base URI or anchor
      // would make a validator read the same schema twice, or its references elsewhere.
      if (
        SCHEMA_IDS.has(key) ||
        (drop && siblingsIgnored && key === 'id' && typeof child === 'string')
      ) {
        continue;
      }
      // A default of a property only the server writes is no request's: a validator filling it
      // into a request would then refuse it as read-only.
      if (drop && key === 'default' && value.readOnly === true) continue;
      if (key === '$ref' && typeof child === 'string') out[key] = componentRef(child);
      else if (key === 'pattern' && typeof child === 'string') {
        const pattern = unicodePattern(child);
        if (pattern !== undefined) out[key] = pattern;
      } else if (key === 'patternProperties' && isRecord(child)) {
        out[key] = Object.fromEntries(
          Object.entries(child).flatMap(([pattern, property]) => {
            const fixed = unicodePattern(pattern);
            return fixed === undefined ? [] : [[fixed, schema(property)]];
          }),
        );
      } else if (key === 'properties') {
        out[key] = mapValues(child, (property) => schema(withAccessOfParts(property)));
      } else if (SCHEMA_MAPS.has(key)) out[key] = mapValues(child, schema);
      else if (SCHEMA_LISTS.has(key)) out[key] = listOf(child, schema);
      else if (SCHEMA_VALUES.has(key))
        out[key] = Array.isArray(child) ? child.map(schema) : schema(child);
      else if (key === 'discriminator') out[key] = discriminator(child);
      else out[key] = child;
    }
    return drop ? withoutDiscriminator(out) : out;
  });
  const schema = (node: unknown): unknown => (isRecord(node) ? schemaOf(node) : node);

  /**
   * A property whose schema is made of parts (`allOf: [{$ref: Position}]`) that are readOnly or
   * writeOnly is itself so, and says it: validators read the flag on the property to drop it
   * from `required` where OpenAPI does (a writeOnly property is required in requests only).
   */
  const withAccessOfParts = (property: unknown): unknown => {
    if (!isRecord(property) || !Array.isArray(property.allOf)) return property;
    const parts: unknown[] = property.allOf;
    const flags: Json = {};
    for (const flag of ['readOnly', 'writeOnly']) {
      if (property[flag] !== undefined) continue;
      const flagged = parts.some((part) => {
        const target = followRefs(root, part)?.value;
        return isRecord(target) && target[flag] === true;
      });
      if (flagged) flags[flag] = true;
    }
    return Object.keys(flags).length === 0 ? property : { ...property, ...flags };
  };

  /** A discriminator's mapping values that are references name components too. */
  const discriminator = (node: unknown): unknown => {
    if (!isRecord(node) || !isRecord(node.mapping)) return node;
    const mapping = mapValues(node.mapping, (value) =>
      typeof value === 'string' && value.startsWith('#') ? componentRef(value) : value,
    );
    return { ...node, mapping };
  };

  /**
   * A discriminated `oneOf` (or `anyOf`) written in plain JSON Schema, for validators: each
   * branch also requires the discriminator property to hold one of the values that name it
   * (its mapping keys, or its component's name), so that branches alike otherwise are told apart
   * as the discriminator tells them (express-openapi-validator's own handling of discriminators
   * checks one schema's mapping against every use of its branches). The keyword is dropped.
   */
  const withoutDiscriminator = (node: Json): Json => {
    const { discriminator: found, ...rest } = node;
    if (!isRecord(found) || typeof found.propertyName !== 'string') {
      return found === undefined ? node : rest;
    }
    const property = found.propertyName;
    const kind = Array.isArray(node.oneOf) ? 'oneOf' : Array.isArray(node.anyOf) ? 'anyOf' : '';
    const branches: unknown = kind === '' ? undefined : node[kind];
    if (!Array.isArray(branches)) return rest;
    const mapping = isRecord(found.mapping) ? found.mapping : {};
    /** The values naming a branch: its mapping keys, else its component's own name; none known. */
    const namesOf = (ref: string): string[] | undefined => {
      const keys = Object.entries(mapping)
        .filter(([, target]) => target === ref || `#/components/schemas/${String(target)}` === ref)
        .map(([key]) => key);
      if (keys.length > 0) return keys;
      const name = ref.slice(ref.lastIndexOf('/') + 1);
      // Only a schema the contract names itself has a name to be told by (not one made here).
      const own = ref.startsWith('#/components/schemas/') ? ownNames.get(name) : undefined;
      return own === undefined ? undefined : [own];
    };
    return {
      ...rest,
      [kind]: branches.map((branch: unknown) => {
        const names =
          isRecord(branch) && typeof branch.$ref === 'string' ? namesOf(branch.$ref) : undefined;
        return names === undefined
          ? branch
          : {
              allOf: [
                { properties: { [property]: { enum: names } }, required: [property] },
                branch,
              ],
            };
      }),
    };
  };

  /** An object that may be a `$ref` to another object of its kind: what it names, made by `make`. */
  const inlined = (make: (node: Json) => Json): ((node: unknown) => unknown) => {
    const once = memoized(make);
    return (node) => {
      const target = followRefs(root, node)?.value;
      return isRecord(target) ? once(target) : node;
    };
  };

  const example = inlined((node) => node);
  const withSchema = (node: Json): Json => {
    const out: Json = { ...node };
    if ('schema' in node) out.schema = schema(node.schema);
    if ('content' in node) out.content = mapValues(node.content, mediaType);
    if ('examples' in node) out.examples = mapValues(node.examples, example);
    if (drop) {
      delete out.example;
      delete out.examples;
    }
    return out;
  };
  const header = inlined(withSchema);
  const parameter = inlined(withSchema);
  const mediaType = (node: unknown): unknown => {
    if (!isRecord(node)) return node;
    const out = withSchema(node);
    if (isRecord(node.encoding)) {
      out.encoding = mapRecord(node.encoding, (encoding) =>
        isRecord(encoding) && 'headers' in encoding
          ? { ...encoding, headers: mapValues(encoding.headers, header) }
          : encoding,
      );
    }
    return out;
  };
  const requestBody = inlined((node) => ({
    ...node,
    // OpenAPI's default; the validator takes a body without `required` for a required one.
    ...(drop && { required: node.required === true }),
    content: mapValues(node.content, mediaType),
  }));
  const link = inlined((node) => node);
  const response = inlined((node) => {
    const out: Json = { ...node };
    if ('headers' in node) out.headers = mapValues(node.headers, header);
    if ('content' in node) out.content = mapValues(node.content, mediaType);
    if ('links' in node) out.links = mapValues(node.links, link);
    return out;
  });
  const securityScheme = inlined((node) => node);
  const callback: (node: unknown) => unknown = inlined((node) => mapRecord(node, pathItem));
  const operation = (node: unknown): unknown => {
    if (!isRecord(node)) return node;
    const out: Json = { ...node };
    if ('parameters' in node) out.parameters = listOf(node.parameters, parameter);
    if ('requestBody' in node) out.requestBody = requestBody(node.requestBody);
    if ('responses' in node) out.responses = mapValues(node.responses, response);
    if ('callbacks' in node) out.callbacks = mapValues(node.callbacks, callback);
    return out;
  };
  const pathItem: (node: unknown) => unknown = inlined((node) => {
    const out: Json = {};
    for (const [key, child] of Object.entries(node)) {
      if (key === '$ref') continue;
      if (key === 'parameters') out[key] = listOf(child, parameter);
      else if (HTTP_METHODS.includes(key)) out[key] = operation(child);
      else out[key] = child;
    }
    return out;
  });

  const document: Json = {};
  for (const [key, value] of Object.entries(root)) {
    if (key === BUNDLED_FILES || key === 'components') continue;
    if (key === 'paths' || key === 'webhooks') document[key] = mapValues(value, pathItem);
    else document[key] = value;
  }
  document.paths ??= {};
  const normalizedComponents: Json = {};
  const kinds: Readonly<Record<string, (node: unknown) => unknown>> = {
    responses: response,
    parameters: parameter,
    examples: example,
    requestBodies: requestBody,
    headers: header,
    securitySchemes: securityScheme,
    links: link,
    callbacks: callback,
    pathItems: pathItem,
  };
  for (const [kind, group] of Object.entries(components)) {
    if (kind === 'schemas') continue;
    const make = kinds[kind];
    normalizedComponents[kind] = make ? mapValues(group, make) : group;
  }
  // Last, the schemas: those the contract names, and those its references made components.
  for (let next = pending.shift(); next; next = pending.shift()) {
    schemas[next.name] = schema(next.value);
  }
  if (Object.keys(schemas).length > 0 || 'schemas' in components) {
    normalizedComponents.schemas = schemas;
  }
  if ('components' in root || Object.keys(normalizedComponents).length > 0) {
    document.components = normalizedComponents;
  }
  return { document, schemaNames: ownNames };
}
