/**
 * An answer judged against the contract: status documented (exact, NXX or default), Content-Type
 * documented for that status, a JSON body valid against its schema, documented headers present
 * when required and valid when sent, and no body where the contract documents none.
 */
import { isObject, pointer, resolve } from './contract.js';
import { essence, kindOf, matches } from './media-types.js';

/** The key of `op.responses` that documents `status`, or undefined. */
export function documentedStatus(op, status) {
  const code = String(status);
  const keys = Object.keys(op.responses ?? {});
  return (
    keys.find((key) => key === code) ??
    keys.find((key) => key.toUpperCase() === `${code[0]}XX`) ??
    keys.find((key) => key === 'default')
  );
}

/** The problems of `answer` ({status, headers, body: Buffer}) to `op`; [] when it keeps the contract. */
export async function checkAnswer(doc, op, answer, oracle) {
  const key = documentedStatus(op, answer.status);
  if (key === undefined) {
    return [
      `status ${answer.status} is not documented (documented: ${Object.keys(op.responses ?? {}).join(', ') || 'none'})`,
    ];
  }
  const { value: response, where } = op.responses[key];
  const problems = [];
  if (op.method !== 'head') {
    problems.push(...(await checkBody(response, where, answer, oracle, key)));
  }
  problems.push(...(await checkHeaders(doc, response, where, answer, oracle)));
  return problems;
}

async function checkBody(response, where, answer, oracle, key) {
  const content = isObject(response?.content) ? response.content : {};
  const documented = Object.keys(content);
  const type = answer.headers['content-type'];
  const size = answer.body.length;
  if (documented.length === 0) {
    return size === 0
      ? []
      : [`a body (${size} bytes, ${type ?? 'no Content-Type'}) where ${key} documents none`];
  }
  // HTTP itself forbids content in these, whatever the contract documents.
  if ([204, 205, 304].includes(answer.status)) return [];
  if (size === 0 && type === undefined) {
    return [`no body, where ${key} documents ${documented.join(', ')}`];
  }
  if (type === undefined) return [`no Content-Type (${key} documents ${documented.join(', ')})`];
  const exact = documented.find((d) => essence(d) === essence(type));
  const mediaKey = exact ?? documented.find((d) => matches(d, type));
  if (mediaKey === undefined) {
    return [
      `Content-Type ${type} is not documented for ${key} (documented: ${documented.join(', ')})`,
    ];
  }
  const schemaWhere = `${where}/content${pointer(mediaKey)}/schema`;
  const schema = content[mediaKey]?.schema;
  const text = answer.body.toString('utf8');
  switch (kindOf(type)) {
    case 'json': {
      let parsed;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        return [`body is not JSON (${error.message})`];
      }
      return schema === undefined ? [] : oracle.check('response', schemaWhere, parsed);
    }
    case 'xml':
      return text
        .replace(/^\uFEFF/, '')
        .trimStart()
        .startsWith('<')
        ? []
        : ['body is not XML'];
    case 'text':
      return isStringSchema(schema) ? oracle.check('response', schemaWhere, text) : [];
    default:
      return [];
  }
}

function isStringSchema(schema) {
  return isObject(schema) && schema.type === 'string' && schema.format !== 'binary';
}

async function checkHeaders(doc, response, where, answer, oracle) {
  const problems = [];
  for (const [name, raw] of Object.entries(isObject(response?.headers) ? response.headers : {})) {
    if (name.toLowerCase() === 'content-type') continue;
    let header;
    try {
      header = resolve(doc, raw, `${where}/headers${pointer(name)}`);
    } catch (error) {
      problems.push(`header ${name}: ${error.message}`);
      continue;
    }
    const sent = answer.headers[name.toLowerCase()];
    if (sent === undefined) {
      if (header.value?.required === true) problems.push(`required header ${name} missing`);
      continue;
    }
    if (!isObject(header.value?.schema)) continue;
    let schema;
    try {
      schema = resolve(doc, header.value.schema, `${header.where}/schema`).value;
    } catch (error) {
      problems.push(`header ${name}: ${error.message}`);
      continue;
    }
    const found = await oracle.check(
      'response',
      `${header.where}/schema`,
      headerAsValue(sent, schema),
    );
    problems.push(...found.map((p) => `header ${name}: ${p}`));
  }
  return problems;
}

const NUMBER = /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/;

/** A header's text as the value its schema describes (simple style). */
function headerAsValue(text, schema) {
  const type = Array.isArray(schema?.type) ? schema.type.find((t) => t !== 'null') : schema?.type;
  if (type === 'integer' || type === 'number') {
    return NUMBER.test(text.trim()) ? Number(text) : text;
  }
  if (type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  if (type === 'array') return text.split(',').map((s) => s.trim());
  return text;
}
