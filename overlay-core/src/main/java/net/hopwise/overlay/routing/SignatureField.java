package net.hopwise.overlay.routing;

import io.netty.buffer.ByteBuf;

/**
 * The origin's signature behind a version on the wire, shared by advertisements and extension
 * records: the top bit of the version's age says one follows its body, as u8 n (1..255) and n bytes.
 */
final class SignatureField {
    /** The age's top bit. */
    static final int SIGNED = 0x8000_0000;

    private SignatureField() {}

    /** The age field of a version with or without a signature. */
    static int age(int ageMillis, byte[] signature) {
        return signature == null ? ageMillis : ageMillis | SIGNED;
    }

    /** Bytes the signature adds behind the body: none without one. */
    static int size(byte[] signature) {
        return signature == null ? 0 : 1 + signature.length;
    }

    static void write(byte[] signature, ByteBuf out) {
        if (signature != null) {
            out.writeByte(signature.length);
            out.writeBytes(signature);
        }
    }

    /**
     * The signature at {@code p} (before {@code end}) of {@code body}, or null when it is cut short or
     * empty; the caller moves on by {@link #size} of what it got.
     */
    static byte[] read(ByteBuf body, int p, int end) {
        if (p >= end) {
            return null;
        }
        int n = body.getUnsignedByte(p);
        if (n == 0 || n > end - p - 1) {
            return null;
        }
        byte[] signature = new byte[n];
        body.getBytes(p + 1, signature);
        return signature;
    }
}
