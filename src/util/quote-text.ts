const MAX_ECHO = 120;

/** At most `max` characters of a text, with an ellipsis where it was cut. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

/** Quotes client input for a message without echoing an unbounded amount of it. */
export function quoteText(value: string): string {
  return JSON.stringify(truncate(value, MAX_ECHO));
}
