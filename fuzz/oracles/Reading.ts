/**
 * The oracles' own view of an expectation: fuzz/model.ts's Expectation with what judging needs besides (where
 * each rule comes from, a few words naming the request for messages, which ids may come back as null), and
 * the alternatives a request legally has (a byte order mark a node may ignore or refuse, duplicate member
 * names read either way). expectationOf.ts turns readings into the model's Expectation; judge.ts judges an
 * answer against each reading and keeps the best.
 */
import type { JsonValue } from '../../core/json/index.js';
import type { AnswerExpectation } from '../model.js';

/** One answer object due (a single request, or one element of a batch). */
export interface Due {
  /** The id the answer must carry (JSON-RPC 2.0 §5). */
  id: JsonValue;
  /** A numeric id's literal as the request wrote it, where its value (a double) may not hold it exactly (idLiterals.ts). */
  idText?: () => string | undefined;
  /**
   * An Invalid Request whose own id was valid: JSON-RPC 2.0 §5 lets the answer carry null ("If there was an
   * error in detecting the id in the Request object (e.g. Parse error/Invalid Request), it MUST be Null"),
   * and the suite accepts both (transport/invalid-request-wrong-version).
   */
  idMayBeNull: boolean;
  answer: AnswerExpectation;
  /** Where the rule behind `answer` comes from: "JSON-RPC 2.0 §4", "schema: methods/….schema.json#/definitions/params". */
  source: string;
  /** The request in a few words, for messages: "chain_getAccount [12345] (id 7)", "the body", "batch element 3". */
  what: string;
  /** The spec's name of the method it calls, when it calls one the profile knows: what a batch's finding is labelled with. */
  method?: string;
}

/** An HTTP status the profile gives an exchange that is not a JSON-RPC call. */
export interface ExpectedStatus {
  status: number;
  source: string;
  /**
   * Any 4xx is as right as `status`: where the profile's status was stated (and detected) for one request of a
   * kind but this one may differ (PUT beside GET; no content type, or another one, beside text/plain), a refusal
   * of any kind is the node's own choice.
   */
  orAnyRefusal?: boolean;
}

/** One legal reading of a request: what JSON-RPC 2.0 and the profile make of it. */
export type Reading =
  | { kind: 'single'; due: Due }
  | {
      kind: 'batch';
      elements: Due[];
      /** Elements that are notifications (they get no answer), for messages. */
      notifications: number;
      /** The profile states no maxBatch: the node may refuse the batch whole, with one error object and id null (JSON-RPC 2.0 §6). */
      wholeRefusal: boolean;
    }
  | { kind: 'nothing'; what: string; because: string }
  | {
      kind: 'unjudged';
      /** The request in a few words, for messages. */
      what: string;
      because: string;
      /** The status the profile gives it (a PROFILE matter, said so in the finding's source). */
      status?: ExpectedStatus;
      /** A JSON-RPC POST all the same (a body nested deeper than this reader goes): the answer must be JSON. */
      mustBeJson: boolean;
    };

/** Every legal reading of a request (the first is the primary), and the HTTP refusals it may get instead of an answer. */
export interface Readings {
  readings: Reading[];
  /**
   * Statuses that may come without a JSON body instead of the answer: any 4xx for a POST with no body (the suite,
   * transport/empty-post-answered: "-32700 or -32600 with id null, or a 4xx such as 411"), or a too-large status
   * where the profile states no body limit. undefined: none.
   */
  refusal?: { accepts: (status: number) => boolean; because: string };
  /** Why the node may close or reset the connection instead of answering (any failure but a timeout); undefined: it may not. */
  mayClose?: string;
}
