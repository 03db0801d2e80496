import { isRecord } from '../util/is-record.js';
import type { OpenApiDocument } from './openapi-document.js';
import { derefSchema } from './schema-refs.js';

/** A schema's `xml` object, as OpenAPI defines it. */
interface XmlObject {
  readonly name?: string;
  readonly namespace?: string;
  readonly prefix?: string;
  readonly attribute?: boolean;
  readonly wrapped?: boolean;
}

const SCHEMA_REF = /^#\/components\/schemas\/([^/]+)$/;

function escapeXml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** A name as an XML element or attribute may be written (other characters become `_`). */
function xmlName(name: string): string {
  const safe = name.replace(/[^A-Za-z0-9_.:-]/g, '_');
  return /^[A-Za-z_]/.test(safe) ? safe : `_${safe}`;
}

/** A scalar's text (JSON data: a string, number, boolean or bigint); empty for null. */
function scalarText(value: unknown): string {
  return typeof value === 'string' ||
    typeof value === 'number' ||
    typeof value === 'boolean' ||
    typeof value === 'bigint'
    ? String(value)
    : '';
}

function xmlOf(schema: unknown): XmlObject {
  if (!isRecord(schema) || !isRecord(schema.xml)) return {};
  const { name, namespace, prefix, attribute, wrapped } = schema.xml;
  return {
    ...(typeof name === 'string' && { name }),
    ...(typeof namespace === 'string' && { namespace }),
    ...(typeof prefix === 'string' && { prefix }),
    ...(attribute === true && { attribute }),
    ...(wrapped === true && { wrapped }),
  };
}

/**
 * Writes JSON data as the XML its schema describes (OpenAPI's `xml` objects: element names,
 * attributes, wrapped arrays, namespaces and prefixes). The root element is named by the schema's
 * `xml.name`, else by the component it refers to, else `root`.
 */
export function toXml(document: OpenApiDocument, schema: unknown, value: unknown): string {
  /** The schema a `$ref` chain ends at, and the component name it went through last. */
  const target = (node: unknown): { schema: unknown; component: string | undefined } => {
    const ref = isRecord(node) && typeof node.$ref === 'string' ? node.$ref : '';
    let resolved: unknown;
    try {
      resolved = derefSchema(document, node, '/response');
    } catch {
      resolved = undefined;
    }
    return { schema: resolved, component: SCHEMA_REF.exec(ref)?.[1] };
  };

  /** The schemas of an object's property, through allOf, anyOf and oneOf. */
  const propertyOf = (node: unknown, name: string, seen = new Set<unknown>()): unknown => {
    const { schema: resolved } = target(node);
    if (!isRecord(resolved) || seen.has(resolved)) return undefined;
    seen.add(resolved);
    if (isRecord(resolved.properties) && name in resolved.properties) {
      return resolved.properties[name];
    }
    for (const kind of ['allOf', 'anyOf', 'oneOf']) {
      const members: unknown = resolved[kind];
      if (!Array.isArray(members)) continue;
      for (const member of members) {
        const found = propertyOf(member, name, seen);
        if (found !== undefined) return found;
      }
    }
    return undefined;
  };

  const itemsOf = (node: unknown): unknown => {
    const { schema: resolved } = target(node);
    return isRecord(resolved) ? resolved.items : undefined;
  };

  const qualified = (xml: XmlObject, name: string): string =>
    xmlName(xml.prefix === undefined ? name : `${xml.prefix}:${name}`);

  const namespaceAttribute = (xml: XmlObject): string => {
    if (xml.namespace === undefined) return '';
    const name = xml.prefix === undefined ? 'xmlns' : `xmlns:${xml.prefix}`;
    return ` ${xmlName(name)}="${escapeXml(xml.namespace)}"`;
  };

  const element = (node: unknown, name: string, data: unknown): string => {
    const { schema: resolved } = target(node);
    const xml = { ...xmlOf(resolved), ...xmlOf(node) };
    const tag = qualified(xml, xml.name ?? name);
    if (Array.isArray(data)) {
      const items = itemsOf(node);
      const itemXml = { ...xmlOf(target(items).schema), ...xmlOf(items) };
      const itemName = itemXml.name ?? target(items).component ?? name;
      const inner = data.map((item) => element(items, itemName, item)).join('');
      return xml.wrapped === true ? `<${tag}${namespaceAttribute(xml)}>${inner}</${tag}>` : inner;
    }
    if (isRecord(data)) {
      let attributes = namespaceAttribute(xml);
      let children = '';
      for (const [key, child] of Object.entries(data)) {
        if (child === undefined) continue;
        const property = propertyOf(node, key);
        const propertyXml = { ...xmlOf(target(property).schema), ...xmlOf(property) };
        if (propertyXml.attribute === true && !isRecord(child) && !Array.isArray(child)) {
          attributes += ` ${qualified(propertyXml, propertyXml.name ?? key)}="${escapeXml(scalarText(child))}"`;
        } else {
          children += element(property, key, child);
        }
      }
      return `<${tag}${attributes}>${children}</${tag}>`;
    }
    const text = escapeXml(scalarText(data));
    return `<${tag}${namespaceAttribute(xml)}>${text}</${tag}>`;
  };

  const root = target(schema);
  const rootXml = { ...xmlOf(root.schema), ...xmlOf(schema) };
  const rootName = rootXml.name ?? root.component ?? 'root';
  // A top-level array without a wrapper has no single root: it is wrapped in one.
  const body =
    Array.isArray(value) && rootXml.wrapped !== true
      ? `<${xmlName(rootName)}>${element(schema, rootName, value)}</${xmlName(rootName)}>`
      : element(schema, rootName, value);
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}
