package net.hopwise.overlay.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Revocations an overlay authority signed, so that they can travel through the overlay and be
 * believed by every node that trusts the authority, whoever carried them: the serials of
 * certificates and the identity keys no longer honoured, under a version that only grows (a node
 * applies a list newer than the last it applied from that authority). Carried as a link-state
 * record of the security module ({@link #KIND}), so that telling one node is enough.
 *
 * <pre>
 *   magic "HWR1" (4) | version (8) | authority key (32) | serial count (2) | serials (8 each)
 *   | key count (2) | identity keys (32 each) | the authority's Ed25519 signature of all before (64)
 * </pre>
 */
public record RevocationList(byte[] authorityKey, long version, Set<Long> serials, List<byte[]> keys, byte[] signature) {
    /** The link-state record kind the security module floods revocation lists under. */
    public static final int KIND = 0x5256;
    private static final byte[] MAGIC = "HWR1".getBytes(StandardCharsets.US_ASCII);
    private static final int FIXED = 4 + 8 + 32 + 2 + 2 + Crypto.SIGNATURE_BYTES;

    public RevocationList {
        serials = Set.copyOf(new TreeSet<>(serials));
        keys = List.copyOf(keys);
        if (authorityKey.length != Crypto.KEY_BYTES || signature.length != Crypto.SIGNATURE_BYTES
                || keys.stream().anyMatch(k -> k.length != Crypto.KEY_BYTES)) {
            throw new IllegalArgumentException("keys are 32 bytes and the signature 64");
        }
        if (serials.size() > 0xFFFF || keys.size() > 0xFFFF) {
            throw new IllegalArgumentException("too many revocations for one list");
        }
    }

    /** The list {@code version} of what the authority with {@code authorityPrivate} revokes. */
    public static RevocationList sign(byte[] authorityPrivate, long version, Set<Long> serials, List<byte[]> keys) {
        byte[] authority = Crypto.ed25519Public(authorityPrivate);
        RevocationList unsigned = new RevocationList(authority, version, serials, keys, new byte[Crypto.SIGNATURE_BYTES]);
        return new RevocationList(authority, version, serials, keys, Crypto.sign(authorityPrivate, unsigned.signedBytes()));
    }

    /** Whether the authority it names signed it. */
    public boolean signatureValid() {
        return Crypto.verify(authorityKey, signedBytes(), signature);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(FIXED + 8 * serials.size() + Crypto.KEY_BYTES * keys.size()).put(signedBytes())
                .put(signature).array();
    }

    /** The list in {@code bytes}, or empty for anything else (never an exception). */
    public static Optional<RevocationList> decode(byte[] bytes) {
        if (bytes == null || bytes.length < FIXED || !Arrays.equals(bytes, 0, 4, MAGIC, 0, 4)) {
            return Optional.empty();
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, 4, bytes.length - 4);
        long version = b.getLong();
        byte[] authority = new byte[Crypto.KEY_BYTES];
        b.get(authority);
        int n = b.getShort() & 0xFFFF;
        if (b.remaining() < 8L * n + 2 + Crypto.SIGNATURE_BYTES) {
            return Optional.empty();
        }
        Set<Long> serials = new TreeSet<>();
        for (int i = 0; i < n; i++) {
            serials.add(b.getLong());
        }
        int m = b.getShort() & 0xFFFF;
        if (b.remaining() != (long) Crypto.KEY_BYTES * m + Crypto.SIGNATURE_BYTES || serials.size() != n) {
            return Optional.empty(); // a serial twice would give two encodings of one list
        }
        List<byte[]> keys = new ArrayList<>();
        for (int i = 0; i < m; i++) {
            byte[] k = new byte[Crypto.KEY_BYTES];
            b.get(k);
            keys.add(k);
        }
        byte[] signature = new byte[Crypto.SIGNATURE_BYTES];
        b.get(signature);
        return Optional.of(new RevocationList(authority, version, serials, keys, signature));
    }

    private byte[] signedBytes() {
        ByteBuffer b = ByteBuffer.allocate(FIXED - Crypto.SIGNATURE_BYTES + 8 * serials.size()
                + Crypto.KEY_BYTES * keys.size());
        b.put(MAGIC).putLong(version).put(authorityKey).putShort((short) serials.size());
        new TreeSet<>(serials).forEach(b::putLong);
        b.putShort((short) keys.size());
        keys.forEach(b::put);
        return b.array();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RevocationList r && Arrays.equals(r.encode(), encode());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(encode());
    }

    @Override
    public String toString() {
        return "RevocationList[" + Crypto.fingerprint(authorityKey) + " v" + version + ", " + serials.size()
                + " serials, " + keys.size() + " keys]";
    }
}
