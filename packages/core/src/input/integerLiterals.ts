import type { FieldProblem } from '../errors/ValidationError.js';

/**
 * The source text of the body's top-level number values, by field, when the transport has it: JSON.parse turns
 * `4.9999999999999999` into the integer 5, so only the text shows that the client sent a fraction.
 */
export type NumberLiterals = ReadonlyMap<string, string>;

/** A problem for each of `integerFields` whose number was written with a fraction or an exponent (`1.0`, `1e1`). */
export function integerLiteralProblems(numberLiterals: NumberLiterals, integerFields: ReadonlySet<string>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  for (const [field, literal] of numberLiterals) {
    if (integerFields.has(field) && /[.eE]/.test(literal)) {
      problems.push({ field, message: `${field} must be an integer written without a fraction or exponent (got ${literal.slice(0, 40)})` });
    }
  }
  return problems;
}
