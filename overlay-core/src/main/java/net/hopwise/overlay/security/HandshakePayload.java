package net.hopwise.overlay.security;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import net.hopwise.overlay.NodeId;

/**
 * Who a handshake's static key belongs to, sent encrypted in Noise messages 2 and 3: the claimed
 * node name, the identity key, the identity key's signature over the link key (which the receiver
 * checks against the Noise static key it just authenticated) and, under an authority, the
 * certificate for the name and identity key.
 *
 * <pre>
 *   version 1 (1) | name length (1) | name | identity key (32) | link key binding (64)
 *   | certificate length (2) | certificate
 * </pre>
 */
record HandshakePayload(String name, byte[] identityKey, byte[] linkKeyBinding, byte[] certificate) {
    static final int MAX_BYTES = 2 + NodeId.MAX_NAME_LENGTH + 32 + 64 + 2 + NodeCertificate.MAX_BYTES;

    byte[] encode() {
        byte[] n = name.getBytes(StandardCharsets.US_ASCII);
        byte[] c = certificate == null ? new byte[0] : certificate;
        ByteBuffer out = ByteBuffer.allocate(2 + n.length + 32 + 64 + 2 + c.length);
        out.put((byte) 1).put((byte) n.length).put(n).put(identityKey).put(linkKeyBinding)
                .putShort((short) c.length).put(c);
        return out.array();
    }

    /** The payload these bytes encode, or empty (never an exception). */
    static Optional<HandshakePayload> decode(byte[] b) {
        if (b.length < 2 || b[0] != 1) {
            return Optional.empty();
        }
        int n = b[1] & 0xFF;
        int certAt = 2 + n + 32 + 64 + 2;
        if (n == 0 || n > NodeId.MAX_NAME_LENGTH || b.length < certAt) {
            return Optional.empty();
        }
        ByteBuffer in = ByteBuffer.wrap(b);
        in.position(2);
        byte[] name = new byte[n];
        in.get(name);
        byte[] identity = new byte[32];
        in.get(identity);
        byte[] binding = new byte[64];
        in.get(binding);
        int certLength = in.getShort() & 0xFFFF;
        if (b.length != certAt + certLength || certLength > NodeCertificate.MAX_BYTES) {
            return Optional.empty();
        }
        byte[] cert = null;
        if (certLength > 0) {
            cert = new byte[certLength];
            in.get(cert);
        }
        String s = new String(name, StandardCharsets.US_ASCII);
        try {
            NodeId.requireValidName(s);
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
        return Optional.of(new HandshakePayload(s, identity, binding, cert));
    }
}
