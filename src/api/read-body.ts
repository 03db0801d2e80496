import express, { Router, type RequestHandler } from 'express';
import multer from 'multer';
import { mediaSchemaOf, requestMediaOf } from '../contract/document-parts.js';
import { essenceOf, kindOf } from '../contract/media-types.js';
import type { OpenApiDocument } from '../contract/openapi-document.js';
import type { Operation } from '../contract/operation-index.js';
import { coerceFields } from '../contract/form-fields.js';
import { HttpError } from '../http/http-error.js';
import type { PetCalls } from '../http/pet-call.js';
import { isRecord } from '../util/is-record.js';

/** Files and fields a multipart body may have at most (each within the body limit). */
const MAX_FILES = 20;
const MAX_FIELDS = 200;

/** The bytes a body-parser notation stands for: `100kb` → 102400. */
function bytesOf(limit: string): number {
  const match = /^(\d+)\s*(b|kb|mb)?$/i.exec(limit.trim());
  const unit = { b: 1, kb: 1024, mb: 1024 * 1024 }[(match?.[2] ?? 'b').toLowerCase()] ?? 1;
  return Number(match?.[1] ?? 0) * unit;
}

/** Whether a multipart part sent as a file holds JSON (`application/json`, `+json`). */
function isJsonPart(mimetype: string): boolean {
  return kindOf(mimetype) === 'json' && essenceOf(mimetype) !== '*/*';
}

/** A part's JSON, or its text where it is not JSON (for the validator to refuse). */
function jsonOf(bytes: Buffer): unknown {
  const text = bytes.toString('utf8');
  try {
    const value: unknown = JSON.parse(text);
    return value;
  } catch {
    return text;
  }
}

/** The 413 of a body over the limit. */
function tooLarge(limit: string): HttpError {
  return new HttpError(
    413,
    'payload_too_large',
    `The request body is larger than the limit of ${limit}.`,
  );
}

/**
 * Reads the bodies of the media types other than JSON that an operation documents, within the
 * body limit, into what the validator checks: a form (`application/x-www-form-urlencoded`) and
 * the fields of `multipart/form-data` as objects whose values are typed by the schema (arrays,
 * numbers, booleans: a form carries only text), the files of a multipart body in memory (nothing
 * is written to disk; each file stands in the body as an empty text, which `format: binary`
 * takes), text as a string and other bytes as a Buffer. The validator itself reads no body.
 */
export function readBody(
  calls: PetCalls,
  document: OpenApiDocument,
  bodyLimit: string,
): RequestHandler {
  const limit = bytesOf(bodyLimit);
  const text = Router().use(express.text({ type: () => true, limit: bodyLimit }));
  const raw = Router().use(express.raw({ type: () => true, limit: bodyLimit }));
  const form = Router().use(
    express.urlencoded({ type: () => true, extended: true, limit: bodyLimit }),
  );
  const files = multer({
    storage: multer.memoryStorage(),
    limits: { fileSize: limit, fieldSize: limit, files: MAX_FILES, fields: MAX_FIELDS },
  }).any();

  /** The schema and encoding of the operation's body in this media type. */
  const schemaOf = (op: Operation, type: string) => mediaSchemaOf(document, op, type);

  return function readBody(req, res, next) {
    const op = calls.of(req).match?.operation;
    const type = req.headers['content-type'];
    // A body of a type the operation does not take is not read: checkBodyType refuses it.
    if (!op || type === undefined || req.body !== undefined || !requestMediaOf(op, type)) {
      next();
      return;
    }
    const kind = kindOf(type);
    if (kind === 'json') {
      next();
      return;
    }
    const typed = (error?: unknown): void => {
      if (error !== undefined) {
        next(error);
        return;
      }
      const media = schemaOf(op, essenceOf(type));
      if ((kind === 'form' || kind === 'multipart') && isRecord(req.body)) {
        const uploaded = Array.isArray(req.files) ? req.files : [];
        // A part sent as a file stands as what it is: JSON read (a part named by the encoding
        // or sent as application/json), else an empty text, which `format: binary` takes.
        const fields: Record<string, unknown> = { ...req.body };
        for (const file of uploaded) {
          const value = isJsonPart(file.mimetype) ? jsonOf(file.buffer) : '';
          const earlier = fields[file.fieldname];
          const list: unknown[] = Array.isArray(earlier) ? earlier : [earlier];
          fields[file.fieldname] = earlier === undefined ? value : [...list, value];
        }
        req.body = coerceFields(document, media, fields);
      }
      next();
    };
    if (kind === 'multipart') {
      if (Number(req.headers['content-length'] ?? 0) > limit) {
        next(tooLarge(bodyLimit));
        return;
      }
      // The whole body within the limit, chunked too (multer bounds each part, not their sum):
      // past it, the parts are no longer read and the request is answered 413.
      let received = 0;
      let answered = false;
      const once = (error?: unknown): void => {
        if (answered) return;
        answered = true;
        req.off('data', count);
        typed(error);
      };
      const count = (chunk: Buffer): void => {
        received += chunk.length;
        if (received <= limit) return;
        req.unpipe();
        req.resume();
        once(tooLarge(bodyLimit));
      };
      req.on('data', count);
      files(req, res, (error: unknown) => {
        if (error instanceof multer.MulterError) {
          const over = /^LIMIT_(FILE_SIZE|FIELD_VALUE|FILE_COUNT|FIELD_COUNT|PART_COUNT)$/.test(
            error.code,
          );
          once(
            over
              ? tooLarge(bodyLimit)
              : new HttpError(
                  400,
                  'bad_request',
                  `The multipart body is malformed: ${error.message}.`,
                ),
          );
          return;
        }
        once(
          error === undefined
            ? undefined
            : new HttpError(400, 'bad_request', 'The multipart body could not be read.'),
        );
      });
      return;
    }
    const parser = kind === 'form' ? form : kind === 'binary' ? raw : text;
    parser(req, res, typed);
  };
}
