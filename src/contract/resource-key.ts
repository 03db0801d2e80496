import type { ResourceKey } from './resource-model.js';
import type { SchemaViews } from './schema-view.js';
import { plainName } from './list-shape.js';

/** A collection's name in the singular, roughly: `orders` → `order`, `categories` → `category`. */
export function singularOf(name: string): string {
  if (/ies$/i.test(name)) return `${name.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh)es$/i.test(name)) return name.slice(0, -2);
  if (/[^s]s$/i.test(name)) return name.slice(0, -1);
  return name;
}

/** How the server makes new keys of a property, or undefined where it can hold no key. */
export function keyKindOf(views: SchemaViews, schema: unknown): ResourceKey['kind'] | undefined {
  const { types, format } = views.view(schema);
  if (types.has('integer') || types.has('number')) return 'integer';
  if (types.size === 0 || types.has('string')) return format === 'uuid' ? 'uuid' : 'string';
  return undefined;
}

/**
 * The item's property an item path's parameter names: the property of its name (exactly, else
 * without case, `_` nor `-`); else the property the parameter names after the collection's name
 * in the singular (`gid` for `/attachments/{attachment_gid}`, `id` for `/pets/{petId}`), or by
 * its last word (`ip` for `/floating_ips/{floating_ip}`, `key` for `{projectIdOrKey}`); else
 * `id`, where the parameter's name says it is one (`uuid`, `idOrKey`) or both are integers; else
 * `<collection in the singular>Id` or `_id` (`/orders/{key}` and `orderId`). Without an item path (a list and a create): `id`, else those
 * forms. Only a property that can hold a key (a string or a number) is taken.
 */
export function matchKey(
  views: SchemaViews,
  item: unknown,
  collection: string,
  parameter: { readonly name: string; readonly schema: unknown } | undefined,
): string | undefined {
  const properties = views.view(item).properties;
  const keyLike = (name: string): boolean => {
    const [schema] = properties.get(name) ?? [];
    return schema !== undefined && keyKindOf(views, schema) !== undefined;
  };
  const plainly = (wanted: readonly string[]): string | undefined =>
    [...properties.keys()].find((name) => wanted.includes(plainName(name)) && keyLike(name));
  const singular = plainName(singularOf(collection));
  const forms = [`${singular}id`, `${plainName(collection)}id`];
  if (parameter === undefined) return keyLike('id') ? 'id' : plainly(forms);
  const { name } = parameter;
  if (keyLike(name)) return name;
  const plain = plainName(name);
  const own = plainly([plain]);
  if (own !== undefined) return own;
  const after = plain.startsWith(singular) ? plain.slice(singular.length) : '';
  const lastWord = plainName(name.split(/[_-]|(?<=[a-z0-9])(?=[A-Z])/).at(-1) ?? '');
  const named = plainly([after, lastWord].filter((word) => word !== '' && word !== plain));
  if (named !== undefined) return named;
  const [id] = properties.get('id') ?? [];
  const integers =
    views.view(parameter.schema).types.has('integer') && views.view(id).types.has('integer');
  if (keyLike('id') && (/id/i.test(name) || integers)) return 'id';
  return plainly(forms);
}
