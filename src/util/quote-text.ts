const MAX_ECHO = 120;

/** At most `max` characters of a text, with an ellipsis where it was cut. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Quotes client input for a message without echoing an unbounded amount of it. */
export function quoteText(value: string): string {
  return JSON.stringify(truncate(value, MAX_ECHO));
}

/**
 * A copy of a text that keeps no reference to a longer text it was cut from: V8 may keep a slice
 * as a view of its whole parent (a 16 kB request path, say). JSON.parse makes a new string.
 */
export function detached(text: string): string {
  const copy: unknown = JSON.parse(JSON.stringify(text));
  return typeof copy === 'string' ? copy : text;
}

/** At most `max` characters of a text (see truncate), kept apart from the text it was cut from. */
export function truncatedCopy(text: string, max: number): string {
  return text.length > max ? detached(truncate(text, max)) : text;
}

/** A text as one header line carries it: characters outside printable ASCII become spaces. */
export function oneLine(text: string): string {
  return text.replace(/[^\t\x20-\x7e]/g, ' ');
}
