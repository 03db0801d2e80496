import { quoteText } from '../util/quote-text.js';
import { Refusal } from '../util/refusal.js';

const SESSION_ID = /^[\w.:-]{1,64}$/;

/** An X-Mock-Session value that is not 1 to 64 of `A-Z a-z 0-9 . _ : -`. */
export class InvalidSessionError extends Refusal {
  override name = 'InvalidSessionError';

  constructor(message: string) {
    super(422, 'invalid_session', message);
  }
}

/** Refuses an id that is not 1 to 64 of `A-Z a-z 0-9 . _ : -` (it names keys of the state). */
export function checkSessionId(id: string): void {
  if (!SESSION_ID.test(id)) {
    throw new InvalidSessionError(
      `The mock's control plane refused X-Mock-Session ${quoteText(id)}: use 1 to 64 letters, digits, or . _ : -`,
    );
  }
}
