#!/usr/bin/env python3
"""Writes Tests/vectors/digest/sha256.json: SHA-256 and HMAC-SHA-256 cases
for HearthDigest's tests, from the standards' own examples (FIPS 180-4's
"abc" and two-block messages, RFC 4231's HMAC cases) and from Python's
hashlib and hmac on seeded random inputs of every length around the
64-byte block and its 56-byte padding boundary.

    python3 Tools/digest-vectors.py > Tests/vectors/digest/sha256.json
"""
import hashlib
import hmac
import json
import random

rng = random.Random(20261129)


def sha(source, message):
    return {"source": source, "message": message.hex(), "digest": hashlib.sha256(message).hexdigest()}


def mac(source, key, message, code=None):
    computed = hmac.new(key, message, hashlib.sha256).hexdigest()
    if code is not None:
        # The standard's printed answer, checked here against Python's.
        assert computed == code, source
    return {"source": source, "key": key.hex(), "message": message.hex(), "code": computed}


standard = [
    (b"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
    (b"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
    (b"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
     "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
    (b"abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
     "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1"),
]
hashes = []
for message, digest in standard:
    case = sha("FIPS 180-4 example", message)
    assert case["digest"] == digest
    hashes.append(case)
for length in list(range(0, 130)) + [191, 192, 193, 1000, 4096]:
    hashes.append(sha(f"hashlib, {length} random bytes", bytes(rng.randrange(256) for _ in range(length))))

what = b"what do ya want for nothing?"
macs = [
    mac("RFC 4231 case 1", b"\x0b" * 20, b"Hi There",
        "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"),
    mac("RFC 4231 case 2", b"Jefe", what,
        "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"),
    mac("RFC 4231 case 3", b"\xaa" * 20, b"\xdd" * 50,
        "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe"),
    mac("RFC 4231 case 4", bytes(range(1, 26)), b"\xcd" * 50,
        "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b"),
    mac("RFC 4231 case 6", b"\xaa" * 131, b"Test Using Larger Than Block-Size Key - Hash Key First",
        "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"),
    mac("RFC 4231 case 7", b"\xaa" * 131,
        b"This is a test using a larger than block-size key and a larger than block-size data. "
        b"The key needs to be hashed before being used by the HMAC algorithm.",
        "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2"),
]
for key_length in [0, 1, 32, 63, 64, 65, 200]:
    key = bytes(rng.randrange(256) for _ in range(key_length))
    message = bytes(rng.randrange(256) for _ in range(rng.randrange(0, 150)))
    macs.append(mac(f"hmac, a {key_length}-byte random key", key, message))

print(json.dumps({"sha256": hashes, "hmac": macs}, indent=1))
