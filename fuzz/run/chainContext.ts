/**
 * What the live chain offers the case generators: its height (valid calls ask for blocks around it), the
 * addresses it knows (proposers of recent blocks), and the chain id transactions are signed for. Read from
 * the first node that answers, through the profile's names and spellings; refreshed during the run.
 */
import type { RpcClient } from '../../core/client/index.js';
import type { JsonValue } from '../../core/json/index.js';
import { wireMethod, type Profile } from '../../profile/Profile.js';
import { asU64, readField } from '../../profile/readWire.js';

export interface ChainView {
  height: bigint;
  genesisHeight: number;
  addresses: string[];
  chainId: bigint;
}

const call = async (client: RpcClient, profile: Profile, method: string, params: JsonValue[] = []): Promise<JsonValue | undefined> => {
  try {
    return await client.call<JsonValue>(wireMethod(profile, method), params);
  } catch {
    return undefined;
  }
};

/** Reads the chain through `client`; what cannot be read keeps its fallback (the height the genesis, the chain id 1). */
export async function readChain(client: RpcClient, profile: Profile, before?: ChainView): Promise<ChainView> {
  const height = asU64(await call(client, profile, 'chain_blockNumber')) ?? before?.height ?? BigInt(profile.genesisHeight);
  const chainId = profile.chainId ?? before?.chainId ?? asU64(readField(profile, await call(client, profile, 'chain_health'), 'chain_id')) ?? 1n;
  const addresses = new Set(before?.addresses ?? []);
  for (let h = height; h > height - 3n && h >= BigInt(profile.genesisHeight); h--) {
    const proposer = readField(profile, await call(client, profile, 'chain_getBlockByHeight', [h <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(h) : h]), 'proposer');
    if (typeof proposer === 'string' && /^[0-9a-fA-F]{64}$/.test(proposer) && !/^0+$/.test(proposer)) addresses.add(proposer.toLowerCase());
  }
  return { height, genesisHeight: profile.genesisHeight, addresses: [...addresses].slice(-16), chainId };
}
