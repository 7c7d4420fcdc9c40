// An application's program, compiled strictly (no skipLibCheck) against the
// installed tarballs and then run with node: it starts the embedded mock
// server, makes calls through the client and prints what it saw as JSON.
import { startMockServer } from "@powercontext/msw/server";
import { NotFoundError, PowerContextClient, type ResponseOf } from "@powercontext/sdk";

const server = await startMockServer({ seed: 7 });
try {
  const client = new PowerContextClient({ baseUrl: server.url, token: "pc-admin" });
  // Scope ids come from the server: the default Scope, or one made with createScope.
  const { scope_id } = await client.getDefaultScope();
  const { data: captured, response } = await client
    .captureContentSource({ scope_id, source_id: "note-1", content: "installed from a tarball" })
    .withResponse();
  const body: ResponseOf<"capture_content_source"> = captured;
  let missing: string | null = null;
  try {
    await client.getOperation({ operation_id: "no-such-operation" });
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
    missing = `${error.statusCode} ${error.code ?? "no code"}`;
  }
  const raw = { status: response.status, attempts: response.attempts, requestId: response.requestId !== null };
  process.stdout.write(`${JSON.stringify({ sourceId: body.source.source_id, missing, raw })}\n`);
} finally {
  await server.close();
}
