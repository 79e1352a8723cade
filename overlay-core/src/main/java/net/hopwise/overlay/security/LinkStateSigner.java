package net.hopwise.overlay.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import net.hopwise.overlay.NodeId;

/**
 * Signs this node's link-state records and verifies other origins' before they are installed, so that
 * a node admitted to the overlay still cannot forge another's links or module records. What is
 * signed is the record's canonical bytes as the origin made them (everything but the age, which
 * relays change) behind a domain tag, the origin's name and the sequence.
 *
 * <p>Two forms of signature. Under a trusted-keys list every node knows every origin's key: the
 * field is the 64-byte signature. Under an authority a node knows only the authority, so a node with
 * a certificate signs with the certificate inside the field ({@link CertifiedSignature}, 217 bytes):
 * the verifier checks the authority's signature on it, that it names the origin, its validity and
 * revocation (the admission's own check, as for a handshake), then the content's signature.
 *
 * <p>Flooding hands the same copy to a node once per neighbour, and an origin refreshes unchanged
 * records; a verified (origin, sequence, digest of bytes and signature) is remembered, so each
 * version costs one Ed25519 verification per node, and a copy seen again costs a SHA-256. A
 * certificate's signature is remembered by the certificate's digest: it is verified once per node,
 * not once per version its key signs. A new admission ({@link #updateAdmission}, a revocation)
 * forgets every verified version, so that a revoked origin's next version is refused. Used on the
 * node's thread.
 */
public final class LinkStateSigner {
    public static final int SIGNATURE_BYTES = Crypto.SIGNATURE_BYTES;
    /** The field of a signature that carries the origin's certificate. */
    public static final int CERTIFIED_SIGNATURE_BYTES = CertifiedSignature.BYTES;
    private static final byte[] DOMAIN = "hopwise link state v1\0".getBytes(StandardCharsets.US_ASCII);
    private static final IdentityDirectory NO_KEYS = name -> List.of();

    /** The outcome of a verification. */
    public enum Verdict {
        VALID,
        /** No identity key is known for the origin's name. */
        UNKNOWN_ORIGIN,
        /**
         * The certificate carried with the signature does not admit the origin now: another name, an
         * authority not trusted or whose signature does not verify, revoked, or outside its validity.
         */
        NOT_ADMITTED,
        BAD_SIGNATURE;

        public boolean valid() {
            return this == VALID;
        }
    }

    /**
     * An Ed25519 verification: the JDK's in production; a benchmark may put another implementation
     * here, or one that remembers results across the simulated nodes of one process.
     */
    interface Ed25519 {
        boolean verify(byte[] publicKey, byte[] message, byte[] signature);
    }

    /** What verification cost so far: Ed25519 verifications of content and of certificates, and cache hits. */
    public record Stats(long verifications, long cacheHits, long certificateVerifications, long certificateCacheHits,
            long refused) {}

    private final String self;
    private final NodeKeys keys;
    private NodeCertificate own;
    private final LongSupplier wallClockSeconds;
    private final Ed25519 ed25519;
    private Admission admission;
    private IdentityDirectory directory;
    private final Map<Key, Boolean> verified;
    private final Map<Digest, Boolean> certificates;
    private long verifications;
    private long cacheHits;
    private long certificateVerifications;
    private long certificateCacheHits;
    private long refused;

    /**
     * A signer whose signatures are plain and that verifies against the keys {@code directory} names
     * (a trusted-keys list).
     *
     * @param cacheSize verified versions remembered: a few per origin of the overlay's size
     */
    public LinkStateSigner(String self, NodeKeys keys, IdentityDirectory directory, int cacheSize) {
        this(self, keys, null, null, directory, () -> 0, cacheSize, Crypto::verify);
    }

    private LinkStateSigner(String self, NodeKeys keys, NodeCertificate own, Admission admission,
            IdentityDirectory directory, LongSupplier wallClockSeconds, int cacheSize, Ed25519 ed25519) {
        this.ed25519 = ed25519;
        this.self = self;
        this.keys = keys;
        this.own = own;
        this.admission = admission;
        this.directory = directory;
        this.wallClockSeconds = wallClockSeconds;
        this.verified = lru(cacheSize);
        // Certificates: one per origin, while versions are several per origin.
        this.certificates = lru(Math.max(16, cacheSize / 2));
    }

    /**
     * The signer of a node with {@code config}: it signs with its certificate inside the field when it
     * has one (under an authority), plainly otherwise, and verifies both forms under the admission.
     */
    public static LinkStateSigner of(SecurityConfig config, int cacheSize) {
        return of(config, cacheSize, Crypto::verify);
    }

    /** The same, verifying with {@code ed25519}: for benchmarks. */
    static LinkStateSigner of(SecurityConfig config, int cacheSize, Ed25519 ed25519) {
        return new LinkStateSigner(config.name(), config.keys(), config.certificate(), config.admission(),
                directoryOf(config.admission()), config.wallClockSeconds(), cacheSize, ed25519);
    }

    /**
     * Whether other nodes can verify what this node signs: it is listed by key (a trusted-keys
     * admission), or it has a certificate to carry. A node under an authority without a certificate of
     * its own cannot sign (no neighbour would admit it anyway).
     */
    public boolean canSign() {
        return own != null || admission instanceof IdentityDirectory;
    }

    /** The longest signature {@link #sign} makes. */
    public int maxSignatureBytes() {
        return own == null ? SIGNATURE_BYTES : CERTIFIED_SIGNATURE_BYTES;
    }

    /** The signature of this node's record with {@code sequence}. */
    public byte[] sign(long sequence, byte[] canonical) {
        byte[] signature = keys.sign(message(self, sequence, canonical));
        return own == null ? signature : CertifiedSignature.of(own, signature).encode();
    }

