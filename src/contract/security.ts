import { isRecord } from '../util/is-record.js';

/**
 * One security scheme of a contract, as the mock checks a request against it:
 * - `bearer`: `Authorization: Bearer <token>` (http bearer, and oauth2 and openIdConnect, whose
 *   tokens travel that way);
 * - `basic`: `Authorization: Basic <base64 of user:password>`;
 * - `http`: another HTTP scheme (`Digest`, `HOBA`…): `Authorization: <Scheme> <credentials>`;
 * - `apiKey`: a key in a header, a query parameter or a cookie, by its name.
 * Mutual TLS is not checked (the mock cannot see a client's certificate).
 */
export type SecurityScheme =
  | { readonly kind: 'bearer'; readonly name: string }
  | { readonly kind: 'basic'; readonly name: string }
  | { readonly kind: 'http'; readonly name: string; readonly scheme: string }
  | {
      readonly kind: 'apiKey';
      readonly name: string;
      readonly in: 'header' | 'query' | 'cookie';
      readonly parameter: string;
    };

/** Schemes that must all be satisfied together (one entry of a `security` list). */
export type SecurityRequirement = readonly SecurityScheme[];

/**
 * Who may call an operation: any one of its requirements (OR), each a set of schemes (AND). An
 * empty list is a public operation (`security: []`, or none declared anywhere).
 */
export type Security = readonly SecurityRequirement[];

function schemeOf(name: string, value: unknown): SecurityScheme | undefined {
  if (!isRecord(value)) return undefined;
  switch (value.type) {
    case 'http': {
      const scheme = typeof value.scheme === 'string' ? value.scheme.toLowerCase() : '';
      if (scheme === 'bearer') return { kind: 'bearer', name };
      if (scheme === 'basic') return { kind: 'basic', name };
      return scheme === '' ? undefined : { kind: 'http', name, scheme };
    }
    case 'oauth2':
    case 'openIdConnect':
      return { kind: 'bearer', name };
    case 'apiKey': {
      const where = value.in;
      if (typeof value.name !== 'string' || value.name === '' || typeof where !== 'string') {
        return undefined;
      }
      if (where !== 'header' && where !== 'query' && where !== 'cookie') return undefined;
      return { kind: 'apiKey', name, in: where, parameter: value.name };
    }
    default:
      // mutualTLS, or a type the mock does not know: nothing it can check.
      return undefined;
  }
}

/** The security schemes a document declares, by name. */
export function securitySchemesOf(components: unknown): ReadonlyMap<string, SecurityScheme> {
  const schemes = new Map<string, SecurityScheme>();
  const declared = isRecord(components) ? components.securitySchemes : undefined;
  if (!isRecord(declared)) return schemes;
  for (const [name, value] of Object.entries(declared)) {
    const scheme = schemeOf(name, value);
    if (scheme) schemes.set(name, scheme);
  }
  return schemes;
}

/**
 * A `security` list of the contract (an operation's, else the document's) as requirements. A
 * scheme the mock cannot check (mutual TLS, an undeclared name) asks nothing of a request; a
 * requirement left with no scheme lets any request through.
 */
export function securityOf(
  list: unknown,
  schemes: ReadonlyMap<string, SecurityScheme>,
): Security | undefined {
  if (!Array.isArray(list)) return undefined;
  const requirements: SecurityRequirement[] = [];
  for (const entry of list) {
    if (!isRecord(entry)) continue;
    const requirement = Object.keys(entry).flatMap((name) => schemes.get(name) ?? []);
    // One alternative needs nothing: the operation is open to every request.
    if (requirement.length === 0) return [];
    requirements.push(requirement);
  }
  return requirements;
}

/** Two security lists that ask the same of a request. */
export function sameSecurity(a: Security, b: Security): boolean {
  const key = (security: Security): string =>
    JSON.stringify(security.map((requirement) => requirement.map((scheme) => scheme.name).sort()));
  return key(a) === key(b);
}
