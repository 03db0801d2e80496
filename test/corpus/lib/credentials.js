/** Credentials exactly as an operation's security requirement asks for them. */
import { Buffer } from 'node:buffer';
import { isObject, resolve } from './contract.js';

export const BEARER_TOKEN = 'corpus-token';
export const BASIC_USER = 'corpus-user';
export const BASIC_PASSWORD = 'corpus-password';
export const API_KEY = 'corpus-key';

const BASIC_VALUE = `Basic ${Buffer.from(`${BASIC_USER}:${BASIC_PASSWORD}`).toString('base64')}`;

/**
 * The first alternative of `requirements` (OR) whose schemes (AND) can all be sent at once:
 * {headers, query, cookies, label}, or {reason} when none can. `[]` and `{}` ask for nothing.
 */
export function credentialsFor(doc, requirements) {
  if (!Array.isArray(requirements) || requirements.length === 0) {
    return { headers: {}, query: [], cookies: [], label: 'none' };
  }
  const refusals = [];
  for (const alternative of requirements) {
    const built = satisfy(doc, isObject(alternative) ? alternative : {});
    if (built.reason === undefined) return built;
    refusals.push(built.reason);
  }
  return { reason: `no security alternative can be sent: ${refusals.join('; ')}` };
}

function satisfy(doc, alternative) {
  const headers = {};
  const query = [];
  const cookies = [];
  const labels = [];
  for (const name of Object.keys(alternative)) {
    let scheme;
    try {
      scheme = resolve(doc, doc.components?.securitySchemes?.[name], name).value;
    } catch (error) {
      return { reason: `${name}: ${error.message}` };
    }
    if (!isObject(scheme)) return { reason: `${name}: no such security scheme` };
    const part = credentialOf(scheme);
    if (part.reason !== undefined) return { reason: `${name}: ${part.reason}` };
    if (part.header !== undefined) {
      const [header, value] = part.header;
      const key = header.toLowerCase();
      if (headers[key] !== undefined && headers[key] !== value) {
        return {
          reason: `${name}: needs ${header} already taken by another scheme of the same alternative`,
        };
      }
      headers[key] = value;
    }
    if (part.query !== undefined) query.push(part.query);
    if (part.cookie !== undefined) cookies.push(part.cookie);
    labels.push(`${name} (${part.kind})`);
  }
  return { headers, query, cookies, label: labels.join(' + ') || 'none' };
}

function credentialOf(scheme) {
  switch (scheme.type) {
    case 'http': {
      const kind = String(scheme.scheme ?? '').toLowerCase();
      if (kind === 'bearer') {
        return { kind: 'bearer', header: ['authorization', `Bearer ${BEARER_TOKEN}`] };
      }
      if (kind === 'basic') return { kind: 'basic', header: ['authorization', BASIC_VALUE] };
      return { reason: `http scheme "${scheme.scheme}" is not one the harness can send` };
    }
    case 'apiKey':
      if (typeof scheme.name !== 'string') return { reason: 'apiKey without a name' };
      if (scheme.in === 'header') return { kind: 'apiKey header', header: [scheme.name, API_KEY] };
      if (scheme.in === 'query') return { kind: 'apiKey query', query: [scheme.name, API_KEY] };
      if (scheme.in === 'cookie') return { kind: 'apiKey cookie', cookie: [scheme.name, API_KEY] };
      return { reason: `apiKey in "${scheme.in}"` };
    case 'oauth2':
    case 'openIdConnect':
      return { kind: scheme.type, header: ['authorization', `Bearer ${BEARER_TOKEN}`] };
    default:
      return { reason: `security type "${scheme.type}" cannot be sent over plain HTTP` };
  }
}
