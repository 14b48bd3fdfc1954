import type { RawResponse } from '../../../core/client/index.js';
import { defineCheck } from '../../Check.js';
import type { Check } from '../../Check.js';
import type { CheckContext } from '../../CheckContext.js';
import { answerText, expectNoResponse, refusedAsWhole, requestText, servesBatchOf, UNKNOWN_METHOD } from './wire.js';
import { stringifyJson } from '../../../core/json/index.js';
import { freeTransfer, heightParam, unusedAddress } from '../support.js';

/** A notification of chain_blockNumber: a valid request without an id member (JSON-RPC 2.0 §4.1). */
const notification = (ctx: CheckContext): string => requestText(ctx.method('chain_blockNumber'), '[]');

/** An all-notification batch (JSON-RPC 2.0 §7 "rpc call Batch (all notifications)"). */
const notificationBatch = (ctx: CheckContext): string => `[${notification(ctx)},${requestText(ctx.method('chain_health'), '[]')}]`;

/** Notifications (JSON-RPC 2.0 §4.1, §6): never answered, however they fare. */
export const notifications: Check[] = [
  defineCheck({
    id: 'transport/notification-not-answered',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a notification (a request without an "id" member) of any of the interface\'s methods gets no response object',
    spec: 'JSON-RPC 2.0 §4.1 ("The Server MUST NOT reply to a Notification"), §7 ("rpc call with positional parameters" notification example)',
    async run(ctx: CheckContext) {
      const res = await ctx.post(notification(ctx));
      expectNoResponse(ctx, res, 'a notification of chain_blockNumber');
      // Every method, each with well-formed params (an outside tester's node answered notifications of
      // chain_sendRawTransaction alone, with id null and the hash, and was certified): a transfer costs nothing here
      // (0 value, 0 fee, a fresh key), so it needs no funds; whether the node takes it is not judged.
      const others: [string, string][] = [
        ['chain_health', '[]'],
        ['chain_getBlockByHeight', stringifyJson([heightParam(ctx.profile.genesisHeightExact)])],
        ['chain_getAccount', stringifyJson([unusedAddress(ctx)])],
        ['chain_pouLocal', '[]'],
        ['chain_pouPeers', '[]'],
        ['net_peerCount', '[]'],
        ['chain_sendRawTransaction', stringifyJson([(await freeTransfer(ctx)).wire])],
      ];
      for (const [method, params] of others) expectNoResponse(ctx, await ctx.post(requestText(ctx.method(method), params)), `a notification of ${method}`);
      return `HTTP ${res.status}, no JSON in the body, for a notification of each of the ${others.length + 1} methods`;
    },
  }),
  defineCheck({
    id: 'transport/failed-notification-not-answered',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a notification that fails (unknown method, invalid params) gets no response either, not even an error',
    spec: 'JSON-RPC 2.0 §4.1 ("Notifications are not confirmable by definition ... the Client would not be aware of any errors")',
    async run(ctx: CheckContext) {
      expectNoResponse(ctx, await ctx.post(requestText(UNKNOWN_METHOD, '[]')), `a notification of the unknown method ${UNKNOWN_METHOD}`);
      expectNoResponse(ctx, await ctx.post(requestText(ctx.method('chain_getBlockByHeight'), '["one"]')), 'a notification of chain_getBlockByHeight with invalid params ["one"]');
    },
  }),
  defineCheck({
    id: 'transport/notification-batch-not-answered',
    level: 'MUST',
    category: 'transport',
    scope: 'node',
    title: 'a batch of notifications only gets nothing back: no array, not even an empty one',
    spec: 'JSON-RPC 2.0 §6 ("the server MUST NOT return an empty Array and should return nothing at all"), §7 ("rpc call Batch (all notifications)")',
    async run(ctx: CheckContext) {
      if (ctx.profile.maxBatch !== undefined && ctx.profile.maxBatch < 2) ctx.skip(`the profile's maxBatch is ${ctx.profile.maxBatch}: no batch of two to send (the spec leaves batch limits open)`);
      const res = await ctx.post(notificationBatch(ctx));
      // One error for the whole batch may be the node's batch limit (an outside tester's node taking one call a batch
      // failed here): if two plain calls in a batch are refused alike, the limit is below 2 and there is nothing to judge.
      if (!Array.isArray(res.json) && refusedAsWhole(res) && !(await servesBatchOf(ctx, 2))) {
        ctx.skip(`a batch of two notifications was refused as a whole (${answerText(res).slice(0, 160)}), and so was a batch of two chain_blockNumber calls: the node's batch limit is below 2 (the spec leaves batch limits open)`);
      }
      expectNoResponse(ctx, res, 'a batch of two notifications');
      return `HTTP ${res.status}, no JSON in the body`;
    },
  }),
  defineCheck({
    id: 'transport/notification-status',
    level: 'PROFILE',
    category: 'transport',
    scope: 'node',
    title: 'an answer with nothing to carry (a notification, a batch of notifications) has the profile\'s HTTP status and an empty body',
    spec: 'profile: docs/reference-profile.md#transport ("notifications-only 204 with an empty body"), docs/transport.md (HTTP status policy)',
    async run(ctx: CheckContext) {
      const want = ctx.profile.http.notification;
      const check = (res: RawResponse, what: string): void => {
        if (res.status !== want) ctx.fail(`${what} was answered with HTTP ${res.status}, not ${want}`, `HTTP ${want}, empty body`, answerText(res));
        if (res.body.length > 0) ctx.fail(`${what} was answered with a body (${res.body.length} bytes)`, `HTTP ${want}, empty body`, answerText(res));
      };
      check(await ctx.post(notification(ctx)), 'a notification');
      check(await ctx.post(notificationBatch(ctx)), 'a batch of notifications');
      return `HTTP ${want}, empty body`;
    },
  }),
];
