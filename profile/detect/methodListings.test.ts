import { describe, expect, it } from 'vitest';
import { listedNames, listedNamespaces } from './methodListings.js';
import type { CallOutcome } from './Prober.js';
import type { JsonValue } from '../../core/json/index.js';

const result = (value: JsonValue): CallOutcome => ({ kind: 'result', result: value, status: 200 });
const notFound: CallOutcome = { kind: 'error', code: -32601, message: 'Method not found', data: undefined, status: 200 };

describe('listedNames', () => {
  it('reads OpenRPC, Substrate and introspection listings', () => {
    expect(listedNames('rpc.discover', result({ openrpc: '1.2.6', methods: [{ name: 'acme_health' }, { name: 7 }, 'x'] }))).toEqual(['acme_health']);
    expect(listedNames('rpc_methods', result({ version: 1, methods: ['acme_health', 'rpc_methods', 3] }))).toEqual(['acme_health', 'rpc_methods']);
    expect(listedNames('rpc_methods', result(['acme_health']))).toEqual(['acme_health']);
    expect(listedNames('system.listMethods', result(['acme.health', 'system.listMethods']))).toEqual(['acme.health', 'system.listMethods']);
  });

  it('an error, or a result of another shape, lists nothing', () => {
    expect(listedNames('rpc.discover', notFound)).toBeUndefined();
    expect(listedNames('rpc.discover', result(['acme_health']))).toBeUndefined();
    expect(listedNames('system.listMethods', result({ methods: ['acme_health'] }))).toBeUndefined();
    expect(listedNames('rpc_methods', result('acme_health'))).toBeUndefined();
  });
});

describe('listedNamespaces', () => {
  it("rpc_modules' namespaces, without the spec's own net and anything that cannot be a prefix", () => {
    expect(listedNamespaces(result({ acme: '1.0', net: '1.0', rpc: '1.0', 'bad ns': '1.0' }))).toEqual(['acme', 'rpc']);
    expect(listedNamespaces(notFound)).toBeUndefined();
    expect(listedNamespaces(result(['acme']))).toBeUndefined();
  });
});
