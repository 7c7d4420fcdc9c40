/**
 * Brands that let `instanceof` recognise an SDK error made by another installed
 * copy of this runtime (two versions in one `node_modules`, a bundled and an
 * unbundled copy, a test double's copy). Each error class carries a static
 * `brand`, `Symbol.for("@powercontext/runtime/<ClassName>")`, which is the same
 * symbol in every copy because `Symbol.for` uses the global registry; the
 * classes' `[Symbol.hasInstance]` compares brands along the value's prototype
 * chain instead of constructors.
 */

/** The brand of the error class named `className`: the same symbol in every copy of the runtime. */
export function errorBrand(className: string): symbol {
  return Symbol.for(`@powercontext/runtime/${className}`);
}

/**
 * Declares an SDK error class, in its static block: its own static `brand`
 * ({@link errorBrand} of `className`) and its stable `name`, which every
 * instance then carries as an own member (class names do not survive
 * minification). The one place these two are written for every class.
 */
// biome-ignore lint/complexity/noBannedTypes: any class, abstract ones included
export function declareErrorClass(errorClass: Function, className: string): void {
  Object.defineProperty(errorClass, "brand", { value: errorBrand(className), configurable: true });
  Object.defineProperty(errorClass.prototype, "name", { value: className, writable: true, configurable: true });
}

/** Anything with an own static `brand`, as every SDK error class has. */
interface Branded {
  readonly brand?: symbol;
}

/**
 * True when `value` is an instance of `target` by brand: some constructor on
 * `value`'s prototype chain has `target`'s brand as its own static `brand`.
 * A class without its own brand (an application's subclass of an SDK error)
 * falls back to the ordinary prototype check.
 */
// biome-ignore lint/complexity/noBannedTypes: any class, abstract ones included, whose instances are checked
export function hasBrand(target: Function, value: unknown): boolean {
  const brand = Object.hasOwn(target, "brand") ? (target as Branded).brand : undefined;
  if (typeof brand !== "symbol") return Function.prototype[Symbol.hasInstance].call(target, value);
  if (typeof value !== "object" || value === null) return false;
  for (let proto: unknown = Object.getPrototypeOf(value); proto !== null; proto = Object.getPrototypeOf(proto)) {
    const owner: unknown = Object.hasOwn(proto as object, "constructor")
      ? (proto as { constructor: unknown }).constructor
      : undefined;
    if (typeof owner === "function" && Object.hasOwn(owner, "brand") && (owner as Branded).brand === brand) return true;
  }
  return false;
}
