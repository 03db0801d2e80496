/**
 * What the fuzzer reads from openapi.yaml at test time: the base path, the operations with their
 * parameters, request body schema and documented responses. Read from the parsed document with
 * plain JSON-pointer walking, independently of the mock's own contract code.
 */

/** A JSON object of the document. */
export type Node = Readonly<Record<string, unknown>>;

export function isNode(value: unknown): value is Node {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function escapePointer(part: string): string {
  return part.replace(/~/g, '~0').replace(/\//g, '~1');
}

/** The JSON pointer (`#/a/b`) of a list of keys. */
export function pointerOf(parts: readonly string[]): string {
  return `#/${parts.map(escapePointer).join('/')}`;
}

/** The value a JSON pointer (`#/a/b`) designates in the document. */
export function valueAt(document: Node, pointer: string): unknown {
  if (!pointer.startsWith('#/')) throw new Error(`not a local JSON pointer: ${pointer}`);
  let current: unknown = document;
  for (const raw of pointer.slice(2).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isNode(current)) throw new Error(`${pointer}: no object at ${key}`);
    current = current[key];
  }
  return current;
}

/** A node with its `$ref`s followed, and the pointer of where it really is. */
export interface Located {
  readonly node: Node;
  readonly pointer: string;
}

/** Follows `$ref` until a node that is not a reference. */
export function locate(document: Node, node: unknown, pointer: string): Located {
  let current = node;
  let at = pointer;
  for (let hops = 0; hops < 32; hops += 1) {
    if (!isNode(current)) throw new Error(`${at} is not an object`);
    const ref = current.$ref;
    if (typeof ref !== 'string') return { node: current, pointer: at };
    at = ref;
    current = valueAt(document, ref);
  }
  throw new Error(`${pointer}: $ref chain too long`);
}

/** A schema with `$ref` followed. */
export function schemaOf(document: Node, node: unknown): Node {
  return locate(document, node, '#').node;
}

export interface ParameterModel {
  readonly name: string;
  readonly in: string;
  readonly required: boolean;
  readonly schema: Node;
}

export interface RequestBodyModel {
  readonly required: boolean;
  readonly mediaTypes: readonly string[];
  /** The application/json schema, `$ref` followed. */
  readonly schema: Node;
}

export interface OperationModel {
  readonly operationId: string;
  /** Upper case, e.g. GET. */
  readonly method: string;
  /** The path template with the base path, e.g. /v1/pets/{petId}. */
  readonly template: string;
  readonly parameters: readonly ParameterModel[];
  readonly requestBody: RequestBodyModel | undefined;
  /** Documented statuses, each with the JSON pointer of its application/json schema, if any. */
  readonly responses: ReadonlyMap<number, string | undefined>;
  /** The documented success status (the lowest 2xx). */
  readonly successStatus: number;
}

export interface ContractModel {
  readonly document: Node;
  /** The path every server URL ends with, e.g. /v1. */
  readonly basePath: string;
  readonly operations: readonly OperationModel[];
  /** Path templates (with base path) and the methods each documents. */
  readonly methodsByTemplate: ReadonlyMap<string, readonly string[]>;
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

function basePathOf(document: Node): string {
  const servers = Array.isArray(document.servers) ? document.servers : [];
  const paths = new Set(
    servers.map((server: unknown) => {
      const url = isNode(server) && typeof server.url === 'string' ? server.url : '/';
      const variables = isNode(server) && isNode(server.variables) ? server.variables : {};
      // Server variables stand in for their defaults (a base address ending in /v1, say).
      const resolved = url.replace(/\{([^}]*)\}/g, (_whole, name: string) => {
        const variable = variables[name];
        return isNode(variable) && typeof variable.default === 'string' ? variable.default : '';
      });
      const pathname = new URL(resolved, 'http://x').pathname;
      return pathname.replace(/\/$/, '');
    }),
  );
  if (paths.size !== 1) throw new Error(`servers disagree on the base path: ${[...paths].join()}`);
  return [...paths][0] ?? '';
}

function readParameters(document: Node, list: unknown, pointer: string): ParameterModel[] {
  if (!Array.isArray(list)) return [];
  return list.map((item: unknown, index) => {
    const { node } = locate(document, item, `${pointer}/${index}`);
    if (typeof node.name !== 'string' || typeof node.in !== 'string') {
      throw new Error(`${pointer}/${index}: a parameter needs a name and in`);
    }
    return {
      name: node.name,
      in: node.in,
      required: node.required === true,
      schema: schemaOf(document, node.schema),
    };
  });
}

function readRequestBody(
  document: Node,
  value: unknown,
  pointer: string,
): RequestBodyModel | undefined {
  if (value === undefined) return undefined;
  const { node } = locate(document, value, pointer);
  const content = isNode(node.content) ? node.content : {};
  const json = content['application/json'];
  if (!isNode(json)) throw new Error(`${pointer}: only application/json bodies are modelled`);
  return {
    required: node.required === true,
    mediaTypes: Object.keys(content),
    schema: schemaOf(document, json.schema),
  };
}

function readResponses(
  document: Node,
  value: unknown,
  pointer: string,
): Map<number, string | undefined> {
  const responses = new Map<number, string | undefined>();
  if (!isNode(value)) return responses;
  for (const [status, response] of Object.entries(value)) {
    const located = locate(document, response, `${pointer}/${escapePointer(status)}`);
    const content = isNode(located.node.content) ? located.node.content : {};
    const json = content['application/json'];
    responses.set(
      Number(status),
      isNode(json) && json.schema !== undefined
        ? `${located.pointer}/content/application~1json/schema`
        : undefined,
    );
  }
  return responses;
}

/** Reads the model of a parsed OpenAPI 3.0 document. */
export function readContractModel(parsed: unknown): ContractModel {
  if (!isNode(parsed) || !isNode(parsed.paths)) throw new Error('not an OpenAPI document');
  const document = parsed;
  const basePath = basePathOf(document);
  const operations: OperationModel[] = [];
  const methodsByTemplate = new Map<string, string[]>();
  for (const [path, item] of Object.entries(parsed.paths)) {
    if (!isNode(item)) continue;
    const itemPointer = pointerOf(['paths', path]);
    const shared = readParameters(document, item.parameters, `${itemPointer}/parameters`);
    for (const method of METHODS) {
      const operation = item[method];
      if (!isNode(operation)) continue;
      const pointer = `${itemPointer}/${method}`;
      if (typeof operation.operationId !== 'string') throw new Error(`${pointer}: no operationId`);
      const responses = readResponses(document, operation.responses, `${pointer}/responses`);
      const successes = [...responses.keys()]
        .filter((s) => s >= 200 && s < 300)
        .sort((a, b) => a - b);
      const template = `${basePath}${path}`;
      operations.push({
        operationId: operation.operationId,
        method: method.toUpperCase(),
        template,
        parameters: [
          ...shared,
          ...readParameters(document, operation.parameters, `${pointer}/parameters`),
        ],
        requestBody: readRequestBody(document, operation.requestBody, `${pointer}/requestBody`),
        responses,
        successStatus: successes[0] ?? 200,
      });
      methodsByTemplate.set(template, [
        ...(methodsByTemplate.get(template) ?? []),
        method.toUpperCase(),
      ]);
    }
  }
  return { document, basePath, operations, methodsByTemplate };
}

/** The template a concrete (still percent-encoded) path matches, with its raw parameter texts. */
export function matchTemplate(
  model: ContractModel,
  path: string,
  ignoreCase = false,
): { template: string; params: Record<string, string> } | undefined {
  for (const template of model.methodsByTemplate.keys()) {
    const names: string[] = [];
    const source = template
      .split(/(\{[^}]+\})/)
      .map((part) => {
        const name = /^\{([^}]+)\}$/.exec(part)?.[1];
        if (name === undefined) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
        names.push(name);
        return '([^/]+)';
      })
      .join('');
    const match = new RegExp(`^${source}$`, ignoreCase ? 'i' : '').exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    names.forEach((name, index) => {
      params[name] = match[index + 1] ?? '';
    });
    return { template, params };
  }
  return undefined;
}
