import { Router, type Request } from 'express';
import { isRecord } from '../contract/openapi-document.js';
import { HttpError, quoteInput } from '../http/http-error.js';
import { ROUTER_OPTIONS } from '../http/router-options.js';
import type { SendJson } from '../json/exact-json.js';
import { isInt64, parseInt64 } from '../json/int64.js';
import type { PetStore } from '../store/pet-store.js';
import { isPetStatus, type NewPet, type PetStatus } from './pet.js';

export interface PetRoutesOptions {
  /** The store of the request's session. */
  storeOf: (req: Request) => PetStore;
  /** The request's exact JSON body (int64 digits kept); req.body is the validator's view. */
  bodyOf: (req: Request) => unknown;
  sendJson: SendJson;
  /** Status given to created pets that come without one (the contract names no default). */
  defaultStatus?: PetStatus | undefined;
}

const DEFAULT_LIMIT = 20;

// The validator has already checked every input against the contract; these only narrow types,
// and check what it cannot: int64 exactness and range.
function readLimit(value: unknown): number {
  const limit = Number(value ?? DEFAULT_LIMIT);
  return Number.isInteger(limit) ? limit : DEFAULT_LIMIT;
}

function readNewPet(body: unknown, defaultStatus: PetStatus | undefined): NewPet {
  if (!isRecord(body) || typeof body.name !== 'string') {
    throw new HttpError(400, 'bad_request', 'The body must be a NewPet.');
  }
  if (!isInt64(body.categoryId)) {
    throw new HttpError(
      400,
      'bad_request',
      "Body field 'categoryId' must be an int64 integer (-2^63 to 2^63-1).",
    );
  }
  const status = isPetStatus(body.status) ? body.status : defaultStatus;
  return { name: body.name, categoryId: body.categoryId, ...(status && { status }) };
}

/** The three operations of the contract: thin handlers over the store of the request's session. */
export function createPetRoutes(options: PetRoutesOptions): Router {
  const { storeOf, bodyOf, sendJson } = options;
  const router = Router(ROUTER_OPTIONS);

  router.get('/pets', (req, res) => {
    const status = isPetStatus(req.query.status) ? req.query.status : undefined;
    sendJson(res, 200, storeOf(req).list({ limit: readLimit(req.query.limit), status }));
  });

  router.post('/pets', async (req, res) => {
    const pet = await storeOf(req).create(readNewPet(bodyOf(req), options.defaultStatus));
    sendJson(res, 201, pet);
  });

  router.get('/pets/:petId', (req, res) => {
    const text = req.params.petId;
    const petId = parseInt64(text);
    if (petId === undefined) {
      throw new HttpError(
        400,
        'bad_request',
        `Path parameter 'petId' must be an int64 integer: the value is outside the contract.`,
      );
    }
    const pet = storeOf(req).get(petId);
    if (!pet) throw new HttpError(404, 'not_found', `No pet has the id ${quoteInput(text)}.`);
    sendJson(res, 200, pet);
  });

  return router;
}
