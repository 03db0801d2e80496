/** Media types sorted into the kinds the harness builds and checks differently. */

/** The type without parameters, lower case: 'application/json'. */
export function essence(mediaType) {
  return String(mediaType).split(';')[0].trim().toLowerCase();
}

/** 'json', 'form', 'multipart', 'xml', 'text', 'any' (a wildcard) or 'binary'. */
export function kindOf(mediaType) {
  const type = essence(mediaType);
  if (type === '*/*') return 'any';
  if (/[/+]json$|^application\/json|json-seq$/.test(type)) return 'json';
  if (type === 'application/x-www-form-urlencoded') return 'form';
  if (type.startsWith('multipart/')) return 'multipart';
  if (/[/+]xml$/.test(type)) return 'xml';
  if (type.startsWith('text/')) return 'text';
  return 'binary';
}

const PREFERENCE = ['json', 'form', 'multipart', 'text', 'binary', 'any', 'xml'];

/** The documented media types (keys of a content map), the easiest to build and check first. */
export function byPreference(types) {
  return [...types].sort((a, b) => PREFERENCE.indexOf(kindOf(a)) - PREFERENCE.indexOf(kindOf(b)));
}

/** Whether an answer's type is one a documented key (wildcards included) allows. */
export function matches(documented, actual) {
  const [docType = '', docSub = ''] = essence(documented).split('/');
  const [type = '', sub = ''] = essence(actual).split('/');
  return (docType === '*' || docType === type) && (docSub === '*' || docSub === sub);
}
