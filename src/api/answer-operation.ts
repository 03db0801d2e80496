import type { RequestHandler } from 'express';
import type { ContractAnswers } from '../contract/contract-answers.js';
import type { SendJson } from '../http/exact-json.js';
import type { PetCall, PetCalls, Reply } from '../http/pet-call.js';
import type { ItemSeeds } from '../state/item-seeds.js';
import type { MockState } from '../state/mock-state.js';
import type { Pet } from '../state/pet.js';
import type { PetHandler } from './pet-handlers.js';
import type { ResourceHandler, ResourceRequest } from './resource-handlers.js';
import { sendContractAnswer } from './send-answer.js';
import { contentTypeOf, kindOf } from '../contract/media-types.js';
import { isRecord } from '../util/is-record.js';

/** What answers an operation: the Pet Store's handlers, the resources', else the contract. */
export interface OperationAnswerers {
  readonly pets: ReadonlyMap<string, PetHandler>;
  readonly resources: ReadonlyMap<string, ResourceHandler>;
  /** The seeded items of the app's contract version (see MockState.listItems). */
  readonly seeds: ItemSeeds;
  readonly answers: ContractAnswers;
  /** The initial pets of the app's version (see MockState.listPets); the state's own if unset. */
  readonly initial?: readonly Pet[] | undefined;
}

type Req = Parameters<RequestHandler>[0];

/**
 * The body a resource can store: the exact JSON (int64 digits kept), or a form's fields typed
 * by their schema (read-body.ts); undefined for none, and for a body of any other media type
 * (XML, bytes), which the contract answers.
 */
function storableBody(req: Req, call: PetCall): { readonly body: unknown } | undefined {
  if (call.body !== undefined) return isRecord(call.body) ? { body: call.body } : undefined;
  const type = req.headers['content-type'];
  if (type === undefined) return { body: undefined };
  const kind = kindOf(type);
  return (kind === 'form' || kind === 'multipart') && isRecord(req.body)
    ? { body: req.body }
    : undefined;
}

/** The request as a resource handler reads it, its session's items bound. */
function resourceRequest(
  req: Req,
  call: PetCall,
  body: unknown,
  state: MockState,
  seeds: ItemSeeds,
): ResourceRequest {
  const { session } = call;
  return {
    params: call.params ?? {},
    query: req.query,
    body,
    mediaType: req.headers['content-type']?.split(';')[0]?.trim().toLowerCase(),
    url: {
      origin: `${req.protocol}://${req.get('host') ?? 'localhost'}`,
      path: call.path,
      query: call.query,
    },
    items: {
      list: (place) => state.listItems(session, seeds, place),
      get: (place, key) => state.getItem(session, seeds, place, key),
      create: (place, item, key) => state.createItem(session, seeds, place, item, key),
      replace: (place, key, item) => state.replaceItem(session, seeds, place, key, item),
      remove: (place, key) => state.deleteItem(session, seeds, place, key),
    },
  };
}

/**
 * Answers a request that passed every check, through res.json (so the validator checks the
 * answer) with int64 digits exact: with its operation's handler (a Pet Store operation's, else a
 * resource's: issue 30), its body without the properties the contract marks writeOnly; or, for an
 * operation no handler keeps state for, or whose success a scenario forced to another status,
 * with the contract's own answer (its example, or data generated from its schema, in the media
 * type the client accepts), whose source X-Mock-Answer names.
 */
export function answerOperation(
  answerers: OperationAnswerers,
  state: MockState,
  calls: PetCalls,
  sendJson: SendJson,
): RequestHandler {
  const { pets, resources, seeds, answers, initial } = answerers;

  /**
   * A resource's handler where it keeps state for this request: JSON (or form) bodies and JSON
   * answers. A request in another media type (XML), or whose status a scenario or Prefer forced,
   * is answered from the contract.
   */
  function statefulRequest(
    req: Req,
    call: PetCall,
    handler: ResourceHandler | undefined,
  ): { handler: ResourceHandler; body: unknown; answerType: string | undefined } | undefined {
    const op = call.match?.operation;
    if (!handler || !op || call.forcedStatus !== undefined) return undefined;
    const offered = answers.mediaTypesOf(op);
    const accepted = offered.length === 0 ? undefined : req.accepts([...offered]);
    const answerType = typeof accepted === 'string' ? accepted : undefined;
    if (answerType !== undefined && kindOf(answerType) !== 'json') return undefined;
    const storable = storableBody(req, call);
    return storable && { handler, body: storable.body, answerType };
  }

  return async function answerOperation(req, res) {
    const call = calls.of(req);
    const op = call.match?.operation;
    if (!op) throw new Error(`no operation for ${call.method} ${call.path}`);
    const { session } = call;
    let reply: Reply;
    // The media type of a resource's JSON answer; undefined for a pet's (application/json).
    let answerType: string | undefined;
    const pet = pets.get(op.name);
    const resource = pet ? undefined : statefulRequest(req, call, resources.get(op.name));
    if (pet) {
      reply = await pet({
        params: call.params ?? {},
        query: req.query,
        body: call.body,
        pets: {
          list: (query) => state.listPets(session, query, initial),
          get: (id) => state.getPet(session, id, initial),
          create: (created) => state.createPet(session, created),
        },
      });
    } else if (resource) {
      answerType = resource.answerType;
      reply = await resource.handler(resourceRequest(req, call, resource.body, state, seeds));
    } else {
      const answer = await answers.answer(op, {
        status: call.forcedStatus,
        choose: (offered) => req.accepts([...offered]),
      });
      call.answerSource = answer.source;
      sendContractAnswer(res, answer, sendJson);
      return;
    }
    if (reply.body === undefined) {
      res
        .status(reply.status)
        .set(reply.headers ?? {})
        .end();
      return;
    }
    const body = answers.withoutWriteOnly(op, reply.status, reply.body);
    // application/json keeps res.json's own Content-Type; another JSON type is named.
    const headers =
      answerType === undefined || answerType === 'application/json'
        ? reply.headers
        : { ...reply.headers, 'Content-Type': contentTypeOf(answerType) };
    sendJson(res, reply.status, body, headers);
  };
}
