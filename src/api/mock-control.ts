import type { SwitchedOff } from '../state/mock-state.js';

/** The parts of what the mock serves that a reload tells apart, each read from its own files. */
export type DefinitionPart = 'contract' | 'scenarios' | 'fixtures';

/** What a reload did. */
export interface ReloadOutcome {
  /** The parts whose files changed and now serve; empty when nothing changed. */
  readonly changed: readonly DefinitionPart[];
  /** Switches turned off because their scenario is gone. */
  readonly switchedOff: readonly SwitchedOff[];
  /** Whether every session was reset with it (`reset=true`). */
  readonly reset: boolean;
}

/** The last reload, as GET /__admin/health and the QA console show it. */
export interface ReloadStatus {
  readonly status: 'ok' | 'failed';
  /** The file at fault, and where in it, when it failed. */
  readonly file?: string;
  readonly line?: number;
  readonly column?: number;
  readonly message?: string;
  /** When it happened (ISO). */
  readonly at: string;
}

/**
 * What the admin API may ask of the server it runs in: callbacks handed in, so the API never
 * reaches into the server (a bare createApp has none, and answers 404 for a reload).
 */
export interface MockControl {
  /** Reads the files again and applies what changed; rejects (422 reload_failed) if it cannot. */
  reload(options: { reset: boolean }): Promise<ReloadOutcome>;
  /** The last reload's outcome; undefined before any. */
  reloadStatus(): ReloadStatus | undefined;
}
