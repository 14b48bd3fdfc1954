import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createMessageSigner, generatePrivateKey } from '../../core/codec/index.js';
import type { MessageSigner } from '../../core/codec/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { loadOrCreateIdentity } from '../node/NodeIdentity.js';
import { encodeHello, MAX_HELLO_PEERS, parseHello, verifyHello } from './hello.js';
import type { Hello } from './hello.js';
import { thrownRefusal } from '../../test/support/peerClient.js';

type Wire = { [key: string]: JsonValue };

const alice = createMessageSigner(generatePrivateKey());
const mallory = createMessageSigner(generatePrivateKey());

function helloOf(signer: MessageSigner, over: Partial<Hello> = {}): Hello {
  return {
    id: signer.address,
    kind: 'MN',
    url: 'http://127.0.0.1:30545',
    score: 42n,
    height: 7n,
    chainId: 1n,
    genesisHash: 'ab'.repeat(32),
    peers: ['http://127.0.0.1:30546', 'https://peer.example:443'],
    timestamp: 1_700_000_000_000n,
    ...over,
  };
}

/** The hello as it travels, as a JSON object a test can bend. */
function wire(h: Hello, signer: MessageSigner = alice): Wire {
  const v = encodeHello(h, (m) => signer.sign(m));
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('encodeHello did not give an object');
  return v;
}


function malformed(v: JsonValue, reason: RegExp): void {
  const err = thrownRefusal(() => parseHello(v));
  expect(err.status).toBe(400);
  expect(err.message).toMatch(/^malformed hello: /);
  expect(err.message).toMatch(reason);
}

