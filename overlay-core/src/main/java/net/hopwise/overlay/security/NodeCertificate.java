package net.hopwise.overlay.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Optional;
import net.hopwise.overlay.NodeId;

/**
 * An authority's statement that a node name goes with an identity key for a period: the compact
 * binary certificate of overlay admission (docs/security.md, "Certificate format"). Big-endian:
 *
 * <pre>
 *   magic "HWC1" (4) | version 1 (1) | name length L (1) | name (L, ASCII, a valid node name)
 *   | identity key (32, Ed25519) | not before (8, epoch s) | not after (8, epoch s) | serial (8)
 *   | authority key (32, Ed25519) | signature (64, Ed25519 by the authority over all bytes before it)
 * </pre>
 */
public record NodeCertificate(String name, byte[] identityKey, long notBefore, long notAfter, long serial,
        byte[] authorityKey, byte[] signature) {
    private static final byte[] MAGIC = {'H', 'W', 'C', '1'};
    private static final int VERSION = 1;
    private static final int FIXED_BYTES = 4 + 1 + 1 + 32 + 8 + 8 + 8 + 32 + Crypto.SIGNATURE_BYTES;
    public static final int MAX_BYTES = FIXED_BYTES + NodeId.MAX_NAME_LENGTH;

    public NodeCertificate {
        NodeId.requireValidName(name);
        if (identityKey.length != Crypto.KEY_BYTES || authorityKey.length != Crypto.KEY_BYTES
                || signature.length != Crypto.SIGNATURE_BYTES) {
            throw new IllegalArgumentException("keys are 32 bytes and signatures 64");
        }
        if (notAfter < notBefore) {
            throw new IllegalArgumentException("a certificate's validity ends before it starts");
        }
        identityKey = identityKey.clone();
        authorityKey = authorityKey.clone();
        signature = signature.clone();
    }

    /** Signs a certificate with the authority's private key (an Ed25519 seed). */
    public static NodeCertificate sign(byte[] authorityPrivate, String name, byte[] identityKey, long notBefore,
            long notAfter, long serial) {
        byte[] authorityKey = Crypto.ed25519Public(authorityPrivate);
        byte[] unsigned = body(name, identityKey, notBefore, notAfter, serial, authorityKey);
        return new NodeCertificate(name, identityKey, notBefore, notAfter, serial, authorityKey,
                Crypto.sign(authorityPrivate, unsigned));
    }

    /** Whether the signature is the named authority's over the rest; says nothing of trust or time. */
    public boolean signatureValid() {
        return Crypto.verify(authorityKey, signedBytes(), signature);
    }

    /** What the authority signed: every byte of the encoding before the signature. */
    byte[] signedBytes() {
        return body(name, identityKey, notBefore, notAfter, serial, authorityKey);
    }

    public boolean validAt(long epochSeconds) {
        return notBefore <= epochSeconds && epochSeconds <= notAfter;
    }

    public byte[] encode() {
        byte[] body = body(name, identityKey, notBefore, notAfter, serial, authorityKey);
        return Crypto.concat(body, signature);
    }

    /** The certificate these bytes encode, or empty when they are not one (never an exception). */
    public static Optional<NodeCertificate> decode(byte[] bytes) {
        if (bytes == null || bytes.length < FIXED_BYTES + 1 || bytes.length > MAX_BYTES
                || !Arrays.equals(bytes, 0, 4, MAGIC, 0, 4) || bytes[4] != VERSION) {
            return Optional.empty();
        }
        int nameLength = bytes[5] & 0xFF;
        if (bytes.length != FIXED_BYTES + nameLength) {
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(bytes, 6, bytes.length - 6);
        byte[] nameBytes = new byte[nameLength];
        in.get(nameBytes);
        byte[] identityKey = new byte[32];
        in.get(identityKey);
        long notBefore = in.getLong();
        long notAfter = in.getLong();
        long serial = in.getLong();
        byte[] authorityKey = new byte[32];
        in.get(authorityKey);
        byte[] signature = new byte[Crypto.SIGNATURE_BYTES];
        in.get(signature);
        try {
            return Optional.of(new NodeCertificate(new String(nameBytes, StandardCharsets.US_ASCII), identityKey,
                    notBefore, notAfter, serial, authorityKey, signature));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // a bad name or an inverted validity
        }
    }

    private static byte[] body(String name, byte[] identityKey, long notBefore, long notAfter, long serial,
            byte[] authorityKey) {
        byte[] nameBytes = NodeId.requireValidName(name).getBytes(StandardCharsets.US_ASCII);
        ByteBuffer out = ByteBuffer.allocate(FIXED_BYTES - Crypto.SIGNATURE_BYTES + nameBytes.length);
        out.put(MAGIC).put((byte) VERSION).put((byte) nameBytes.length).put(nameBytes).put(identityKey)
                .putLong(notBefore).putLong(notAfter).putLong(serial).put(authorityKey);
        return out.array();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof NodeCertificate c && Arrays.equals(encode(), c.encode());
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(signature);
    }

    @Override
    public String toString() {
        return "NodeCertificate[" + name + " " + Crypto.fingerprint(identityKey) + " valid " + notBefore + ".."
                + notAfter + " serial " + serial + " by " + Crypto.fingerprint(authorityKey) + "]";
    }
}
