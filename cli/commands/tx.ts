import type { Command } from '../Command.js';
import { CliError } from '../CliError.js';
import { CommandLine } from '../CommandLine.js';
import { decodeTransaction, formatTokens, hexToFixedBytes, signTransaction, verifyTransaction } from '../../core/codec/index.js';
import { parseAmount as amount } from '../parseAmount.js';
import type { SignedTransaction } from '../../core/codec/index.js';

const HELP = `Usage:
  chainrpc tx sign --key <private-key-hex> --to <address> --value <amount> --nonce <n>
                   [--fee <amount>] [--chain-id <n>]
  chainrpc tx decode <signed-transaction-hex>

Subcommands (each with its own --help, e.g. chainrpc tx sign --help):
  sign    builds and signs a transfer in the reference wire format (docs/transaction-codec.md)
          and prints it as JSON; "wire" is the chain_sendRawTransaction parameter.
  decode  decodes a signed transaction, verifies its signature strictly and prints the fields;
          exits 1 when the signature does not verify.

Options:
  -h, --help

Exit codes: 0 signed, or decoded and verified; 1 the signature does not verify (decode); 2 usage
error or malformed input; 4 internal error (a bug in chainrpc).`;

const SIGN_HELP = `Usage: chainrpc tx sign --key <private-key-hex> --to <address> --value <amount> --nonce <n>
                        [--fee <amount>] [--chain-id <n>]

Builds and signs a transfer in the reference wire format (docs/transaction-codec.md) and prints it
as JSON; "wire" is the chain_sendRawTransaction parameter.

Amounts are base units (a decimal integer), or token units with a "token" suffix:
"1000000000000000" and "0.001token" are the same fee (1 token unit = 10^18 base units).

Options:
  --key <hex>        the sender's 32-byte private key, 64 hex characters (see chainrpc keygen)
  --to <address>     recipient address, 64 hex characters
  --value <amount>   amount to send
  --nonce <n>        the sender's current nonce (chain_getAccount)
  --fee <amount>     fee (default 0.001token)
  --chain-id <n>     the network's chain id (chain_health; default 1)
  -h, --help

Exit codes: 0 signed (printed); 2 usage error or malformed input; 4 internal error (a bug in
chainrpc).`;

const DECODE_HELP = `Usage: chainrpc tx decode <signed-transaction-hex>

Decodes a signed transaction in the reference wire format (docs/transaction-codec.md), verifies its
signature strictly and prints the fields as JSON, with signature_valid and, when it does not
verify, the problem.

Options:
  -h, --help

Exit codes: 0 decoded and verified; 1 the signature does not verify; 2 usage error or malformed
input; 4 internal error (a bug in chainrpc).`;


function toJson(tx: SignedTransaction): Record<string, string> {
  return {
    hash: tx.hash,
    chain_id: tx.chainId.toString(),
    sender: tx.sender,
    to: tx.to,
    value: tx.value.toString(),
    value_tokens: formatTokens(tx.value),
    nonce: tx.nonce.toString(),
    fee: tx.fee.toString(),
    fee_tokens: formatTokens(tx.fee),
    signature: tx.signature,
    wire: tx.wire,
  };
}

const signLine = new CommandLine('tx sign', {
  key: { kind: 'text', value: '<hex>', required: true },
  to: { kind: 'text', value: '<address>', required: true },
  value: { kind: 'text', value: '<amount>', required: true },
  nonce: { kind: 'uint', value: '<n>', required: true },
  fee: { kind: 'text', value: '<amount>', default: '0.001token' },
  'chain-id': { kind: 'uint', value: '<n>', default: 1n },
});
const decodeLine = new CommandLine('tx decode', {}, true);

export const tx: Command = {
  name: 'tx',
  summary: 'Sign a transfer, or decode and strictly verify a signed transaction',
  help: HELP,
  commandLines: [],
  subcommands: [
    { name: 'sign', help: SIGN_HELP, commandLine: signLine },
    { name: 'decode', help: DECODE_HELP, commandLine: decodeLine },
  ],
  run(argv) {
    const [sub, ...rest] = argv;
    if (sub === 'sign') {
      const { values } = signLine.parse(rest);
      const key = hexToFixedBytes(values.key, 32, 'private key');
      const signed = signTransaction(
        {
          chainId: values['chain-id'],
          to: values.to,
          value: amount(values.value, 'value'),
          nonce: values.nonce,
          fee: amount(values.fee, 'fee'),
        },
        key,
      );
      console.log(JSON.stringify(toJson(signed), null, 2));
      return Promise.resolve(0);
    }
    if (sub === 'decode') {
      const [hex, ...extra] = decodeLine.parse(rest).positionals;
      if (hex === undefined || extra.length > 0) throw new CliError('tx decode: give exactly one signed transaction hex (see chainrpc tx decode --help)');
      const decoded = decodeTransaction(hex);
      const verdict = verifyTransaction(decoded);
      console.log(JSON.stringify({ ...toJson(decoded), signature_valid: verdict.ok, ...(verdict.ok ? {} : { problem: `${verdict.code}: ${verdict.reason}` }) }, null, 2));
      return Promise.resolve(verdict.ok ? 0 : 1);
    }
    throw new CliError(sub === undefined ? 'tx: say sign or decode (see chainrpc tx --help)' : `tx: unknown subcommand "${sub}"; use sign or decode`);
  },
};
