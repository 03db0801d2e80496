/**
 * Values as they travel, by OpenAPI's rules: parameters by style and explode, and bodies as JSON,
 * urlencoded forms (with the encoding object) or multipart forms (with a small file per binary).
 */
import { Buffer } from 'node:buffer';
import { isObject } from './contract.js';

const BOUNDARY = 'corpus-boundary-7d1f3a';

/** A primitive as text: null and undefined as ''. */
function text(value) {
  if (value === null || value === undefined) return '';
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}

/** Entries of an array or an object as [key, value] pairs ([] for a primitive). */
function pairs(value) {
  return isObject(value) ? Object.entries(value) : [];
}

/** A path parameter's text, percent-encoded (styles simple, label, matrix). */
export function pathValue(param, value) {
  const style = param.style ?? 'simple';
  const explode = param.explode ?? false;
  const enc = (v) => encodeURIComponent(text(v));
  const name = encodeURIComponent(param.name);
  if (param.content !== undefined) return encodeURIComponent(contentText(param, value));
  if (style === 'label') {
    if (Array.isArray(value)) return `.${value.map(enc).join(explode ? '.' : ',')}`;
    if (isObject(value)) {
      const items = pairs(value).map(([k, v]) =>
        explode ? `${enc(k)}=${enc(v)}` : `${enc(k)},${enc(v)}`,
      );
      return `.${items.join(explode ? '.' : ',')}`;
    }
    return `.${enc(value)}`;
  }
  if (style === 'matrix') {
    if (Array.isArray(value)) {
      return explode
        ? value.map((v) => `;${name}=${enc(v)}`).join('')
        : `;${name}=${value.map(enc).join(',')}`;
    }
    if (isObject(value)) {
      return explode
        ? pairs(value)
            .map(([k, v]) => `;${enc(k)}=${enc(v)}`)
            .join('')
        : `;${name}=${pairs(value)
            .flatMap(([k, v]) => [enc(k), enc(v)])
            .join(',')}`;
    }
    return `;${name}=${enc(value)}`;
  }
  return simple(value, explode, enc);
}

function simple(value, explode, enc) {
  if (Array.isArray(value)) return value.map(enc).join(',');
  if (isObject(value)) {
    return pairs(value)
      .map(([k, v]) => (explode ? `${enc(k)}=${enc(v)}` : `${enc(k)},${enc(v)}`))
      .join(',');
  }
  return enc(value);
}

/** A query parameter as [name, text] pairs, not yet encoded (styles form, delimited, deepObject). */
export function queryPairs(param, value) {
  if (param.content !== undefined) return [[param.name, contentText(param, value)]];
  const style = param.style ?? 'form';
  const explode = param.explode ?? style === 'form';
  if (style === 'deepObject') {
    return pairs(value).map(([k, v]) => [`${param.name}[${k}]`, text(v)]);
  }
  if (Array.isArray(value)) {
    if (explode) return value.map((v) => [param.name, text(v)]);
    const separator = { spaceDelimited: ' ', pipeDelimited: '|' }[style] ?? ',';
    return [[param.name, value.map(text).join(separator)]];
  }
  if (isObject(value)) {
    if (explode) return pairs(value).map(([k, v]) => [k, text(v)]);
    return [
      [
        param.name,
        pairs(value)
          .flatMap(([k, v]) => [k, text(v)])
          .join(','),
      ],
    ];
  }
  return [[param.name, text(value)]];
}

/** A header parameter's text (style simple). */
export function headerValue(param, value) {
  if (param.content !== undefined) return contentText(param, value);
  return simple(value, param.explode ?? false, text);
}

/** A cookie parameter as [name, text] pairs (style form). */
export function cookiePairs(param, value) {
  if (param.content !== undefined) return [[param.name, contentText(param, value)]];
  const explode = param.explode ?? true;
  if (Array.isArray(value)) {
    return explode
      ? value.map((v) => [param.name, text(v)])
      : [[param.name, value.map(text).join(',')]];
  }
  if (isObject(value)) {
    return [
      [
        param.name,
        pairs(value)
          .flatMap(([k, v]) => [k, text(v)])
          .join(','),
      ],
    ];
  }
  return [[param.name, text(value)]];
}

/** A parameter given by `content` (one media type): JSON for JSON, text otherwise. */
function contentText(param, value) {
  const [mediaType = ''] = Object.keys(param.content);
  return /json/i.test(mediaType) ? JSON.stringify(value) : text(value);
}

/**
 * An application/x-www-form-urlencoded body. Each property follows its encoding entry (style form,
 * explode true by default; deepObject); an object without one travels as JSON, OpenAPI's default
 * content type for objects.
 */
export function formBody(value, encoding = {}) {
  const out = [];
  for (const [name, v] of pairs(value)) {
    const enc = encoding[name] ?? {};
    const style = enc.style ?? 'form';
    const explode = enc.explode ?? style === 'form';
    if (Array.isArray(v) && enc.contentType === undefined) {
      if (explode) v.forEach((item) => out.push([name, text(item)]));
      else
        out.push([
          name,
          v.map(text).join({ spaceDelimited: ' ', pipeDelimited: '|' }[style] ?? ','),
        ]);
    } else if (isObject(v) && style === 'deepObject') {
      pairs(v).forEach(([k, item]) => out.push([`${name}[${k}]`, text(item)]));
    } else {
      out.push([name, text(v)]);
    }
  }
  return out.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
}

/**
 * A multipart/form-data body: {bytes, contentType}. `isFile(name)` tells the properties sent as a
 * small file (format binary and the like), each with its encoding's content type.
 */
export function multipartBody(value, encoding, isFile) {
  const chunks = [];
  const part = (name, body, { filename, contentType } = {}) => {
    let head = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"`;
    if (filename !== undefined) head += `; filename="${filename}"`;
    head += '\r\n';
    if (contentType !== undefined) head += `Content-Type: ${contentType}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`), Buffer.from(body), Buffer.from('\r\n'));
  };
  for (const [name, v] of pairs(value)) {
    const declared = concreteType(encoding?.[name]?.contentType);
    const items = Array.isArray(v) ? v : [v];
    if (isFile(name)) {
      items.forEach((item, i) =>
        part(name, text(item), {
          filename: `sample-${i}.bin`,
          contentType: declared ?? 'application/octet-stream',
        }),
      );
    } else if (isObject(v)) {
      part(name, JSON.stringify(v), { contentType: declared ?? 'application/json' });
    } else if (Array.isArray(v) && v.some((item) => typeof item === 'object')) {
      part(name, JSON.stringify(v), { contentType: declared ?? 'application/json' });
    } else {
      items.forEach((item) => part(name, text(item), { contentType: declared }));
    }
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return { bytes: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${BOUNDARY}` };
}

/** A sendable media type for a declared one: the first of a list, wildcards made concrete. */
export function concreteType(declared) {
  if (typeof declared !== 'string') return undefined;
  const [first = ''] = declared.split(',').map((t) => t.trim());
  if (first === '' || first === '*/*') return 'application/octet-stream';
  if (first.endsWith('/*')) {
    const kind = first.slice(0, -2);
    return (
      { image: 'image/png', text: 'text/plain', application: 'application/octet-stream' }[kind] ??
      `${kind}/octet-stream`
    );
  }
  return first;
}
