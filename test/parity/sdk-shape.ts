/**
 * The parts of `@powercontext/sdk` the parity runs read, typed loosely so that a
 * vector can call any operation by name and compare any error's fields.
 */
export interface SdkError extends Error {
  statusCode?: number;
  code?: string | null;
  serverMessage?: string | null;
  details?: unknown;
  requestId?: string | null;
}

export interface SdkModule {
  PowerContextClient: new (options: Record<string, unknown>) => Record<string, (request?: unknown) => Promise<unknown>>;
  ServerResponseError: new (...args: never[]) => SdkError;
  InvalidResponseError: new (...args: never[]) => SdkError;
  TransportError: new (...args: never[]) => SdkError;
}
