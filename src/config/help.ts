import { SETTING_NAMES, envOf, flagOf, settingOf } from './settings.js';

const FLAG_WIDTH = 30;

/** The --help text, from the settings table. */
export function helpText(): string {
  const rows = SETTING_NAMES.map((name) => {
    const setting = settingOf(name);
    const flag = `${flagOf(name)} ${setting.value}`.trimEnd().padEnd(FLAG_WIDTH);
    const range = setting.range === '' ? '' : `; ${setting.range}`;
    return `  ${flag}${setting.help}\n  ${''.padEnd(FLAG_WIDTH)}env ${envOf(name)}, default ${setting.shown}${range}`;
  });
  return [
    'petstore-mock: a contract-faithful mock of the Pet Store API (openapi.yaml)',
    '',
    'Usage: petstore-mock [options]',
    '       petstore-mock coverage --url <mock> [options]   (see petstore-mock coverage --help)',
    '       petstore-mock resources [--contract <file>]     (what the mock infers from a contract)',
    '',
    ...rows,
    `  ${'--help, -h'.padEnd(FLAG_WIDTH)}print this help`,
    `  ${'--version, -v'.padEnd(FLAG_WIDTH)}print the version`,
    '',
    'Flags win over environment variables. A switch is on alone (--watch) or takes its value after',
    '"=": --watch=1, --watch=true, --watch=0, --watch=false. The API is served under /v1.',
  ].join('\n');
}

/** Escapes what Markdown would read in a table cell. */
function cell(text: string): string {
  return text.replaceAll('|', '\\|').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/** docs/options.md, from the settings table (a test keeps the file equal to it). */
export function optionsMarkdown(): string {
  const rows = SETTING_NAMES.map((name) => {
    const setting = settingOf(name);
    const flag = `\`${`${flagOf(name)} ${setting.value}`.trimEnd()}\``;
    return `| ${flag} | \`${envOf(name)}\` | \`${name}\` | ${cell(setting.shown)} | ${cell(setting.range)} | ${cell(setting.help)} |`;
  });
  return [
    '# Options',
    '',
    '<!-- Generated from src/config/settings.ts by `npm run docs:options`; a test fails when they differ. -->',
    '',
    'Every setting has a flag, an environment variable and a library option (`startMockServer({ … })`),',
    'the same word in each: the option is the flag in camelCase. Flags win over environment variables;',
    'an empty variable counts as unset, except `MOCK_API_KEYS` and `MOCK_ADMIN_TOKEN`, which guard',
    'access and refuse to start empty. A switch is on given alone (`--proxy-strict`); it takes what its',
    'variable takes, `1`/`true` or `0`/`false`, joined by `=` (`--proxy-strict=false`), never as the next',
    'word: `--proxy-strict 1` is refused.',
    'A value outside its range stops the start with exit code 2 and one line naming the setting.',
    '',
    '| flag | variable | option | default | accepts | what it does |',
    '| ---- | -------- | ------ | ------- | ------- | ------------ |',
    ...rows,
    '',
  ].join('\n');
}
