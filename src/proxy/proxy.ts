import type { Logger } from 'pino';
import type { SchemaCheck } from '../contract/schema-validator.js';
import { openRecorder, type Recorder } from './recorder.js';
import { createUpstreamClient, type UpstreamClient } from './upstream-client.js';

/** Proxy mode's settings, from --proxy-target and the options that go with it. */
export interface ProxySettings {
  /** The real service's base address, http: or https:, e.g. `https://staging.example.com/v1`. */
  readonly proxyTarget: string;
  /** Milliseconds to wait for the real service. */
  readonly proxyTimeout: number;
  /** A contract-breaking answer becomes 502 contract_violation. */
  readonly proxyStrict: boolean;
  /** TLS certificates are not verified. */
  readonly proxyInsecure: boolean;
  /** The fixtures file to record the pets seen into. */
  readonly record: string | undefined;
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
  const { pathname } = new URL(settings.proxyTarget);
  if (!pathname.replace(/\/$/, '').endsWith(needs.basePath)) {
    throw new Error(
      `--proxy-target ${settings.proxyTarget} must be the real service's base address, ending in ${needs.basePath} as the contract's servers do`,
    );
  }
  needs.logger.info(
    { target: settings.proxyTarget, strict: settings.proxyStrict },
    'proxy mode: valid requests go to the real service, whose answers are checked',
  );
  if (settings.proxyInsecure) {
    needs.logger.warn(
      { target: settings.proxyTarget },
      "--proxy-insecure: the real service's TLS certificate is not verified",
    );
  }
  const recorder =
    settings.record === undefined
      ? undefined
      : await openRecorder(settings.record, needs.checkPet, needs.logger);
  const client = await createUpstreamClient({
    target: settings.proxyTarget,
    timeoutMs: settings.proxyTimeout,
    insecure: settings.proxyInsecure,
  });
  return {
    client,
    strict: settings.proxyStrict,
    recorder,
    close: async () => {
      client.close();
      await recorder?.close();
    },
  };
}
