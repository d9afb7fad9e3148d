/** Argument validation and GET query mapping: bad input becomes a clear ApiError, never a crash. */
import { ApiError } from '../../../services/kernel/errors';
import { defineTool, READ_ONLY } from '../../../services/tools/tool';
import { argumentReader } from '../../../services/tools/validate';
import { queryToArgs } from '../../../services/transports/http/get-routes';

const tool = defineTool<{ start_date?: string; bedrooms?: number; flag?: boolean }, unknown>({
  name: 'sample_tool',
  title: 'Sample',
  description: 'A tool used only by this test to exercise validation and query mapping rules.',
  inputSchema: {
    type: 'object',
    properties: {
      start_date: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' },
      bedrooms: { type: 'integer', minimum: 0 },
      flag: { type: 'boolean' },
    },
    additionalProperties: false,
  },
  outputSchema: { type: 'object' },
  annotations: READ_ONLY,
  get: { path: '/sample', renames: { check_in: 'start_date' }, query: ['bedrooms', 'flag'], summary: 'x' },
  handler: async () => ({ data: {} }),
});

const validateStrict = argumentReader<object>(tool.inputSchema, 'json');
const validateGet = argumentReader<object>(tool.inputSchema, 'query');

function errorOf(fn: () => unknown): ApiError {
  try {
    fn();
  } catch (err) {
    if (err instanceof ApiError) return err;
    throw err;
  }
  throw new Error('expected an ApiError');
}

describe('tool argument validation', () => {
  it.each(['check_in', 'check_out', 'checkin', 'checkout', 'start', 'end'])('rejects the foreign date name %s and points to start_date/end_date', (name) => {
    const err = errorOf(() => validateStrict({ [name]: '2027-01-01' }));
    expect(err.status).toBe(400);
    expect(err.code).toBe('unknown_parameter');
    expect(err.message).toMatch(/(start|end)_date/);
  });

  it('does not coerce types on the tool server', () => {
    expect(errorOf(() => validateStrict({ bedrooms: '2' })).code).toBe('invalid_parameters');
  });

  it('coerces query-string values on the GET side', () => {
    expect(validateGet({ bedrooms: '2', flag: 'true' })).toEqual({ bedrooms: 2, flag: true });
  });

  it.each(['1e2', '0x1E', '0b11', '2.5', ' ', 'Infinity'])('refuses the GET value %j for a whole number, in words, not coerced', (text) => {
    const err = errorOf(() => validateGet({ bedrooms: text }));
    expect(err.code).toBe('invalid_parameters');
    expect(err.message).toContain('"bedrooms" must be a whole number in decimal digits');
  });

  it('takes signed and padded decimal digits on the GET side', () => {
    expect(validateGet({ bedrooms: ' 3 ' })).toEqual({ bedrooms: 3 });
    expect(validateGet({ bedrooms: '+2' })).toEqual({ bedrooms: 2 });
  });

  it('refuses a GET value given twice for an argument that takes one', () => {
    const err = errorOf(() => validateGet({ bedrooms: ['2', '3'] }));
    expect(err.code).toBe('invalid_parameters');
    expect(err.message).toBe('"bedrooms" is given more than once; it takes one value.');
  });

  it('rejects non-object arguments', () => {
    expect(errorOf(() => validateStrict([1, 2])).code).toBe('invalid_parameters');
    expect(errorOf(() => validateStrict('x')).code).toBe('invalid_parameters');
  });

  it('treats missing arguments as an empty object', () => {
    expect(validateStrict(undefined)).toEqual({});
  });
});

describe('GET query → tool arguments', () => {
  const route = tool.get!;

  it('renames check_in to start_date', () => {
    expect(queryToArgs(route, { check_in: '2027-01-01', bedrooms: '1' }, {})).toEqual({ start_date: '2027-01-01', bedrooms: '1' });
  });

  it('rejects an unknown parameter, listing the accepted ones', () => {
    const err = errorOf(() => queryToArgs(route, { sort: 'x' }, {}));
    expect(err.code).toBe('unknown_parameter');
    expect(err.message).toContain('check_in');
  });

  it('rejects the tool name when the GET name is a rename (one name per argument on GET)', () => {
    expect(errorOf(() => queryToArgs(route, { start_date: '2027-01-01' }, {})).code).toBe('unknown_parameter');
  });
});
