import type { IncomingMessage } from 'node:http';

/** A request target split into its path and query (a `#fragment`, never sent by browsers, dropped). */
export function splitTarget(url: string | undefined): { path: string; search: string } {
  const whole = url ?? '/';
  const hash = whole.indexOf('#');
  const target = hash < 0 ? whole : whole.slice(0, hash);
  const query = target.indexOf('?');
  return query < 0
    ? { path: target, search: '' }
    : { path: target.slice(0, query), search: target.slice(query + 1) };
}

/** The path of a request target, without its query. */
export function pathOf(url: string | undefined): string {
  return splitTarget(url).path;
}

/** Whether a request comes with a body at all (Content-Length > 0 or chunked). */
export function hasBody(req: IncomingMessage): boolean {
  return (
    Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined
  );
}

/** The charset a Content-Type names, in lower case; undefined for none. */
export function charsetOf(req: IncomingMessage): string | undefined {
  const [, ...parameters] = (req.headers['content-type'] ?? '').split(';');
  for (const parameter of parameters) {
    const [name = '', value = ''] = parameter.split('=', 2);
    if (name.trim().toLowerCase() === 'charset') {
      return value
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .toLowerCase();
    }
  }
  return undefined;
}

/** The session an X-Mock-Session header names, if any (checked by the session registry). */
export function sessionIdOf(req: IncomingMessage): string | undefined {
  const header = req.headers['x-mock-session'];
  return typeof header === 'string' ? header : undefined;
}

/** The cookies of a Cookie header, by name (the first of a repeated name; values URL-decoded). */
export function cookiesOf(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const pair of (header ?? '').split(';')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) continue;
    const name = pair.slice(0, eq).trim();
    if (name === '' || Object.hasOwn(cookies, name)) continue;
    let value = pair
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1');
    try {
      value = decodeURIComponent(value);
    } catch {
      // A value that is not percent-encoding is kept as sent.
    }
    cookies[name] = value;
  }
  return cookies;
}
