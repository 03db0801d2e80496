import { petCheckOf } from '../state/check-pets.js';
import type { RequestListener } from 'node:http';
import type { Logger } from 'pino';
import type { Config } from '../config/settings.js';
import type { MockState } from '../state/mock-state.js';
import { Refusal } from '../util/refusal.js';
import { errorMessage } from '../util/error-message.js';
import { FileError } from '../util/located-file.js';
import type { DefinitionPart, ReloadOutcome, ReloadStatus } from '../api/mock-control.js';
import { keptItemsProblem } from './kept-items.js';
import { placeOfFixture } from '../state/initial-data.js';
import {
  currentDigests,
  initialDataSource,
  loadDefinition,
  type MockDefinition,
} from './load-definition.js';
import { identityOf } from './open-state.js';

/** A reload that was not applied: the last good version keeps serving. 422 over HTTP. */
export class ReloadRefusedError extends Refusal {
  override name = 'ReloadRefusedError';

  constructor(message: string) {
    super(422, 'reload_failed', message);
  }
}

/** What the reloader needs: how to build an app for a definition, and where things are. */
export interface ReloaderNeeds {
  readonly config: Config;
  readonly state: MockState;
  readonly logger: Logger;
  readonly definition: MockDefinition;
  /** The app for one version of the definition (it closes over that version only). */
  readonly buildApp: (definition: MockDefinition) => RequestListener;
}

/** How many stored pets a message names at most. */
const SHOWN = 1;

/** What a reload refused for the stored pets says beside the problem: how to apply it anyway. */
const APPLY_WITH_RESET =
  'the last version keeps serving; POST /__admin/reload?reset=true applies it with a reset';

/**
 * The pets a new definition cannot keep: created pets the new contract's Pet schema refuses (at
 * that schema in the contract), and created pets whose ids the new initial data reaches (at the
 * fixture that reaches them): a FileError, as for a file that cannot be used; or none.
 */
async function keptPetsProblem(
  config: Config,
  state: MockState,
  next: MockDefinition,
  changed: readonly DefinitionPart[],
): Promise<Error | undefined> {
  if (!changed.includes('contract') && !changed.includes('fixtures')) return undefined;
  const stored = await state.storedPets();
  const checkPet = petCheckOf(next.contract);
  const refused: string[] = [];
  let count = 0;
  for (const { session, pets } of stored) {
    for (const pet of pets) {
      const problems = checkPet(pet);
      if (problems.length === 0) continue;
      count += 1;
      if (refused.length < SHOWN) {
        refused.push(
          `pet ${String(pet.id)} of ${session ?? 'the default session'}: ${problems.join('; ')}`,
        );
      }
    }
  }
  if (count > 0) {
    const { file, position } = next.contract.placeOf(['components', 'schemas', 'Pet']);
    return new FileError(
      file,
      `${count} stored pet(s) do not satisfy the new contract (first: ${refused.join('; ')}): ${APPLY_WITH_RESET}`,
      position,
    );
  }
  const lastInitial = next.initial.pets.at(-1)?.id;
  if (lastInitial === undefined) return undefined;
  for (const { session, pets, layered } of stored) {
    const first = pets[0];
    if (layered && first !== undefined && first.id <= lastInitial) {
      const source = initialDataSource(config);
      const reason = `the new fixtures reach id ${String(lastInitial)}, and ${session ?? 'the default session'} created pet ${String(first.id)} after the old ones: ${APPLY_WITH_RESET}`;
      // Generated pets (--seed, --count) are in no file.
      if (source.kind !== 'fixtures') return new Error(reason);
      return new FileError(source.path, reason, placeOfFixture(source.path, lastInitial));
    }
  }
  return undefined;
}

/**
 * Serves the current version of the definition, and swaps in a new one on reload: every request
 * runs on the version that was current when it arrived (in-flight ones finish on theirs); the
 * state (pets, sessions, journals, coverage, switches) is the same object across versions. A
 * reload that cannot be applied leaves the last good version serving and says why.
 */
