// Validates the OpenAPI document on stdin with a real OpenAPI 3.1 validator and prints
// {valid, version, errors} as JSON. Run in its own Node process: the validator is an ES module,
// which Jest's CommonJS runtime on Node 20 cannot load.
import { Validator } from '@seriousme/openapi-schema-validator';

let input = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) input += chunk;
const validator = new Validator();
const result = await validator.validate(JSON.parse(input));
process.stdout.write(JSON.stringify({ valid: result.valid, version: validator.version, errors: result.errors ?? [] }));
