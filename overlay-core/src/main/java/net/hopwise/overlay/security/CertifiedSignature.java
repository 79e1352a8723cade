package net.hopwise.overlay.security;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Optional;

/**
 * A link-state signature that carries its origin's certificate, for overlays admitted by an
 * authority: a node that verifies another's advertisement may never have met that node, so the
 * certificate that names the origin's key travels with what the key signed. Big-endian:
 *
 * <pre>
 *   format 1 (1) | identity key (32) | not before (8) | not after (8) | serial (8)
 *   | authority key (32) | authority's signature of the certificate (64) | signature of the content (64)
 * </pre>
 *
 * <p>The certificate travels without its magic, version and name: the name is the origin's (whose
 * advertisement names it, and whose id is its hash), and the rest is constant, so the verifier
 * rebuilds the certificate the authority signed byte for byte. That keeps the field at 217 bytes,
 * within the one-byte length the link-state wire gives a signature, whatever the name's length.
 */
record CertifiedSignature(byte[] identityKey, long notBefore, long notAfter, long serial, byte[] authorityKey,
        byte[] authoritySignature, byte[] contentSignature) {
    static final byte FORMAT = 1;
    static final int BYTES = 1 + Crypto.KEY_BYTES + 8 + 8 + 8 + Crypto.KEY_BYTES + 2 * Crypto.SIGNATURE_BYTES;

    /** The field for a content signature made with the key {@code certificate} names. */
    static CertifiedSignature of(NodeCertificate certificate, byte[] contentSignature) {
        return new CertifiedSignature(certificate.identityKey(), certificate.notBefore(), certificate.notAfter(),
                certificate.serial(), certificate.authorityKey(), certificate.signature(), contentSignature);
    }

    byte[] encode() {
        return ByteBuffer.allocate(BYTES).put(FORMAT).put(identityKey).putLong(notBefore).putLong(notAfter)
                .putLong(serial).put(authorityKey).put(authoritySignature).put(contentSignature).array();
    }

    /** Whether {@code field} claims to be one (by length and format), before it is decoded. */
    static boolean isOne(byte[] field) {
        return field != null && field.length == BYTES && field[0] == FORMAT;
    }

    /** The field these bytes encode, or empty when they are not one (never an exception). */
    static Optional<CertifiedSignature> decode(byte[] field) {
        if (!isOne(field)) {
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(field, 1, BYTES - 1);
        byte[] identityKey = new byte[Crypto.KEY_BYTES];
        in.get(identityKey);
        long notBefore = in.getLong();
        long notAfter = in.getLong();
        long serial = in.getLong();
        byte[] authorityKey = new byte[Crypto.KEY_BYTES];
        in.get(authorityKey);
        byte[] authoritySignature = new byte[Crypto.SIGNATURE_BYTES];
        in.get(authoritySignature);
        byte[] contentSignature = new byte[Crypto.SIGNATURE_BYTES];
        in.get(contentSignature);
        return Optional.of(new CertifiedSignature(identityKey, notBefore, notAfter, serial, authorityKey,
                authoritySignature, contentSignature));
    }

    /**
     * The certificate the field carries, for the origin named {@code name}; empty when no certificate
     * could be (an inverted validity, an invalid name): such a field is forged.
     */
    Optional<NodeCertificate> certificate(String name) {
        try {
            return Optional.of(new NodeCertificate(name, identityKey, notBefore, notAfter, serial, authorityKey,
                    authoritySignature));
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CertifiedSignature c && Arrays.equals(encode(), c.encode());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(contentSignature);
    }

    @Override
    public String toString() {
        return "CertifiedSignature[" + Crypto.fingerprint(identityKey) + " serial " + serial + "]";
    }
}