describe('signed hellos', () => {
  it('a hello signed with the sender\'s key parses and verifies back to the same fields', () => {
    const h = helloOf(alice);
    const signed = parseHello(wire(h));
    expect(signed.hello).toEqual(h);
    expect(signed.signature).toMatch(/^[0-9a-f]{128}$/);
    expect(verifyHello(signed)).toEqual(h);
  });

  it('round-trips the edges: no peers, zeros, u64 max, an LN', () => {
    const h = helloOf(alice, { kind: 'LN', peers: [], score: 0n, height: 0n, chainId: 0xffff_ffff_ffff_ffffn, timestamp: 0n });
    expect(verifyHello(parseHello(wire(h)))).toEqual(h);
  });

  it('also works with a node identity kept in a data dir', () => {
    const dir = mkdtempSync(join(tmpdir(), 'hello-test-'));
    try {
      const identity = loadOrCreateIdentity(dir);
      const h = { ...helloOf(alice), id: identity.id };
      const v = encodeHello(h, (m) => identity.sign(m));
      expect(verifyHello(parseHello(v))).toEqual(h);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  // Every signed field is covered: a relay or a man in the middle cannot change any of them.
  const tampered: [string, (w: Wire) => void][] = [
    ['score', (w) => (w['score'] = '43')],
    ['height', (w) => (w['height'] = '8')],
    ['kind', (w) => (w['kind'] = 'LN')],
    ['url', (w) => (w['url'] = 'http://10.0.0.1:30545')],
    ['peers (one added)', (w) => (w['peers'] = ['http://127.0.0.1:30546', 'https://peer.example:443', 'http://evil.example:1'])],
    ['peers (reordered)', (w) => (w['peers'] = ['https://peer.example:443', 'http://127.0.0.1:30546'])],
    ['timestamp', (w) => (w['timestamp'] = '1700000000001')],
    ['chain_id', (w) => (w['chain_id'] = '2')],
    ['genesis_hash', (w) => (w['genesis_hash'] = 'cd'.repeat(32))],
  ];
  for (const [field, bend] of tampered) {
    it(`refuses (401) a hello whose ${field} was changed after signing`, () => {
      const w = wire(helloOf(alice));
      bend(w);
      const signed = parseHello(w);
      const err = thrownRefusal(() => verifyHello(signed));
      expect(err.status).toBe(401);
      expect(err.message).toMatch(new RegExp(`signature does not verify for ${alice.address}`));
    });
  }

  it('refuses (401) a hello carrying a victim\'s id but signed by another key', () => {
    const forged = wire(helloOf(alice), mallory);
    const err = thrownRefusal(() => verifyHello(parseHello(forged)));
    expect(err.status).toBe(401);
    expect(err.message).toMatch(new RegExp(`signature does not verify for ${alice.address}`));
    // The same hello under the signer's own id is fine: the key, not the content, was wrong.
    expect(verifyHello(parseHello(wire(helloOf(mallory), mallory))).id).toBe(mallory.address);
  });
});

describe('parseHello reads strictly (400)', () => {
  const good = (): Wire => wire(helloOf(alice));
  const bent = (field: string, value: JsonValue): Wire => ({ ...good(), [field]: value });

  it('refuses anything but a JSON object', () => {
    for (const v of [null, 'hello', 42, true, [good()]] as JsonValue[]) malformed(v, /must be a JSON object/);
  });

  it('refuses an unknown field, naming it', () => {
    malformed({ ...good(), extra: 1 }, /unknown field "extra"/);
  });

  it('refuses a missing field, naming it', () => {
    for (const field of ['id', 'kind', 'url', 'score', 'height', 'chain_id', 'genesis_hash', 'peers', 'timestamp', 'signature']) {
      const w = good();
      delete w[field];
      malformed(w, new RegExp(`missing field ${field}$`));
    }
  });

  it('refuses an id that is not 64 lower-case hex', () => {
    for (const id of [alice.address.toUpperCase(), alice.address.slice(2), alice.address + '00', 'g'.repeat(64), 7]) malformed(bent('id', id), /id must be 64 lower-case hex/);
  });

  it('refuses a kind other than MN or LN', () => {
    for (const kind of ['mn', 'XN', '', null]) malformed(bent('kind', kind), /kind must be MN or LN/);
  });

  it('refuses a url that is not a base URL', () => {
    for (const url of ['127.0.0.1:30545', 'ftp://127.0.0.1:21', 'http://127.0.0.1:30545/', 'http://127.0.0.1:30545/p2p', 'http://a b', `http://${'a'.repeat(200)}`, 1]) {
      malformed(bent('url', url), /url must be a base URL/);
    }
  });

  it('refuses a number that is not a canonical decimal string', () => {
    for (const field of ['score', 'height', 'chain_id', 'timestamp']) {
      for (const n of ['01', '1.0', '-1', '+1', '1e3', ' 1', '', 'abc', 1]) malformed(bent(field, n), new RegExp(`${field} must be a canonical decimal string of a u64`));
    }
  });

  it('refuses a value above u64, and takes u64 max', () => {
    const max = 0xffff_ffff_ffff_ffffn;
    for (const field of ['score', 'height', 'chain_id', 'timestamp']) {
      malformed(bent(field, (max + 1n).toString()), new RegExp(`${field} must be a canonical decimal string of a u64`));
      malformed(bent(field, '9'.repeat(21)), new RegExp(`${field} must be a canonical decimal string of a u64`));
      expect(() => parseHello(bent(field, max.toString()))).not.toThrow();
    }
  });

  it(`refuses more than ${MAX_HELLO_PEERS} peers, and takes exactly that many`, () => {
    const peers = (n: number): string[] => Array.from({ length: n }, (_, i) => `http://10.0.${i >> 8}.${i & 255}:30545`);
    expect(parseHello(bent('peers', peers(MAX_HELLO_PEERS))).hello.peers).toHaveLength(MAX_HELLO_PEERS);
    malformed(bent('peers', peers(MAX_HELLO_PEERS + 1)), new RegExp(`peers lists ${MAX_HELLO_PEERS + 1} URLs; at most ${MAX_HELLO_PEERS}`));
  });

  it('refuses peers that are not an array of base URLs', () => {
    malformed(bent('peers', 'http://127.0.0.1:30546'), /peers must be an array of base URLs/);
    for (const p of ['not a url', 'http://127.0.0.1:30546/', 5, null]) malformed(bent('peers', ['http://127.0.0.1:30546', p]), /peers must be an array of base URLs/);
  });

  it('refuses a genesis_hash that is not 64 lower-case hex', () => {
    malformed(bent('genesis_hash', 'AB'.repeat(32)), /genesis_hash must be 64 lower-case hex/);
  });

  it('refuses a signature that is not 128 lower-case hex', () => {
    const sig = good()['signature'];
    if (typeof sig !== 'string') throw new Error('no signature');
    for (const s of [sig.slice(2), sig + '00', sig.toUpperCase(), 'z'.repeat(128), 0]) malformed(bent('signature', s), /signature must be 128 lower-case hex/);
  });
});
