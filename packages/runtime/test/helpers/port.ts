import { fetchTransport } from "../../src/transport/fetch-adapter.js";
import type { TransportResponse } from "../../src/transport/port.js";

/** A fetch `Response` seen through the transport port, as the fetch adapter hands it over. */
export function viaPort(response: Response): Promise<TransportResponse> {
  return fetchTransport(async () => response).send({
    method: "GET",
    url: "https://pc.example.com/x",
    headers: {},
    body: undefined,
    timeoutMs: 10_000,
    signal: undefined,
  });
}
