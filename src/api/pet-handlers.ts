import { HttpError } from '../http/http-error.js';
import { isInt64, parseInt64, type Int64 } from '../util/int64.js';
import { isPetStatus, type NewPet, type Pet, type PetStatus } from '../state/pet.js';
import type { ListQuery } from '../state/mock-state.js';
import { isRecord } from '../util/is-record.js';
import { quoteText } from '../util/quote-text.js';
import type { Reply } from '../http/pet-call.js';
import type { Contract } from '../contract/load-contract.js';
import type { Operation } from '../contract/operation-index.js';
import type { ResourceModel } from '../contract/resource-model.js';
import { withoutResourcesOf } from './resource-handlers.js';

/** A request that passed every check of the contract, as the handlers read it. */
export interface CheckedRequest {
  /** Path parameters, decoded, as sent (an int64 keeps its digits). */
  readonly params: Readonly<Record<string, string>>;
  /** Query parameters, with the contract's integers as numbers (coerced by the validator). */
  readonly query: Readonly<Record<string, unknown>>;
  /** The exact JSON body (int64 digits kept); undefined for none. */
  readonly body: unknown;
  /** The pets of the request's session. */
  readonly pets: SessionPets;
}

/** A session's pets, as its handlers reach them through the state. */
export interface SessionPets {
  list(query: ListQuery): Promise<Pet[]>;
  get(id: Int64): Promise<Pet | undefined>;
  create(pet: NewPet): Promise<Pet>;
}

/** The answer to one operation of the contract. */
export type PetHandler = (request: CheckedRequest) => Reply | Promise<Reply>;

export interface PetHandlerOptions {
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

/** The Pet Store's operations as its contract writes them: the handlers answer only these. */
const PET_OPERATIONS: Readonly<Record<string, string>> = {
  listPets: 'GET /pets',
  createPet: 'POST /pets',
  getPet: 'GET /pets/{petId}',
};

/** Whether an operation is one of the Pet Store's own (same operationId, method and path). */
export function isPetStoreOperation(
  op: Pick<Operation, 'operationId' | 'method' | 'pathKey'>,
): boolean {
  const shape = op.operationId === undefined ? undefined : PET_OPERATIONS[op.operationId];
  return shape === `${op.method} ${op.pathKey}`;
}

/**
 * The Pet Store's three operations, by name: thin handlers over the session's store. They answer
 * a contract's operation only where it is the Pet Store's (same operationId, method and path, and
 * a `Pet` schema the pets are kept as); every other operation is answered from the contract.
 */
export function createPetHandlers(
  options: PetHandlerOptions,
  contract: Pick<Contract, 'operations' | 'hasSchema'>,
): ReadonlyMap<string, PetHandler> {
  const handlers: Readonly<Record<string, PetHandler>> = {
    listPets: async ({ query, pets }) => {
      const status = isPetStatus(query.status) ? query.status : undefined;
      return { status: 200, body: await pets.list({ limit: readLimit(query.limit), status }) };
    },

    createPet: async ({ body, pets }) => ({
      status: 201,
      body: await pets.create(readNewPet(body, options.defaultStatus)),
    }),

    getPet: async ({ params, pets }) => {
      const text = params.petId ?? '';
      const petId = parseInt64(text);
      if (petId === undefined) {
        throw new HttpError(
          400,
          'bad_request',
          `Path parameter 'petId' must be an int64 integer: the value is outside the contract.`,
        );
      }
      const pet = await pets.get(petId);
      if (!pet) throw new HttpError(404, 'not_found', `No pet has the id ${quoteText(text)}.`);
      return { status: 200, body: pet };
    },
  };
  const served = new Map<string, PetHandler>();
  if (!contract.hasSchema('Pet')) return served;
  for (const name of Object.keys(PET_OPERATIONS)) {
    const op = contract.operations.byName(name);
    const handler = handlers[name];
    if (op && handler && isPetStoreOperation(op)) served.set(name, handler);
  }
  return served;
}

/**
 * A contract's resources as the mock serves them: the Pet Store's pets left to their own
 * handlers (withoutResourcesOf), as the app and `petstore-mock resources` show them.
 */
export function withoutPetStore(
  model: ResourceModel,
  contract: Pick<Contract, 'operations' | 'hasSchema'>,
): ResourceModel {
  return withoutResourcesOf(
    model,
    new Set(createPetHandlers({}, contract).keys()),
    "its resource is the Pet Store's pets, kept by their own handlers",
  );
}
