/** What a curl command needs of a journaled request. */
export interface RepeatableRequest {
  readonly method: string;
  /** As sent, without the query. */
  readonly path: string;
  /** As sent, without its `?`. */
  readonly query: string;
}

/** Methods whose requests carry a JSON body in this API. */
const WITH_BODY = new Set(['POST', 'PUT', 'PATCH']);

/** A word for a POSIX shell, in single quotes (a quote inside becomes '\''). */
export function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * A curl command that repeats a request: its method, URL and session. The bearer token is left
 * to $TOKEN (double quotes, so the shell fills it in), and the body, which the journal does not
 * keep, to $BODY.
 */
export function curlCommand(request: RepeatableRequest, origin: string, session: string): string {
  const url = `${origin}${request.path}${request.query === '' ? '' : `?${request.query}`}`;
  // --globoff: curl would expand [1-2] or {a,b} in a journaled path into several requests.
  const words = ['curl', '-sS', '--globoff'];
  if (request.method === 'HEAD') words.push('--head');
  else if (request.method !== 'GET') {
    words.push('-X', /^[A-Z]+$/.test(request.method) ? request.method : shellQuote(request.method));
  }
  words.push('-H', '"Authorization: Bearer $TOKEN"');
  if (session !== '') words.push('-H', shellQuote(`X-Mock-Session: ${session}`));
  if (WITH_BODY.has(request.method)) {
    words.push('-H', shellQuote('Content-Type: application/json'), '-d', '"$BODY"');
  }
  words.push(shellQuote(url));
  return words.join(' ');
}

/** Whether the command needs $BODY set (the journal keeps no bodies). */
export function needsBody(method: string): boolean {
  return WITH_BODY.has(method);
}
