/**
 * Candidate values for a schema, most faithful first: the contract's own examples, then
 * openapi-sampler (Redocly's generator, which shares nothing with the mock's faker), then the
 * sampler again on a copy without examples (it prefers a schema's example even when it is wrong).
 * The oracle picks the first valid one; none of them is trusted unchecked.
 */
import OpenAPISampler from 'openapi-sampler';
import { isObject, resolve } from './contract.js';
import { forEachSchema, walkSchema } from './schema-walk.js';

/** Branches of a oneOf or anyOf sampled one by one, at most. */
const MAX_BRANCHES = 6;

/** A copy of a schema (or a whole document) with no `example` or `examples` in any of its schemas. */
function withoutExamples(value, walk = walkSchema) {
  const copy = JSON.parse(JSON.stringify(value));
  walk(copy, (schema) => {
    delete schema.example;
    delete schema.examples;
  });
  return copy;
}

/** Example values of a parameter or media type object (`example`, `examples` with local refs). */
export function explicitExamples(doc, holder) {
  const found = [];
  if (!isObject(holder)) return found;
  if (holder.example !== undefined) found.push(holder.example);
  if (isObject(holder.examples)) {
    for (const raw of Object.values(holder.examples)) {
      try {
        const example = resolve(doc, raw, 'examples').value;
        if (isObject(example) && example.value !== undefined) found.push(example.value);
      } catch {
        // An example that cannot be resolved is no candidate; the sampler's are.
      }
    }
  }
  return found;
}

/** Makes `candidates(schema, explicit, options)` for one contract. */
export function createSampler(doc) {
  let plainDoc;
  const docWithoutExamples = () => {
    if (plainDoc === undefined) {
      plainDoc = withoutExamples(doc, forEachSchema);
    }
    return plainDoc;
  };

  /** Candidate values, duplicates dropped; `readOnly` properties left out (they are the server's). */
  function candidates(schema, explicit = []) {
    const found = [...explicit];
    if (isObject(schema) || schema === true) {
      const base = { skipReadOnly: true, quiet: true };
      const attempts = [
        () => OpenAPISampler.sample(schema, base, doc),
        () => OpenAPISampler.sample(withoutExamples(schema), base, docWithoutExamples()),
        () =>
          OpenAPISampler.sample(
            withoutExamples(schema),
            { ...base, skipNonRequired: true },
            docWithoutExamples(),
          ),
      ];
      attempts.push(...branchAttempts(schema, base));
      for (const attempt of attempts) {
        try {
          found.push(attempt());
        } catch {
          // The sampler gives up on some schemas (a circular required property); others may do.
        }
      }
    }
    const seen = new Set();
    return found.filter((value) => {
      const key = JSON.stringify(value) ?? 'undefined';
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  }

  /**
   * For a schema that is a oneOf or anyOf: a sample of each branch alone (with the schema's other
   * keywords), since one sample of the whole often matches none of them, or two.
   */
  function branchAttempts(schema, base) {
    let resolved;
    try {
      resolved = resolve(doc, schema, 'schema').value;
    } catch {
      return [];
    }
    const branches = resolved?.oneOf ?? resolved?.anyOf;
    if (!Array.isArray(branches)) return [];
    const { oneOf: _oneOf, anyOf: _anyOf, ...rest } = resolved;
    const tag = resolved.discriminator?.propertyName;
    const mapping = isObject(resolved.discriminator?.mapping) ? resolved.discriminator.mapping : {};
    return branches.slice(0, MAX_BRANCHES).flatMap((branch) => {
      const alone = withoutExamples({ allOf: [rest, branch] });
      // The discriminator's value names the branch; with only the required properties, say it.
      const named = (value) => {
        const key = Object.keys(mapping).find((k) => mapping[k] === branch?.$ref);
        return typeof tag === 'string' && key !== undefined && isObject(value)
          ? { ...value, [tag]: key }
          : value;
      };
      return [
        () => OpenAPISampler.sample(alone, base, docWithoutExamples()),
        () =>
          named(
            OpenAPISampler.sample(alone, { ...base, skipNonRequired: true }, docWithoutExamples()),
          ),
      ];
    });
  }

  /** A sample without examples, and the same sample as XML (for an XML-only body). */
  function xml(schema) {
    const plain = withoutExamples(schema);
    const options = { skipReadOnly: true, quiet: true };
    return {
      value: OpenAPISampler.sample(plain, options, docWithoutExamples()),
      text: OpenAPISampler.sample(plain, { ...options, format: 'xml' }, docWithoutExamples()),
    };
  }

  return { candidates, xml };
}
