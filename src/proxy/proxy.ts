import type { Logger } from 'pino';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { openRecorder, type Recorder } from './recorder.js';
import { createUpstreamClient, type UpstreamClient } from './upstream-client.js';

/** Proxy mode's settings, from --proxy-target and the options that go with it. */
export interface ProxySettings {
  /** The real service's base address, http: or https:, e.g. `https://staging.example.com/v1`. */
  readonly target: string;
  readonly timeoutMs: number;
  /** A contract-breaking answer becomes 502 contract_violation (--proxy-strict). */
  readonly strict: boolean;
  /** TLS certificates are not verified (--proxy-insecure). */
  readonly insecure: boolean;
  /** The fixtures file to record the pets seen into (--record). */
  readonly recordPath: string | undefined;
}

/** Proxy mode, ready: the real service's client, strictness, and the recorder if asked for. */
export interface Proxy {
  readonly client: UpstreamClient;
  readonly strict: boolean;
  readonly recorder: Recorder | undefined;
  /** Closes the connections to the real service and finishes the recording. */
  close(): Promise<void>;
}

export interface ProxyNeeds {
  /** The contract's base path (`/v1`): the target must end with it. */
  readonly basePath: string;
  readonly checkPet: SchemaCheck;
  readonly logger: Logger;
}

/** Sets proxy mode up; throws a one-line message for a target or record file it cannot use. */
export async function createProxy(settings: ProxySettings, needs: ProxyNeeds): Promise<Proxy> {
  const { pathname } = new URL(settings.target);
  if (!pathname.replace(/\/$/, '').endsWith(needs.basePath)) {
    throw new Error(
      `--proxy-target ${settings.target} must be the real service's base address, ending in ${needs.basePath} as the contract's servers do`,
    );
  }
  needs.logger.info(
    { target: settings.target, strict: settings.strict },
    'proxy mode: valid requests go to the real service, whose answers are checked',
  );
  if (settings.insecure) {
    needs.logger.warn(
      { target: settings.target },
      "--proxy-insecure: the real service's TLS certificate is not verified",
    );
  }
  const recorder =
    settings.recordPath === undefined
      ? undefined
      : await openRecorder(settings.recordPath, needs.checkPet, needs.logger);
  const client = await createUpstreamClient(settings);
  return {
    client,
    strict: settings.strict,
    recorder,
    close: async () => {
      client.close();
      await recorder?.close();
    },
  };
}
