import { error as validatorErrors } from 'express-openapi-validator';
import { HttpError } from '../../src/http/http-error.js';
import { toHttpError, type FailedRequest } from '../../src/http/to-http-error.js';
import { InvalidPreferenceError, NotInContractError } from '../../src/contract/prefer.js';
import { UnknownScenarioError } from '../../src/contract/scenario.js';
import { StoreWriteError } from '../../src/state/store-budget.js';
import { StoreFullError } from '../../src/state/store-limits.js';
import { InvalidSessionError } from '../../src/state/session-registry.js';
import { contract } from '../helpers/test-app.js';

const REQUEST: FailedRequest = {
  method: 'POST',
  path: '/v1/pets',
  contentType: 'text/plain',
  hasBody: true,
  bodyLimit: '100kb',
};

function mapped(error: unknown): { status: number; code: string; message: string } {
  const { status, code, message } = toHttpError(error, REQUEST);
  return { status, code, message };
}

const listPets = contract.operations.byName('listPets');

describe('toHttpError maps errors by their type, never by their text', () => {
  const refusals: readonly [code: string, make: () => Error][] = [
    ['unknown_scenario', () => new UnknownScenarioError('x')],
    ['invalid_preference', () => new InvalidPreferenceError('x')],
    ['invalid_session', () => new InvalidSessionError('x')],
  ];
  it.each(refusals)('a control plane refusal → 422 %s, its message kept', (code, make) => {
    expect(mapped(make())).toEqual({ status: 422, code, message: 'x' });
  });

  it("the store's refusals: over a budget → 507 store_full; a failed write → 500 saying so", () => {
    expect(mapped(new StoreFullError('full'))).toEqual({
      status: 507,
      code: 'store_full',
      message: 'full',
    });
    expect(mapped(new StoreWriteError('not written'))).toEqual({
      status: 500,
      code: 'internal_error',
      message: 'not written',
    });
  });

  it('a status the contract does not document → 422 not_in_contract listing the documented', () => {
    if (!listPets) throw new Error('no listPets');
    const { status, code, message } = mapped(new NotInContractError(listPets, 404));
    expect({ status, code }).toEqual({ status: 422, code: 'not_in_contract' });
    expect(message).toContain('200, 401');
  });

  it("the validator's errors by class (its 415 left over from checkBodyType stays a 415)", () => {
    const unsupported = new validatorErrors.UnsupportedMediaType({ path: '/body', message: 'no' });
    expect(mapped(unsupported)).toMatchObject({ status: 415, code: 'unsupported_media_type' });
    const tooLarge = new validatorErrors.RequestEntityTooLarge({ path: '/body', message: 'no' });
    expect(mapped(tooLarge)).toMatchObject({ status: 413, code: 'payload_too_large' });
    const notAllowed = new validatorErrors.MethodNotAllowed({
      path: '/pets',
      message: 'no',
      headers: { Allow: 'get, post' },
    });
    expect(toHttpError(notAllowed, REQUEST).headers).toEqual({ Allow: 'GET, POST' });
  });

  it('names each violation of a bad request by its place, reading errorCode for required', () => {
    const error = new validatorErrors.BadRequest({ path: '/body', message: 'whatever' });
    error.errors = [
      {
        path: '/body/name',
        message: "must have required property 'name'",
        errorCode: 'required.openapi.validation',
      },
      { path: '/query/limit', message: 'must be <= 100', errorCode: 'maximum.openapi.validation' },
    ];
    expect(mapped(error).message).toBe(
      "Body field 'name' is required; query parameter 'limit' must be <= 100: the value is outside the contract.",
    );
  });

  it('an answer that breaks the contract → 500 naming the violation', () => {
    const error = new validatorErrors.InternalServerError({ path: '/response', message: 'bad' });
    error.errors = [{ path: '/response/0/id', message: 'must be integer' }];
    expect(mapped(error)).toMatchObject({ status: 500, code: 'internal_error' });
    expect(mapped(error).message).toContain('/response/0/id must be integer');
  });

  it('keeps an HttpError as it is, and anything unknown is a 500 that says nothing more', () => {
    const own = new HttpError(404, 'not_found', 'none');
    expect(toHttpError(own, REQUEST)).toBe(own);
    expect(mapped(new Error('secret detail'))).toEqual({
      status: 500,
      code: 'internal_error',
      message: 'The mock failed while answering (see its log).',
    });
  });
});
