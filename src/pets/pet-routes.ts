import { Router, type Request } from 'express';
import { isRecord } from '../contract/openapi-document.js';
import { HttpError, quoteInput } from '../http/http-error.js';
import type { PetStore } from '../store/pet-store.js';
import { isPetStatus, type NewPet, type PetStatus } from './pet.js';

export interface PetRoutesOptions {
  /** Status given to created pets that come without one (the contract names no default). */
  defaultStatus?: PetStatus | undefined;
}

const DEFAULT_LIMIT = 20;
const INT64_MIN = -(2n ** 63n);
const INT64_MAX = 2n ** 63n - 1n;

// The validator coerces petId (a blank becomes 0) and does not check int64's range.
function isInt64Literal(text: string): boolean {
  if (!/^[+-]?\d+$/.test(text)) return false;
  const value = BigInt(text);
  return value >= INT64_MIN && value <= INT64_MAX;
}

// The validator has already checked every input against the contract; these only narrow types.
function readLimit(value: unknown): number {
  const limit = Number(value ?? DEFAULT_LIMIT);
  return Number.isInteger(limit) ? limit : DEFAULT_LIMIT;
}

function readNewPet(body: unknown, defaultStatus: PetStatus | undefined): NewPet {
  if (!isRecord(body) || typeof body.name !== 'string' || typeof body.categoryId !== 'number') {
    throw new HttpError(400, 'bad_request', 'The body must be a NewPet.');
  }
  const status = isPetStatus(body.status) ? body.status : defaultStatus;
  return { name: body.name, categoryId: body.categoryId, ...(status && { status }) };
}

/** The three operations of the contract: thin handlers over the store of the request's session. */
export function createPetRoutes(
  storeOf: (req: Request) => PetStore,
  options: PetRoutesOptions = {},
): Router {
  const router = Router();

  router.get('/pets', (req, res) => {
    const status = isPetStatus(req.query.status) ? req.query.status : undefined;
    res.json(storeOf(req).list({ limit: readLimit(req.query.limit), status }));
  });

  router.post('/pets', async (req, res) => {
    const pet = await storeOf(req).create(readNewPet(req.body, options.defaultStatus));
    res.status(201).json(pet);
  });

  router.get('/pets/:petId', (req, res) => {
    const text = req.params.petId;
    if (!isInt64Literal(text)) {
      throw new HttpError(
        400,
        'bad_request',
        `Path parameter 'petId' must be an int64 integer: the value is outside the contract.`,
      );
    }
    const pet = storeOf(req).get(Number(text));
    if (!pet) throw new HttpError(404, 'not_found', `No pet has the id ${quoteInput(text)}.`);
    res.json(pet);
  });

  return router;
}
