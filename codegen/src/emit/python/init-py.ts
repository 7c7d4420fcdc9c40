import type { ApiIr } from "../../ir/model.js";
import { pyBanner } from "./banner-py.js";

/** Emits the generated package's `__init__.py`: it names its modules and exports nothing else. */
export function emitPythonInit(ir: ApiIr): string {
  return `${pyBanner(ir)}"""The generated HTTP layer: \`models\` (pydantic), \`operations\` (one \`Operation\` per operation), \`schema\` (the contract) and \`extensions\`."""
`;
}
