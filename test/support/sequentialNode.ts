/**
 * A single-threaded node, as a test needs one: requests are served one at a time, in the order they came, each
 * costing the node `costMs(body)` before `answer(body)` is written. What waits behind a costly request waits for
 * it, which is what a fuzzer timing cases on such a node must not take for the waiting request's own cost.
 */
import { startTestServer, type TestServer } from './startTestServer.js';

export function startSequentialNode(costMs: (body: string) => number, answer: (body: string) => string): Promise<TestServer> {
  let turn = Promise.resolve();
  return startTestServer((request, res) => {
    const body = request.body.toString();
    const served = turn.then(async () => {
      await new Promise((r) => setTimeout(r, costMs(body)));
      if (!res.destroyed) res.writeHead(200, { 'content-type': 'application/json' }).end(answer(body));
    });
    turn = served;
    return served;
  });
}
