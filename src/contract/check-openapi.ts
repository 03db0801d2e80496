import { isRecord } from '../util/is-record.js';
import { forEachRef } from './bundle-files.js';
import { locate, localRefSteps } from './json-pointer.js';
import type { PathStep } from '../util/located-file.js';
import { HTTP_METHODS } from './document-parts.js';

/** One way a document is not an OpenAPI document the mock can serve, and where. */
export interface DocumentProblem {
  readonly path: readonly PathStep[];
  readonly message: string;
}

const STATUS = /^([1-5](\d\d|XX)|default)$/;
const LOCATIONS = new Set(['query', 'header', 'path', 'cookie']);

/**
 * Every scheme a `security` list names is declared in components.securitySchemes: a name that is
 * not (a typo, a case) would otherwise ask nothing of a request.
 */
function checkSecurity(
  security: unknown,
  path: PathStep[],
  declared: ReadonlySet<string>,
  problems: DocumentProblem[],
): void {
  if (security === undefined) return;
  if (!Array.isArray(security)) {
    problems.push({ path, message: 'security must be a list of requirements' });
    return;
  }
  const requirements: unknown[] = security;
  for (const [i, requirement] of requirements.entries()) {
    if (!isRecord(requirement)) {
      problems.push({ path: [...path, i], message: 'a security requirement must be a mapping' });
      continue;
    }
    for (const name of Object.keys(requirement)) {
      if (!declared.has(name)) {
        problems.push({
          path: [...path, i, name],
          message: `the security scheme "${name}" is not declared in components.securitySchemes`,
        });
      }
    }
  }
}

function checkOperation(
  operation: unknown,
  path: PathStep[],
  seenIds: Map<string, string>,
  problems: DocumentProblem[],
  version: string,
  schemes: ReadonlySet<string>,
): void {
  if (!isRecord(operation)) {
    problems.push({ path, message: 'an operation must be an object' });
    return;
  }
  const { operationId, responses, parameters } = operation;
  checkSecurity(operation.security, [...path, 'security'], schemes, problems);
  if (operationId !== undefined) {
    if (typeof operationId !== 'string' || operationId === '') {
      problems.push({ path: [...path, 'operationId'], message: 'operationId must be a text' });
    } else if (seenIds.has(operationId)) {
      problems.push({
        path: [...path, 'operationId'],
        message: `operationId ${operationId} is also the id of ${seenIds.get(operationId) ?? ''}`,
      });
    } else {
      seenIds.set(operationId, path.join(' '));
    }
  }
  if (responses === undefined && version.startsWith('3.1')) {
    // 3.1 lets an operation leave its responses out.
  } else if (!isRecord(responses) || Object.keys(responses).length === 0) {
    problems.push({ path: [...path, 'responses'], message: 'an operation needs its responses' });
  } else {
    for (const [status, response] of Object.entries(responses)) {
      if (!STATUS.test(status)) {
        problems.push({
          path: [...path, 'responses', status],
          message: `"${status}" is not a status code`,
        });
      }
      if (!isRecord(response)) {
        problems.push({ path: [...path, 'responses', status], message: 'a response is an object' });
      } else if (response.$ref === undefined && typeof response.description !== 'string') {
        problems.push({
          path: [...path, 'responses', status],
          message: 'a response needs a description',
        });
      }
    }
  }
  checkParameters(parameters, [...path, 'parameters'], problems);
}

function checkParameters(parameters: unknown, path: PathStep[], problems: DocumentProblem[]): void {
  if (parameters === undefined) return;
  if (!Array.isArray(parameters)) {
    problems.push({ path, message: 'parameters must be a list' });
    return;
  }
  const items: unknown[] = parameters;
  for (const [i, parameter] of items.entries()) {
    if (isRecord(parameter) && typeof parameter.$ref === 'string') continue;
    if (
      !isRecord(parameter) ||
      typeof parameter.name !== 'string' ||
      typeof parameter.in !== 'string' ||
      !LOCATIONS.has(parameter.in)
    ) {
      problems.push({
        path: [...path, i],
        message: 'a parameter needs a name and an `in` of query, header, path or cookie',
      });
    }
  }
}

/**
 * The problems that keep a parsed document from being an OpenAPI 3.0 or 3.1 document the mock can
 * serve, each with where it is: the outline (version, info, paths, operations and their
 * responses, parameters, servers), unique operationIds, and every `$ref` pointing inside the
 * document at something that exists. Schemas themselves are checked when they are compiled.
 */
export function checkOpenApi(document: unknown): DocumentProblem[] {
  if (!isRecord(document)) return [{ path: [], message: 'not an OpenAPI document: not a mapping' }];
  const problems: DocumentProblem[] = [];
  const { openapi, info, paths, servers, webhooks, components } = document;
  const declared = isRecord(components) ? components.securitySchemes : undefined;
  const schemes = new Set(isRecord(declared) ? Object.keys(declared) : []);
  if (typeof openapi !== 'string' || !/^3\.[01]\.\d+/.test(openapi)) {
    problems.push({
      path: ['openapi'],
      message: `not an OpenAPI 3.0 or 3.1 document: openapi is ${openapi === undefined ? 'missing' : JSON.stringify(openapi)}`,
    });
    return problems;
  }
  checkSecurity(document.security, ['security'], schemes, problems);
  if (!isRecord(info) || typeof info.title !== 'string' || typeof info.version !== 'string') {
    problems.push({ path: ['info'], message: 'info needs a title and a version' });
  }
  if (
    servers !== undefined &&
    (!Array.isArray(servers) ||
      !servers.every((server) => isRecord(server) && typeof server.url === 'string'))
  ) {
    problems.push({ path: ['servers'], message: 'servers must be a list of {url}' });
  }
  const is31 = openapi.startsWith('3.1');
  if (paths === undefined && is31 && (webhooks !== undefined || components !== undefined)) {
    // 3.1: a document of webhooks or components alone has no paths.
  } else if (!isRecord(paths)) {
    problems.push({ path: ['paths'], message: 'paths must be a mapping of paths to operations' });
  } else {
    const seenIds = new Map<string, string>();
    for (const [template, item] of Object.entries(paths)) {
      const at: PathStep[] = ['paths', template];
      if (!template.startsWith('/')) {
        problems.push({ path: at, message: `the path "${template}" does not start with /` });
      }
      if (!isRecord(item)) {
        problems.push({ path: at, message: 'a path item must be a mapping' });
        continue;
      }
      checkParameters(item.parameters, [...at, 'parameters'], problems);
      for (const method of HTTP_METHODS) {
        if (item[method] !== undefined)
          checkOperation(item[method], [...at, method], seenIds, problems, openapi, schemes);
      }
    }
  }
  forEachRef(document, (ref, steps) => {
    const target = localRefSteps(ref);
    if (target === undefined || locate(document, target) === undefined) {
      problems.push({ path: steps, message: `$ref ${ref} points at nothing in the document` });
    }
    return false;
  });
  return problems;
}
