import { gzipSync } from 'node:zlib';
import { essenceOf } from './media-types.js';

/** 1×1 images, made with ImageMagick (`convert -size 1x1 xc:white -strip one.<ext>`). */
const IMAGES: Readonly<Record<string, string>> = {
  'image/png':
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABAQAAAAA3bvkkAAAACklEQVQI12NoAAAAggCB3UNq9AAAAABJRU5ErkJggg==',
  'image/jpeg':
    '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDABALDA4MChAODQ4SERATGCgaGBYWGDEjJR0oOjM9PDkzODdASFxOQERXRTc4UG1RV19iZ2hnPk1xeXBkeFxlZ2P/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAB//EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AQH//2Q==',
  'image/gif': 'R0lGODlhAQABAPAAAP///wAAACH5BAAAAAAALAAAAAABAAEAAAICRAEAOw==',
  'image/webp': 'UklGRh4AAABXRUJQVlA4TBEAAAAvAAAAAAfQ//73v/+BiOh/AAA=',
  'image/x-icon':
    'AAABAAEAAQEAAAEAIAAwAAAAFgAAACgAAAABAAAAAgAAAAEAIAAAAAAABAAAAAAAAAAAAAAAAAAAAAAAAAD/////AAAAAA==',
};

/** A one-page, empty PDF, its cross-reference table counted from its own text. */
function emptyPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 72 72] >>',
  ];
  let text = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(text.length);
    text += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = text.length;
  text += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) text += `${String(offset).padStart(10, '0')} 00000 n \n`;
  text += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(text, 'latin1');
}

/** A WAV file of no samples: its 44-byte header, mono, 8 kHz, 8 bits. */
function emptyWav(): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'latin1');
  header.writeUInt32LE(36, 4);
  header.write('WAVEfmt ', 8, 'latin1');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20);
  header.writeUInt16LE(1, 22);
  header.writeUInt32LE(8000, 24);
  header.writeUInt32LE(8000, 28);
  header.writeUInt16LE(1, 32);
  header.writeUInt16LE(8, 34);
  header.write('data', 36, 'latin1');
  header.writeUInt32LE(0, 40);
  return header;
}

const MAKERS: Readonly<Record<string, () => Buffer>> = {
  ...Object.fromEntries(
    Object.entries(IMAGES).map(([type, base64]) => [type, () => Buffer.from(base64, 'base64')]),
  ),
  'image/svg+xml': () =>
    Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>\n'),
  'application/pdf': emptyPdf,
  // An empty archive: its end-of-central-directory record alone.
  'application/zip': () => Buffer.concat([Buffer.from('PK\x05\x06', 'latin1'), Buffer.alloc(18)]),
  'application/gzip': () => gzipSync(Buffer.alloc(0)),
  'application/x-gzip': () => gzipSync(Buffer.alloc(0)),
  'audio/wav': emptyWav,
  'audio/x-wav': emptyWav,
};

/**
 * A small valid file of a media type the mock knows (images, PDF, archives, WAV), for a binary
 * answer the contract gives no example of; undefined for another type.
 */
export function sampleFile(mediaType: string): Buffer | undefined {
  return MAKERS[essenceOf(mediaType)]?.();
}
