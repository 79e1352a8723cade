package net.hopwise.overlay.security;

/**
 * The link security datagrams (docs/security.md, "Wire format"). Every datagram of a secured node
 * starts with one of these type bytes; indexes are a receiver's random 32-bit names for its
 * handshakes and sessions, so that a datagram finds its keys without trusting its source address.
 *
 * <pre>
 *   INIT      type | sender index (4) | Noise message 1 (32) | cookie (16, zeros when none)
 *   COOKIE    type | receiver index (4) | cookie (16)
 *   RESPONSE  type | sender index (4) | receiver index (4) | Noise message 2
 *   FINAL     type | receiver index (4) | Noise message 3
 *   DATA      type | receiver index (4) | counter (8) | ciphertext | tag (16)
 * </pre>
 */
final class SecureWire {
    static final byte INIT = (byte) 0xA1;
    static final byte COOKIE = (byte) 0xA2;
    static final byte RESPONSE = (byte) 0xA3;
    static final byte FINAL = (byte) 0xA4;
    static final byte DATA = (byte) 0xA5;

    static final int COOKIE_BYTES = 16;
    static final int INIT_BYTES = 1 + 4 + NoiseXX.MESSAGE1_OVERHEAD + COOKIE_BYTES;
    static final int COOKIE_REPLY_BYTES = 1 + 4 + COOKIE_BYTES;
    static final int DATA_HEADER_BYTES = 1 + 4 + 8;
    /** What sealing adds to every datagram: the header and the tag. */
    static final int DATA_OVERHEAD = DATA_HEADER_BYTES + Aead.TAG_BYTES;
    /** A bound on handshake datagrams: the payload with a certificate, and the Noise overheads. */
    static final int MAX_HANDSHAKE_BYTES = 1 + 8 + NoiseXX.MESSAGE2_OVERHEAD + HandshakePayload.MAX_BYTES;
    static final byte[] PROLOGUE = "hopwise link v1".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private SecureWire() {}

    static int getInt(byte[] b, int at) {
        return (b[at] & 0xFF) << 24 | (b[at + 1] & 0xFF) << 16 | (b[at + 2] & 0xFF) << 8 | (b[at + 3] & 0xFF);
    }

    static void putInt(byte[] b, int at, int v) {
        b[at] = (byte) (v >>> 24);
        b[at + 1] = (byte) (v >>> 16);
        b[at + 2] = (byte) (v >>> 8);
        b[at + 3] = (byte) v;
    }
}
