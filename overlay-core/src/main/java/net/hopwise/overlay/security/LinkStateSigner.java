package net.hopwise.overlay.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Signs this node's link-state records and verifies other origins' before they are installed, so that
 * a node admitted to the overlay still cannot forge another's links or module records. What is
 * signed is the record's canonical bytes as the origin made them (everything but the age, which
 * relays change) behind a domain tag, the origin's name and the sequence.
 *
 * <p>Flooding hands the same copy to a node once per neighbour, and an origin refreshes unchanged
 * records; a verified (origin, sequence, digest of bytes and signature) is remembered, so each
 * version costs one Ed25519 verification per node, and a copy seen again costs a SHA-256.
 * Used on the node's thread.
 */
public final class LinkStateSigner {
    public static final int SIGNATURE_BYTES = Crypto.SIGNATURE_BYTES;
    private static final byte[] DOMAIN = "hopwise link state v1\0".getBytes(StandardCharsets.US_ASCII);

    /** The outcome of a verification. */
    public enum Verdict {
        VALID,
        /** No identity key is known for the origin's name. */
        UNKNOWN_ORIGIN,
        BAD_SIGNATURE;

        public boolean valid() {
            return this == VALID;
        }
    }

    private final String self;
    private final NodeKeys keys;
    private final IdentityDirectory directory;
    private final Map<Key, Boolean> verified;
    private long verifications;
    private long cacheHits;

    /** @param cacheSize verified versions remembered: a few per origin of the overlay's size */
    public LinkStateSigner(String self, NodeKeys keys, IdentityDirectory directory, int cacheSize) {
        this.self = self;
        this.keys = keys;
        this.directory = directory;
        this.verified = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, Boolean> eldest) {
                return size() > cacheSize;
            }
        };
    }

    /** The signature of this node's record with {@code sequence}. */
    public byte[] sign(long sequence, byte[] canonical) {
        return keys.sign(message(self, sequence, canonical));
    }

    public Verdict verify(String origin, long sequence, byte[] canonical, byte[] signature) {
        if (signature == null || signature.length != SIGNATURE_BYTES) {
            return Verdict.BAD_SIGNATURE;
        }
        Key key = new Key(origin, sequence, Crypto.sha256(canonical, signature));
        if (verified.get(key) != null) {
            cacheHits++;
            return Verdict.VALID;
        }
        var candidates = directory.keys(origin);
        if (candidates.isEmpty()) {
            return Verdict.UNKNOWN_ORIGIN;
        }
        byte[] message = message(origin, sequence, canonical);
        for (byte[] k : candidates) {
            verifications++;
            if (Crypto.verify(k, message, signature)) {
                verified.put(key, Boolean.TRUE);
                return Verdict.VALID;
            }
        }
        return Verdict.BAD_SIGNATURE;
    }

    /** Ed25519 verifications done, for the meter of verification cost. */
    public long verifications() {
        return verifications;
    }

    /** Copies found verified already. */
    public long cacheHits() {
        return cacheHits;
    }

    /** Forgets what was verified (after a revocation: keys that verified then may not now). */
    public void clear() {
        verified.clear();
    }

    private static byte[] message(String origin, long sequence, byte[] canonical) {
        byte[] name = origin.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(DOMAIN.length + 1 + name.length + 8 + canonical.length).put(DOMAIN)
                .put((byte) name.length).put(name).putLong(sequence).put(canonical).array();
    }

    private record Key(String origin, long sequence, byte[] digest) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Key k && k.sequence == sequence && k.origin.equals(origin)
                    && Arrays.equals(k.digest, digest);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * origin.hashCode() + Long.hashCode(sequence)) + Arrays.hashCode(digest);
        }
    }
}
