/**
 * The suite's entry on workerd: a Worker whose `fetch` runs every check
 * against the front named by the `url` and `refused` query parameters and
 * answers the results as JSON.
 */
import { conformanceChecks } from "./checks.js";
import { runChecks } from "./harness.js";

export default {
  async fetch(request: Request): Promise<Response> {
    const query = new URL(request.url).searchParams;
    const results = await runChecks(conformanceChecks(), {
      url: query.get("url") ?? "",
      refusedUrl: query.get("refused") ?? "",
      runtime: "workerd",
    });
    return Response.json(results);
  },
};
