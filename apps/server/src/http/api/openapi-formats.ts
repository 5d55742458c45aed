/**
 * What the zod schemas leave out of the OpenAPI document and an integrator's tools read (issue 39 §5):
 * the `format` of a string by the product's naming of its fields (an instant is `...At`, `validFrom` or
 * `validUntil`, ISO 8601 in UTC: `date-time`; `email`: `email`; a webhook's `url`: `uri`; a link the
 * console serves, `...Url`: `uri-reference`), and an example of every request body and answer,
 * generated from its schema (so it can never say what the schema does not). The contract tests
 * validate every answer against the document with these formats (`test/json-api-client.ts`).
 */

type Schema = Record<string, unknown>;

/** The format a string field of this name holds, if the product names it so. */
export function formatOfField(name: string): string | undefined {
  if (/At$/.test(name) || name === 'validFrom' || name === 'validUntil') return 'date-time';
  if (name === 'email') return 'email';
  if (name === 'url') return 'uri';
  // A link the console serves (a face's photo): a path of this server, signed.
  if (/Url$/.test(name)) return 'uri-reference';
  return undefined;
}

const isObject = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);
const isString = (s: Schema) => s.type === 'string' || (Array.isArray(s.type) && s.type.includes('string'));

/** Sets `format` on a property's schema: on the schema itself, or on its string member (`anyOf` of a nullable). */
function setFormat(schema: Schema, format: string): void {
  if ('$ref' in schema || 'format' in schema) return;
  if (isString(schema)) schema.format = format;
  for (const member of [schema.anyOf, schema.oneOf].flat()) if (isObject(member)) setFormat(member, format);
}

/** Every object schema of the document, in place: its properties' formats by their names. */
export function addFormats(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(addFormats);
  if (!isObject(node)) return;
  if (isObject(node.properties)) {
    for (const [name, property] of Object.entries(node.properties)) {
      const format = formatOfField(name);
      if (format && isObject(property)) setFormat(property, format);
    }
  }
  for (const value of Object.values(node)) addFormats(value);
}

const EXAMPLE_STRINGS: Record<string, string> = {
  'date-time': '2027-03-24T14:00:00.000Z',
  email: 'guest@example.com',
  uri: 'https://pms.example.com/hooks/console',
  'uri-reference': '/api/faces/photo/1/1?exp=1795838400&sig=...',
};

/** Texts an example may take, the first that a string's pattern and lengths accept (a code, a mobile, a UID, a time...). */
const CANDIDATE_TEXTS = ['Ana Souza', '135790', '13800138000', 'booking-4711', 'A1B2C3D4', '14:00', '1', 'uploads/faces/1/ana.jpg', 'x'.repeat(32)];

function exampleText(schema: Schema): string {
  const pattern = typeof schema.pattern === 'string' ? new RegExp(schema.pattern, 'u') : null;
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  const fits = (t: string) => (!pattern || pattern.test(t)) && t.length >= min && t.length <= max;
  return CANDIDATE_TEXTS.find(fits) ?? 'x'.repeat(Math.max(min, 1));
}

/** An example value of a schema: the first of an enum, a format's own, 1 for a number, one item of an array. */
export function exampleOf(schema: unknown, components: Record<string, unknown>, depth = 0): unknown {
  if (!isObject(schema) || depth > 32) return null;
  if (typeof schema.$ref === 'string') return exampleOf(components[schema.$ref.split('/').pop()!], components, depth + 1);
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const members = [schema.anyOf, schema.oneOf].flat().filter(isObject);
  if (members.length) return exampleOf(members.find((m) => m.type !== 'null') ?? members[0], components, depth + 1);
  if (Array.isArray(schema.allOf)) return Object.assign({}, ...schema.allOf.map((m) => exampleOf(m, components, depth + 1)));
  const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== 'null') : schema.type;
  switch (type) {
    case 'string':
      return EXAMPLE_STRINGS[schema.format as string] ?? exampleText(schema);
    case 'integer':
    case 'number':
      return typeof schema.minimum === 'number' ? Math.max(schema.minimum, 1) : 1;
    case 'boolean':
      return true;
    case 'array':
      return [exampleOf(schema.items, components, depth + 1)];
    case 'object': {
      const properties = isObject(schema.properties) ? schema.properties : {};
      return Object.fromEntries(Object.entries(properties).map(([name, p]) => [name, exampleOf(p, components, depth + 1)]));
    }
    default:
      return null;
  }
}

/** Every JSON request body and answer of the document gets an example generated from its schema. */
export function addExamples(doc: { paths?: Record<string, unknown>; components?: { schemas?: Record<string, unknown> } }): void {
  const components = doc.components?.schemas ?? {};
  for (const operations of Object.values(doc.paths ?? {})) {
    if (!isObject(operations)) continue;
    for (const operation of Object.values(operations)) {
      if (!isObject(operation)) continue;
      const bodies = [operation.requestBody, ...Object.values(isObject(operation.responses) ? operation.responses : {})];
      for (const body of bodies) {
        const json = isObject(body) && isObject(body.content) ? body.content['application/json'] : undefined;
        if (isObject(json) && json.schema && !('example' in json)) json.example = exampleOf(json.schema, components);
      }
    }
  }
}
