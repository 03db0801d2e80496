/**
 * A valid request for each operation, built from the contract alone: required parameters, a body
 * in a documented media type, credentials as the security requirement asks, an Accept the success
 * answer documents. Every value is checked by the oracle before it is used; an operation for which
 * no valid request can be built gets the reason instead.
 */
import { Buffer } from 'node:buffer';
import { isObject, pointer, resolve } from './contract.js';
import { credentialsFor } from './credentials.js';
import { byPreference, kindOf } from './media-types.js';
import { mendValue } from './mend.js';
import { UnreadableSchema, excerpt } from './oracle.js';
import { createSampler, explicitExamples } from './samples.js';
import {
  concreteType,
  cookiePairs,
  formBody,
  headerValue,
  multipartBody,
  pathValue,
  queryPairs,
} from './serialize.js';

/** How many times a candidate is mended and judged again (each round fixes every pattern seen). */
const MEND_ROUNDS = 3;

/** Headers OpenAPI says a header parameter may not describe. */
const RESERVED_HEADERS = new Set(['accept', 'content-type', 'authorization']);

/** Makes `build(operation)` for one contract: {request} or {reason}. */
export function createRequestBuilder(doc, oracle) {
  const sampler = createSampler(doc);

  /**
   * The first candidate the oracle accepts at `where` ({value}), trying each again after mending
   * what a generator gets wrong (lib/mend.js); or {reason}, the first candidate's problem.
   */
  async function firstValid(view, where, candidates, accept = () => true) {
    let firstProblem;
    for (const candidate of candidates) {
      if (!accept(candidate)) continue;
      let value = candidate;
      for (let round = 0; round < MEND_ROUNDS && value !== undefined; round += 1) {
        let errors;
        try {
          errors = await oracle.errors(view, where, value);
        } catch (error) {
          if (error instanceof UnreadableSchema) return { reason: error.message };
          throw error;
        }
        if (errors.length === 0 && accept(value)) return { value };
        firstProblem ??= `${excerpt(candidate)}: ${errors[0]?.message ?? 'not accepted'}`;
        value = mendValue(value, errors, (at) => oracle.schemaAt(view, at));
      }
    }
    return { reason: firstProblem ?? 'no candidate value' };
  }

  async function parameterValue(param) {
    const spec = param.value;
    let where = `${param.where}/schema`;
    let schema = spec.schema;
    const explicit = explicitExamples(doc, spec);
    if (spec.schema === undefined && isObject(spec.content)) {
      const [mediaType] = Object.keys(spec.content);
      where = `${param.where}/content${pointer(mediaType)}/schema`;
      schema = spec.content[mediaType]?.schema;
      explicit.push(...explicitExamples(doc, spec.content[mediaType]));
    }
    if (schema === undefined) return { value: 'sample' };
    const nonEmpty = (value) =>
      spec.in !== 'path' || (value !== '' && value !== null && pathValue(spec, value) !== '');
    return firstValid('request', where, sampler.candidates(schema, explicit), nonEmpty);
  }

  async function bodyOf(op) {
    const body = op.requestBody;
    const content = isObject(body.value.content) ? body.value.content : {};
    const refusals = [];
    for (const mediaType of byPreference(Object.keys(content))) {
      const media = content[mediaType] ?? {};
      const where = `${body.where}/content${pointer(mediaType)}`;
      const built = await bodyIn(mediaType, media, where);
      if (built.reason === undefined) return built;
      refusals.push(`${mediaType}: ${built.reason}`);
    }
    return { reason: refusals.join('; ') || 'the request body documents no media type' };
  }

  async function bodyIn(mediaType, media, where) {
    const kind = kindOf(mediaType);
    const schema = media.schema;
    const sendAs = kind === 'any' ? (isBinarySchema(doc, schema) ? 'binary' : 'json') : kind;
    if (schema === undefined) {
      const value = sendAs === 'json' ? {} : 'sample';
      return { value, ...encodeBody(sendAs, mediaType, value, media) };
    }
    if (sendAs === 'xml') {
      // The XML is the sampler's own rendering of its sample: the sample itself is what is judged.
      let value;
      let text;
      try {
        ({ value, text } = sampler.xml(schema));
      } catch (error) {
        return { reason: `no XML sample: ${error.message}` };
      }
      const problems = await oracle.check('request', `${where}/schema`, value);
      if (problems.length > 0) return { reason: `${excerpt(value)}: ${problems[0]}` };
      return { value, mediaType: concreteType(mediaType), bytes: Buffer.from(text) };
    }
    if (['form', 'multipart'].includes(sendAs) && !describesObject(doc, schema)) {
      return { reason: `a ${sendAs} body is a set of named fields: its schema is no object` };
    }
    const candidates = sampler.candidates(schema, explicitExamples(doc, media));
    const chosen = await firstValid('request', `${where}/schema`, candidates, (value) =>
      ['form', 'multipart'].includes(sendAs) ? isObject(value) : true,
    );
    if (chosen.reason !== undefined) return chosen;
    return { value: chosen.value, ...encodeBody(sendAs, mediaType, chosen.value, media) };
  }

  /** {mediaType, bytes}: the value as `sendAs` ('json', 'form', 'multipart', 'text', 'binary'). */
  function encodeBody(sendAs, mediaType, value, media) {
    const wildcard = kindOf(mediaType) === 'any';
    switch (sendAs) {
      case 'json':
        return {
          mediaType: wildcard ? 'application/json' : concreteType(mediaType),
          bytes: Buffer.from(JSON.stringify(value)),
        };
      case 'form':
        return {
          mediaType: concreteType(mediaType),
          bytes: Buffer.from(formBody(value, media.encoding)),
        };
      case 'multipart': {
        const properties = propertiesOf(doc, media.schema);
        const { bytes, contentType } = multipartBody(value, media.encoding, (name) =>
          isBinarySchema(doc, properties[name]),
        );
        return { mediaType: contentType, bytes };
      }
      default: {
        const raw = typeof value === 'string' ? value : JSON.stringify(value);
        return { mediaType: concreteType(mediaType), bytes: Buffer.from(raw) };
      }
    }
  }

  /**
   * The required parameters, each with a valid value, placed into `parts` ({path, query, headers,
   * cookies, values}); a reason when one has no valid value.
   */
  async function placeParameters(op, parts) {
    for (const param of op.parameters) {
      const spec = param.value;
      const name = String(spec.name);
      if (spec.in !== 'path' && spec.required !== true) continue;
      if (spec.in === 'header' && RESERVED_HEADERS.has(name.toLowerCase())) continue;
      const chosen = await parameterValue(param);
      if (chosen.reason !== undefined) {
        return `${spec.in} parameter ${name}: no valid value (${chosen.reason})`;
      }
      parts.values[`${spec.in} ${name}`] = chosen.value;
      switch (spec.in) {
        case 'path':
          parts.path = parts.path.replaceAll(`{${name}}`, pathValue(spec, chosen.value));
          break;
        case 'query':
          parts.query.push(...queryPairs(spec, chosen.value));
          break;
        case 'header':
          parts.headers[name.toLowerCase()] = headerValue(spec, chosen.value);
          break;
        case 'cookie':
          parts.cookies.push(...cookiePairs(spec, chosen.value));
          break;
        default:
          return `parameter ${name} is in "${spec.in}", which is no place in a request`;
      }
    }
    return undefined;
  }

  /** {request} or {reason}. */
  async function build(op) {
    if (op.broken !== undefined) return { reason: `the operation cannot be read: ${op.broken}` };
    const credentials = credentialsFor(doc, op.security);
    if (credentials.reason !== undefined) return { reason: credentials.reason };
    const parts = {
      // A fragment in a path key (/cookies#exploded: several operations on one path) is never sent.
      path: op.path.split('#')[0],
      query: [...credentials.query],
      headers: { ...credentials.headers },
      cookies: [...credentials.cookies],
      values: {},
    };
    const refused = await placeParameters(op, parts);
    if (refused !== undefined) return { reason: refused };
    const unfilled = /\{[^}]+\}/.exec(parts.path);
    if (unfilled !== null) return { reason: `path template ${unfilled[0]} has no parameter` };

    let body;
    let bodyOmitted;
    if (op.requestBody !== undefined) {
      const built = await bodyOf(op);
      if (built.reason === undefined) {
        body = built;
      } else if (op.requestBody.value.required === true) {
        return { reason: `request body: ${built.reason}` };
      } else {
        bodyOmitted = `the optional body left out, none valid: ${built.reason}`;
      }
    }
    const { headers } = parts;
    if (body !== undefined) headers['content-type'] = body.mediaType;
    const accept = acceptOf(op);
    if (accept !== undefined) headers.accept = accept;
    if (parts.cookies.length > 0) {
      headers.cookie = parts.cookies.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ');
    }
    const search = parts.query.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`);
    return {
      request: {
        method: op.method.toUpperCase(),
        target: search.length === 0 ? parts.path : `${parts.path}?${search.join('&')}`,
        headers,
        body: body?.bytes,
        summary: {
          credentials: credentials.label,
          parameters: parts.values,
          body: body?.value,
          mediaType: body?.mediaType,
          bodyOmitted,
        },
      },
    };
  }

  return { build };
}

/** The success answers of an operation, most specific first: 2xx codes, then 2XX, then default. */
export function successStatuses(op) {
  const statuses = Object.keys(op.responses ?? {});
  const exact = statuses.filter((s) => /^2\d\d$/.test(s)).sort();
  return [
    ...exact,
    ...statuses.filter((s) => /^2xx$/i.test(s)),
    ...statuses.filter((s) => s === 'default'),
  ];
}

/** A media type the first success answer documents (JSON first), or undefined when it has none. */
function acceptOf(op) {
  const [status] = successStatuses(op);
  if (status === undefined) return undefined;
  const content = op.responses[status].value?.content;
  if (!isObject(content)) return undefined;
  const [type] = byPreference(Object.keys(content));
  return type;
}

function propertiesOf(doc, schema) {
  try {
    const resolved = resolve(doc, schema, 'schema').value;
    const own = isObject(resolved?.properties) ? resolved.properties : {};
    const fromAllOf = Array.isArray(resolved?.allOf)
      ? Object.assign({}, ...resolved.allOf.map((part) => propertiesOf(doc, part)))
      : {};
    return { ...fromAllOf, ...own };
  } catch {
    return {};
  }
}

/** Whether a schema (or its first allOf part) describes an object, by type or by properties. */
function describesObject(doc, schema) {
  try {
    const resolved = resolve(doc, schema, 'schema').value;
    if (!isObject(resolved)) return false;
    if (resolved.type === 'object' || isObject(resolved.properties)) return true;
    return (
      Array.isArray(resolved.allOf) && resolved.allOf.some((part) => describesObject(doc, part))
    );
  } catch {
    return false;
  }
}

/** A schema for bytes: format binary, a contentMediaType without base64, or items of those. */
export function isBinarySchema(doc, schema) {
  let resolved;
  try {
    resolved = resolve(doc, schema, 'schema').value;
  } catch {
    return false;
  }
  if (!isObject(resolved)) return false;
  if (resolved.type === 'array') return isBinarySchema(doc, resolved.items);
  if (resolved.format === 'binary') return true;
  return typeof resolved.contentMediaType === 'string' && resolved.contentEncoding === undefined;
}
