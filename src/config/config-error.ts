/** A setting that cannot be used; its message is one line naming the flag, variable or option. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}
