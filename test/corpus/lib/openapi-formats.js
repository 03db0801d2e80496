/**
 * The formats OpenAPI defines on top of JSON Schema's, taught to hyperjump through its format
 * extension point: its 3.0 dialect takes `format` from draft-04, which knows neither `date` nor
 * `uuid`, and no draft knows `int32` or `byte`. Without them the oracle would call a date-time
 * sent for a `format: date` valid, where any OpenAPI tool refuses it.
 */
import { addFormat, setFormatHandler } from '@hyperjump/json-schema/experimental';

const DRAFT_04 = 'https://json-schema.org/keyword/draft-04/format';
const DRAFT_2020_12 = 'https://json-schema.org/keyword/draft-2020-12/format';

const INT32 = { id: 'https://corpus.invalid/format/int32', handler: isInt32 };
const BYTE = { id: 'https://corpus.invalid/format/byte', handler: isBase64 };

function isInt32(value) {
  return (
    typeof value !== 'number' || (Number.isInteger(value) && value >= -(2 ** 31) && value < 2 ** 31)
  );
}

function isBase64(value) {
  return (
    typeof value !== 'string' ||
    /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value)
  );
}

/** Registers the OpenAPI formats with both of the `format` keywords the oracle's dialects use. */
export function addOpenApiFormats() {
  addFormat(INT32);
  addFormat(BYTE);
  setFormatHandler(DRAFT_04, 'date', 'https://json-schema.org/format/date');
  setFormatHandler(DRAFT_04, 'uuid', 'https://json-schema.org/format/uuid');
  for (const keyword of [DRAFT_04, DRAFT_2020_12]) {
    setFormatHandler(keyword, 'int32', INT32.id);
    setFormatHandler(keyword, 'byte', BYTE.id);
  }
}
