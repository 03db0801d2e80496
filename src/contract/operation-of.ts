import type { Request } from 'express';
import type { Operation, OperationIndex } from './operation-index.js';

/** The contract operation a request is for (undefined for none), found once per request. */
export type OperationOf = (req: Request) => Operation | undefined;

/** Memoizes the operation lookup per request, so every layer that asks shares one search. */
export function createOperationOf(operations: OperationIndex): OperationOf {
  const found = new WeakMap<Request, Operation | null>();
  return (req) => {
    const known = found.get(req);
    if (known !== undefined) return known ?? undefined;
    const op = operations.find(req.method, req.originalUrl.split('?', 1)[0] ?? '');
    found.set(req, op ?? null);
    return op;
  };
}
