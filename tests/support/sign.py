"""Signs challenges with real external libraries, so the server is checked against signatures
it did not make itself: eth-account for EIP-191 personal_sign, PyNaCl for Ed25519.

    sign.py evm-address <private-key-hex>
    sign.py evm-sign <private-key-hex>        (message on stdin)
    sign.py ed25519-public <seed-hex>
    sign.py ed25519-sign <seed-hex> [hex|base64]   (message on stdin)
"""
import base64
import sys

cmd, key = sys.argv[1], sys.argv[2]
if cmd.startswith("evm"):
    from eth_account import Account
    from eth_account.messages import encode_defunct

    account = Account.from_key(key)
    if cmd == "evm-address":
        print(account.address)
    else:
        message = sys.stdin.buffer.read().decode("utf-8")
        signed = Account.sign_message(encode_defunct(text=message), private_key=key)
        print("0x" + signed.signature.hex().removeprefix("0x"))
else:
    from nacl.signing import SigningKey

    signing = SigningKey(bytes.fromhex(key))
    if cmd == "ed25519-public":
        print(signing.verify_key.encode().hex())
    else:
        signature = signing.sign(sys.stdin.buffer.read()).signature
        encoding = sys.argv[3] if len(sys.argv) > 3 else "hex"
        print(signature.hex() if encoding == "hex" else base64.b64encode(signature).decode())
