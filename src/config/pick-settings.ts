import type { Config } from './settings.js';

/**
 * The settings named in `names`, as the Config has them: how a layer with optional settings (a
 * bare app takes each one's default) takes them from the Config by its list of names, instead of
 * a hand copy of each.
 */
export function pickSettings<Name extends keyof Config>(
  config: Config,
  names: readonly Name[],
): Partial<Pick<Config, Name>> {
  const picked: Partial<Pick<Config, Name>> = {};
  for (const name of names) picked[name] = config[name];
  return picked;
}
