import type { OperationTable, OperationValidators, ValidatorMap } from "../descriptor.js";

/**
 * The validators of every operation of `operations`, keyed by operationId.
 * `validators` lists them in the order of the table's keys (`Object.keys`),
 * which is how the generator writes them, so that the generated module does
 * not spell every operationId a second time (in a browser bundle of the whole
 * client that costs about half a kilobyte after gzip).
 *
 * @throws Error when the list and the table differ in length (they come from
 *   different generations of the same spec).
 */
export function validatorsByOperation(
  operations: OperationTable,
  validators: readonly OperationValidators[],
): ValidatorMap {
  const ids = Object.keys(operations);
  if (ids.length !== validators.length)
    throw new Error(`${validators.length} operations' validators for a table of ${ids.length}: regenerate the client`);
  return Object.fromEntries(ids.map((id, index) => [id, validators[index]]));
}
