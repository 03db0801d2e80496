/** How the mock writes (or reads) a body of a media type. */
export type MediaKind = 'json' | 'xml' | 'text' | 'form' | 'multipart' | 'binary';

/** The media type without its parameters, in lower case: `application/json; charset=utf-8` → `application/json`. */
export function essenceOf(mediaType: string): string {
  return (mediaType.split(';', 1)[0] ?? '').trim().toLowerCase();
}

/** The kind of a media type, by its essence (`application/*+json` is JSON, `text/xml` XML…). */
export function kindOf(mediaType: string): MediaKind {
  const essence = essenceOf(mediaType);
  if (/^[^/]+\/(?:[^/]+\+)?json$/.test(essence) || essence === '*/*') return 'json';
  if (/^[^/]+\/(?:[^/]+\+)?xml$/.test(essence)) return 'xml';
  if (essence === 'application/x-www-form-urlencoded') return 'form';
  if (essence.startsWith('multipart/')) return 'multipart';
  if (essence.startsWith('text/')) return 'text';
  return 'binary';
}

/**
 * A documented media type as the type to send: a range (`*\/*`, `image/*`, `text/*`) becomes a
 * concrete type of it, which a client's Accept can be matched against.
 */
export function concreteType(mediaType: string): string {
  const essence = essenceOf(mediaType);
  if (essence === '*/*' || essence === 'application/*') return 'application/json';
  if (essence === 'text/*') return 'text/plain';
  if (essence === 'image/*') return 'image/png';
  if (essence.endsWith('/*')) return `${essence.slice(0, -1)}octet-stream`;
  return essence;
}

/** The Content-Type to send with a body of a media type: text gets its charset. */
export function contentTypeOf(mediaType: string): string {
  const kind = kindOf(mediaType);
  return kind === 'binary' || kind === 'multipart' ? mediaType : `${mediaType}; charset=utf-8`;
}