    public Verdict verify(String origin, long sequence, byte[] canonical, byte[] signature) {
        Verdict v = check(origin, sequence, canonical, signature);
        if (!v.valid()) {
            refused++;
        }
        return v;
    }

    private Verdict check(String origin, long sequence, byte[] canonical, byte[] signature) {
        boolean certified = CertifiedSignature.isOne(signature);
        if (!certified && (signature == null || signature.length != SIGNATURE_BYTES)) {
            return Verdict.BAD_SIGNATURE;
        }
        Key key = new Key(origin, sequence, Crypto.sha256(canonical, signature));
        if (verified.get(key) != null) {
            cacheHits++;
            return Verdict.VALID;
        }
        byte[] message = message(origin, sequence, canonical);
        if (certified) {
            return checkCertified(origin, message, signature, key);
        }
        var candidates = directory.keys(origin);
        if (candidates.isEmpty()) {
            return Verdict.UNKNOWN_ORIGIN;
        }
        for (byte[] k : candidates) {
            verifications++;
            if (ed25519.verify(k, message, signature)) {
                verified.put(key, Boolean.TRUE);
                return Verdict.VALID;
            }
        }
        return Verdict.BAD_SIGNATURE;
    }

    private Verdict checkCertified(String origin, byte[] message, byte[] field, Key key) {
        if (admission == null) {
            return Verdict.UNKNOWN_ORIGIN;
        }
        CertifiedSignature s = CertifiedSignature.decode(field).orElseThrow(); // isOne held
        NodeCertificate certificate = s.certificate(origin).orElse(null);
        if (certificate == null) {
            return Verdict.BAD_SIGNATURE;
        }
        // The cheap checks (authority trusted, name, revocation, validity) run every time: a revocation or
        // an expiry takes effect at the next version, while the certificate's signature is verified once.
        Admission.Verdict admitted = admission.check(origin, certificate.identityKey(), certificate,
                wallClockSeconds.getAsLong(), this::certificateSignatureValid);
        if (!admitted.admitted()) {
            return Verdict.NOT_ADMITTED;
        }
        verifications++;
        if (!ed25519.verify(certificate.identityKey(), message, s.contentSignature())) {
            return Verdict.BAD_SIGNATURE;
        }
        verified.put(key, Boolean.TRUE);
        return Verdict.VALID;
    }

    private boolean certificateSignatureValid(NodeCertificate c) {
        Digest d = new Digest(Crypto.sha256(c.encode()));
        Boolean known = certificates.get(d);
        if (known != null) {
            certificateCacheHits++;
            return known;
        }
        certificateVerifications++;
        boolean valid = ed25519.verify(c.authorityKey(), c.signedBytes(), c.signature());
        certificates.put(d, valid); // a bad one too: sent again, it costs a hash, not a verification
        return valid;
    }

    /**
     * Verifies under {@code newAdmission} from now on (a new trust list, a revoked key or certificate)
     * and forgets every version verified before: one the revoked key signed is refused when it comes
     * again. What the node holds ages out unless its origin, still admitted, refreshes it.
     */
    public void updateAdmission(Admission newAdmission) {
        admission = newAdmission;
        directory = directoryOf(newAdmission);
        verified.clear();
    }

    /**
     * Signs with {@code renewed} inside the field from now on: the next version this node originates
     * carries it, and verifiers admit it by it.
     */
    public void renewCertificate(NodeCertificate renewed) {
        if (own == null || !own.name().equals(renewed.name())
                || !Arrays.equals(own.identityKey(), renewed.identityKey())) {
            throw new IllegalArgumentException("a renewed certificate replaces one for the same name and key");
        }
        own = renewed;
    }

    /** Ed25519 verifications of content done, for the meter of verification cost. */
    public long verifications() {
        return verifications;
    }

    /** Copies found verified already. */
    public long cacheHits() {
        return cacheHits;
    }

    public Stats stats() {
        return new Stats(verifications, cacheHits, certificateVerifications, certificateCacheHits, refused);
    }

    /** Forgets what was verified (after a revocation: keys that verified then may not now). */
    public void clear() {
        verified.clear();
    }

    /** This signer as the node SPI installs it ({@code ModuleContext.signLinkState}). */
    public net.hopwise.overlay.spi.LinkStateSigner spi() {
        return new net.hopwise.overlay.spi.LinkStateSigner() {
            @Override
            public int maxSignatureBytes() {
                return LinkStateSigner.this.maxSignatureBytes();
            }

            @Override
            public byte[] sign(byte[] content) {
                // The routing's content holds the sequence already.
                return LinkStateSigner.this.sign(0, content);
            }

            @Override
            public boolean verify(NodeId origin, String originName, byte[] content, byte[] signature) {
                return LinkStateSigner.this.verify(originName, 0, content, signature).valid();
            }
        };
    }

    private static IdentityDirectory directoryOf(Admission admission) {
        return admission instanceof IdentityDirectory d ? d : NO_KEYS;
    }

    private static <K> Map<K, Boolean> lru(int size) {
        return new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<K, Boolean> eldest) {
                return size() > size;
            }
        };
    }

    private static byte[] message(String origin, long sequence, byte[] canonical) {
        byte[] name = origin.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(DOMAIN.length + 1 + name.length + 8 + canonical.length).put(DOMAIN)
                .put((byte) name.length).put(name).putLong(sequence).put(canonical).array();
    }

    private record Digest(byte[] bytes) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Digest d && Arrays.equals(d.bytes, bytes);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(bytes);
        }
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
