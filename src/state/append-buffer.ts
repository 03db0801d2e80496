/**
 * Bytes that only grow at the end, in a buffer that doubles when full. A view taken by `bytes`
 * stays valid and unchanged: later appends write past it, or into a new, larger buffer.
 */
export class AppendBuffer {
  #buffer: Buffer;
  #length = 0;

  constructor(capacity = 64 * 1024) {
    this.#buffer = Buffer.allocUnsafe(capacity);
  }

  /** Appends `text` in UTF-8. */
  append(text: string): void {
    const needed = this.#length + Buffer.byteLength(text);
    if (needed > this.#buffer.length) {
      const grown = Buffer.allocUnsafe(Math.max(needed, this.#buffer.length * 2));
      this.#buffer.copy(grown, 0, 0, this.#length);
      this.#buffer = grown;
    }
    this.#length += this.#buffer.write(text, this.#length);
  }

  /** The bytes appended so far (a view, not a copy). */
  get bytes(): Buffer {
    return this.#buffer.subarray(0, this.#length);
  }
}
