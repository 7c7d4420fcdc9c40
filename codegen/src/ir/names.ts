/**
 * Names the generated code is written with. Each one is an option of the
 * generator (`GenerateOptions`, CLI flags); the defaults are this repository's.
 */
export interface OutputNames {
  /** The generated class with one method per operation (`methods.ts`). Default `PowerContextOperations`. */
  readonly clientClassName: string;
  /** Package that generated code imports the runtime from. Default `@powercontext/runtime`. */
  readonly runtimePackage: string;
  /**
   * Module that generated TypeScript imports the spec's types (`openapi.d.ts`) from:
   * the types package in the repository layout (default `@powercontext/types`),
   * the types file beside it (`./openapi.js`) in a standalone folder.
   */
  readonly typesModule: string;
  /** Vendor extension prefix the spec uses. Default `x-powercontext-`. */
  readonly extensionPrefix: string;
  /** The command named in every banner to regenerate a file. Default `npx powercontext-codegen`. */
  readonly regenerateCommand: string;
  /**
   * The request member that names the Scope an operation acts on, for a spec
   * that does not declare it (`x-powercontext-scope-field` on the document):
   * an operation whose request carries it is scoped (the `scope` column of the
   * operation tables). Default `scope_id`, the Python Client SDK's name.
   */
  readonly scopeField: string;
}

/** The names this repository's output uses. */
export const DEFAULT_NAMES: OutputNames = {
  clientClassName: "PowerContextOperations",
  runtimePackage: "@powercontext/runtime",
  typesModule: "@powercontext/types",
  extensionPrefix: "x-powercontext-",
  regenerateCommand: "npx powercontext-codegen",
  scopeField: "scope_id",
};
