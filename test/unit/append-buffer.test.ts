import { AppendBuffer } from '../../src/state/append-buffer.js';

describe('AppendBuffer', () => {
  it('holds the UTF-8 bytes of everything appended, in order', () => {
    const buffer = new AppendBuffer(4);
    for (const text of ['ab', 'ç', '', '🐈 cat', 'x'.repeat(100)]) buffer.append(text);
    expect(buffer.bytes.toString('utf8')).toBe(`abç🐈 cat${'x'.repeat(100)}`);
    expect(buffer.bytes.length).toBe(Buffer.byteLength(`abç🐈 cat${'x'.repeat(100)}`));
  });

  it('leaves a view taken earlier unchanged by later appends, with or without growing', () => {
    const buffer = new AppendBuffer(8);
    buffer.append('first');
    const early = buffer.bytes;
    buffer.append('12'); // fits: written after the view
    const middle = buffer.bytes;
    buffer.append('y'.repeat(50)); // grows into a new buffer
    expect(early.toString()).toBe('first');
    expect(middle.toString()).toBe('first12');
    expect(buffer.bytes.toString()).toBe(`first12${'y'.repeat(50)}`);
  });
});
