// A browser app's program: DOM types and no @types/node. Its TypeScript
// resolves the SDK's default (browser) entry, whose types must stand without
// undici and without Node's.
import { PowerContextClient, createCaller, getLivenessDescriptor, type DispatcherLike } from "@powercontext/sdk";

const client = new PowerContextClient({
  baseUrl: "https://pc.example.com",
  token: "pc-token",
  fetch: window.fetch.bind(window),
});
const getLiveness = createCaller({ baseUrl: "https://pc.example.com" }, getLivenessDescriptor);
// Structural: any object with undici's request method fits, so no undici types are needed here.
const dispatcher: DispatcherLike = { request: () => undefined };
void dispatcher;
export const calls: Array<Promise<unknown>> = [client.getLiveness(), getLiveness(undefined)];
