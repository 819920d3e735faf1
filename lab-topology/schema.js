'use strict';
// A JSON Schema check of the keywords service.schema.json uses (type, one or a list, enum, required, properties,
// additionalProperties, pattern, minimum, maximum; titles and descriptions are documentation). Small enough to have
// no dependency, which matters because the native runner, the tests and the load driver's image all read manifests.
// A keyword this does not know is refused, so the schema cannot silently say more than is checked.
const KNOWN = new Set(['$schema', '$id', 'title', 'description', 'type', 'enum', 'required', 'properties', 'additionalProperties', 'pattern', 'minimum', 'maximum']);

const typeOf = (value) => (Array.isArray(value) ? 'array' : value === null ? 'null' : Number.isInteger(value) ? 'integer' : typeof value);

/** Every way value departs from schema, as "path: what" lines (an empty list when it conforms). */
function validate(schema, value, where = '') {
  for (const keyword of Object.keys(schema)) {
    if (!KNOWN.has(keyword)) throw new Error(`schema ${where || '/'}: keyword ${keyword} is not checked by lab-topology/schema.js`);
  }
  const problems = [];
  const at = where || '/';
  // type: one type, or a list of them (any of which will do).
  const types = schema.type === undefined ? [] : [].concat(schema.type);
  if (types.length && !types.some((type) => typeOf(value) === type || (type === 'number' && typeof value === 'number'))) {
    return [`${at}: must be ${types.map((type) => (type === 'object' ? 'an object' : `a ${type === 'array' ? 'list' : type}`)).join(' or ')}`];
  }
  if (schema.enum !== undefined && !schema.enum.includes(value)) problems.push(`${at}: must be one of ${schema.enum.join(', ')}`);
  if (schema.pattern !== undefined && !new RegExp(schema.pattern, 'u').test(value)) problems.push(`${at}: must match ${schema.pattern}`);
  if (schema.minimum !== undefined && value < schema.minimum) problems.push(`${at}: must be at least ${schema.minimum}`);
  if (schema.maximum !== undefined && value > schema.maximum) problems.push(`${at}: must be at most ${schema.maximum}`);
  if (typeOf(value) === 'object') {
    for (const name of schema.required || []) {
      if (!Object.prototype.hasOwnProperty.call(value, name)) problems.push(`${at}: ${name} is required`);
    }
    for (const [name, item] of Object.entries(value)) {
      const own = schema.properties && Object.prototype.hasOwnProperty.call(schema.properties, name) ? schema.properties[name] : undefined;
      const rule = own !== undefined ? own : schema.additionalProperties;
      if (rule === false) problems.push(`${at}: ${name} is not a field it may have${schema.properties ? ` (${Object.keys(schema.properties).join(', ')})` : ''}`);
      else if (rule !== undefined && rule !== true) problems.push(...validate(rule, item, `${where}/${name}`));
    }
  }
  return problems;
}

module.exports = { validate };
