/**
 * A strict reader of Prometheus's text exposition format (version 0.0.4), for the metrics tests:
 * every line must be a HELP, a TYPE or a sample of a family typed before it, or it throws.
 */

export interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

export interface Family {
  readonly name: string;
  help: string;
  type: string;
  readonly samples: Sample[];
}

const NAME = '[a-zA-Z_:][a-zA-Z0-9_:]*';
const HELP = new RegExp(`^# HELP (${NAME}) (.*)$`);
const TYPE = new RegExp(`^# TYPE (${NAME}) (counter|gauge|histogram|summary|untyped)$`);
const SAMPLE = new RegExp(`^(${NAME})(?:\\{(.*)\\})? (\\S+)(?: -?\\d+)?$`);
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(?:,|$)/;

/** A value as Prometheus reads it (Go's ParseFloat: any case of NaN and Inf; prom-client writes Nan). */
function valueOf(text: string): number {
  if (/^\+?inf$/i.test(text)) return Infinity;
  if (/^-inf$/i.test(text)) return -Infinity;
  if (/^nan$/i.test(text)) return NaN;
  const value = Number(text);
  if (text.trim() === '' || Number.isNaN(value)) throw new Error(`not a sample value: ${text}`);
  return value;
}

function labelsOf(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  let rest = text;
  while (rest !== '') {
    const found = LABEL.exec(rest);
    if (!found) throw new Error(`bad labels: {${text}}`);
    const [whole, name = '', raw = ''] = found;
    if (name in labels) throw new Error(`label ${name} twice: {${text}}`);
    labels[name] = raw.replace(/\\(.)/g, (_m, c: string) => (c === 'n' ? '\n' : c));
    rest = rest.slice(whole.length);
  }
  return labels;
}

/** The family a sample belongs to: its own name, or a histogram's or summary's parts. */
function familyOf(families: Map<string, Family>, sample: string): Family | undefined {
  const own = families.get(sample);
  if (own) return own;
  const part = /^(.*)_(bucket|sum|count)$/.exec(sample);
  const family = part ? families.get(part[1] ?? '') : undefined;
  if (!family) return undefined;
  const parts = family.type === 'histogram' ? ['bucket', 'sum', 'count'] : ['sum', 'count'];
  return ['histogram', 'summary'].includes(family.type) && parts.includes(part?.[2] ?? '')
    ? family
    : undefined;
}

/** Reads a whole exposition; throws on the first line that breaks the format. */
export function parsePrometheusText(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  const series = new Set<string>();
  if (!text.endsWith('\n')) throw new Error('the text does not end with a newline');
  for (const [index, line] of text.slice(0, -1).split('\n').entries()) {
    const at = `line ${String(index + 1)}: ${line}`;
    if (line === '') continue;
    const help = HELP.exec(line);
    const type = TYPE.exec(line);
    if (help || type) {
      const name = (help ?? type)?.[1] ?? '';
      const family = families.get(name) ?? { name, help: '', type: '', samples: [] };
      if (family.samples.length > 0) throw new Error(`${at}: after the family's samples`);
      if (help) family.help = help[2] ?? '';
      if (type) family.type = type[2] ?? '';
      families.set(name, family);
      continue;
    }
    if (line.startsWith('#')) continue;
    const sample = SAMPLE.exec(line);
    if (!sample) throw new Error(`${at}: not a sample`);
    const [, name = '', labels = '', value = ''] = sample;
    const family = familyOf(families, name);
    if (!family || family.type === '') throw new Error(`${at}: a sample of no typed family`);
    const key = `${name}{${labels}}`;
    if (series.has(key)) throw new Error(`${at}: the same series twice`);
    series.add(key);
    family.samples.push({ name, labels: labelsOf(labels), value: valueOf(value) });
  }
  return families;
}

/** The value of the one sample with this name and these labels (among others), or undefined. */
export function sampleValue(
  families: Map<string, Family>,
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number | undefined {
  const found = [...families.values()]
    .flatMap((family) => family.samples)
    .filter(
      (sample) =>
        sample.name === name &&
        Object.entries(labels).every(([label, value]) => sample.labels[label] === value),
    );
  if (found.length > 1) throw new Error(`${String(found.length)} samples of ${name} match`);
  return found[0]?.value;
}