export class Reloader {
  readonly #needs: ReloaderNeeds;
  #definition: MockDefinition;
  #app: RequestListener;
  #status: ReloadStatus | undefined;
  /** Reloads run one after another. */
  #queue: Promise<unknown> = Promise.resolve();

  constructor(needs: ReloaderNeeds) {
    this.#needs = needs;
    this.#definition = needs.definition;
    this.#app = needs.buildApp(needs.definition);
  }

  /** The request listener: the current version's app. */
  readonly handle: RequestListener = (req, res) => {
    this.#app(req, res);
  };

  get definition(): MockDefinition {
    return this.#definition;
  }

  /** The last reload's outcome; undefined before any. */
  get status(): ReloadStatus | undefined {
    return this.#status;
  }

  /** Whether a part's files differ from what serves now. */
  changedParts(): DefinitionPart[] {
    const now = currentDigests(this.#needs.config, this.#definition.contract.files);
    const parts: DefinitionPart[] = ['contract', 'scenarios', 'fixtures'];
    return parts.filter((part) => now[part] !== this.#definition.digests[part]);
  }

  /** Reads the files again and applies what changed; throws ReloadRefusedError if it cannot. */
  reload({ reset = false }: { reset?: boolean } = {}): Promise<ReloadOutcome> {
    const run = this.#queue.then(() => this.#reload(reset));
    this.#queue = run.catch(() => undefined);
    return run;
  }

  async #reload(reset: boolean): Promise<ReloadOutcome> {
    const { config, state, logger } = this.#needs;
    let next: MockDefinition;
    try {
      next = await loadDefinition(config, {
        reload: true,
        contractFiles: this.#definition.contract.files,
      });
    } catch (error) {
      throw this.#refuse(error);
    }
    const parts: DefinitionPart[] = ['contract', 'scenarios', 'fixtures'];
    const changed = parts.filter((part) => next.digests[part] !== this.#definition.digests[part]);
    if (changed.length === 0 && !reset) {
      this.#status = { status: 'ok', at: new Date().toISOString() };
      return { changed, switchedOff: [], reset };
    }
    if (!reset) {
      const problem =
        (await keptPetsProblem(config, state, next, changed)) ??
        (changed.includes('contract')
          ? await keptItemsProblem(state, next, APPLY_WITH_RESET)
          : undefined);
      if (problem !== undefined) throw this.#refuse(problem);
    }
    if (changed.includes('contract') || changed.includes('fixtures')) {
      await state.rebase(next.initial, identityOf(next));
    }
    if (reset) await state.resetAll();
    const switchedOff = await state.switchOff([...next.scenarios.keys()]);
    for (const off of switchedOff) {
      logger.warn(off, `scenario ${off.scenario} is gone: its switch is off`);
    }
    // One assignment: a request sees the old version or the new one, never a mix.
    this.#app = this.#needs.buildApp(next);
    this.#definition = next;
    this.#status = { status: 'ok', at: new Date().toISOString() };
    logger.info({ changed, reset, switchedOff: switchedOff.length }, 'reloaded');
    return { changed, switchedOff, reset };
  }

  /** Records and logs a reload that cannot be applied, as the error to throw. */
  #refuse(error: unknown): ReloadRefusedError {
    const at = new Date().toISOString();
    if (error instanceof FileError) {
      this.#status = {
        status: 'failed',
        file: error.file,
        ...(error.position && { line: error.position.line, column: error.position.column }),
        message: error.reason,
        at,
      };
    } else {
      this.#status = { status: 'failed', message: errorMessage(error), at };
    }
    this.#needs.logger.error(
      { reload: this.#status },
      `reload not applied: ${errorMessage(error)}`,
    );
    return new ReloadRefusedError(`The reload was not applied: ${errorMessage(error)}`);
  }
}
